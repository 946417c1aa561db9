package w3c

import (
	"time"

	"github.com/didlight/didlight/core/did"
)

// unixTime returns a writer of a Unix time as the datetime DID Resolution
// asks for (§Datetime): UTC, whole seconds.
func unixTime(unix int64) func(dst []byte) []byte {
	return func(dst []byte) []byte { return did.AppendTime(dst, time.Unix(unix, 0)) }
}
