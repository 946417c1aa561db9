package ela

import (
	"strconv"
	"unicode/utf8"
)

// AppendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes it: \b \f \n \r \t and \u00xx for the other control
// characters, U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd, and with
// escapeHTML (json.Marshal's default) <, > and & as \u003c, \u003e and
// \u0026. The JSON forms of this package are written with it, without
// encoding/json's reflection (which a WebAssembly build would carry).
func AppendJSONString(b []byte, s string, escapeHTML bool) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && (!escapeHTML || c != '<' && c != '>' && c != '&') {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	return append(append(b, s[start:]...), '"')
}

// jsonObject writes the members of a JSON object as json.Marshal writes a
// struct's fields.
type jsonObject struct {
	b []byte
	n int // members written
}

func newJSONObject(b []byte) *jsonObject { return &jsonObject{b: append(b, '{')} }

func (o *jsonObject) key(k string) {
	if o.n > 0 {
		o.b = append(o.b, ',')
	}
	o.n++
	o.b = append(AppendJSONString(o.b, k, true), ':')
}

func (o *jsonObject) str(k, v string) {
	o.key(k)
	o.b = AppendJSONString(o.b, v, true)
}

// strOmit writes a string member unless it is empty (omitempty).
func (o *jsonObject) strOmit(k, v string) {
	if v != "" {
		o.str(k, v)
	}
}

func (o *jsonObject) uint(k string, v uint64) {
	o.key(k)
	o.b = strconv.AppendUint(o.b, v, 10)
}

// raw writes a member whose value is already JSON.
func (o *jsonObject) raw(k string, v []byte) {
	o.key(k)
	o.b = append(o.b, v...)
}

func (o *jsonObject) end() []byte { return append(o.b, '}') }
