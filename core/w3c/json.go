package w3c

import (
	"strconv"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/did/sdkjson"
)

// object appends the members of a JSON object, in the order written.
type object struct {
	b     []byte
	empty bool
}

func newObject(dst []byte) object { return object{b: append(dst, '{'), empty: true} }

func (o *object) key(k string) {
	if !o.empty {
		o.b = append(o.b, ',')
	}
	o.empty = false
	o.b = append(sdkjson.AppendString(o.b, k), ':')
}

func (o *object) str(k, v string) {
	o.key(k)
	o.b = sdkjson.AppendString(o.b, v)
}

func (o *object) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

func (o *object) int(k string, v int64) {
	o.key(k)
	o.b = strconv.AppendInt(o.b, v, 10)
}

func (o *object) boolean(k string, v bool) {
	o.key(k)
	o.b = strconv.AppendBool(o.b, v)
}

// time writes a Unix time as the datetime DID Resolution asks for (§Datetime):
// UTC, whole seconds.
func (o *object) time(k string, unix int64) {
	o.key(k)
	o.b = did.AppendTime(o.b, time.Unix(unix, 0))
}

func (o *object) end() []byte { return append(o.b, '}') }
