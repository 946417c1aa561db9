package did

import (
	"fmt"
	"strings"
	"time"

	"github.com/didlight/didlight/core/excerpt"
)

// timeLayout is how the SDKs write dates: UTC, whole seconds, a Z.
const timeLayout = "2006-01-02T15:04:05Z"

// parseTime reads an RFC 3339 date-time in UTC ("Z"). Fractions of a second
// are accepted and dropped, as the SDKs drop them.
func parseTime(s string) (time.Time, error) {
	if !strings.HasSuffix(s, "Z") {
		return time.Time{}, fmt.Errorf("%s is not an RFC 3339 date-time in UTC (want the form %s)", excerpt.Quote(s), timeLayout)
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s is not an RFC 3339 date-time in UTC (want the form %s)", excerpt.Quote(s), timeLayout)
	}
	return t.Truncate(time.Second), nil
}

// FormatTime writes t as documents and resolve results do:
// 2006-01-02T15:04:05Z, in UTC, whole seconds.
func FormatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// AppendTime appends t as a JSON string, written as [FormatTime] writes it.
func AppendTime(dst []byte, t time.Time) []byte {
	dst = append(dst, '"')
	dst = t.UTC().AppendFormat(dst, timeLayout)
	return append(dst, '"')
}
