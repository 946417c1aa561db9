package sdkjson

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// AppendString appends s as JSON.stringify writes a string. Bytes of s that
// are not UTF-8 are written as U+FFFD.
func AppendString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if i += plainRun(s[i:]); i == len(s) {
			break
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = append(dst, s[start:i]...)
				dst = utf8.AppendRune(dst, utf8.RuneError)
				i++
				start = i
				continue
			}
			i += n
			continue
		}
		if c >= 0x20 && c != '"' && c != '\\' {
			i++
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// plainRun returns the length of the longest run of 8-byte blocks at the
// start of s that hold only ASCII a JSON string holds as it is (no control
// character, quote or backslash), testing 8 bytes at once: strings in
// documents and requests, base64 payloads above all, are long runs of such
// bytes.
func plainRun(s string) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	n := 0
	for ; len(s)-n >= 8; n += 8 {
		b := s[n : n+8]
		x := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		quote, backslash := x^(ones*'"'), x^(ones*'\\')
		// A byte below 0x20, and a quote or backslash (zero after the XOR),
		// borrows in its subtraction and so gets a high bit it did not
		// have; a byte of 0x80 or more has one already. Borrows reaching
		// further bytes only happen after such a byte, so the answer for
		// the 8 is exact.
		special := (x-ones*0x20)&^x | (quote-ones)&^quote | (backslash-ones)&^backslash
		if (x|special)&highs != 0 {
			break
		}
	}
	return n
}

// AppendNumber appends f as JavaScript's Number.prototype.toString writes it:
// the shortest decimal that reads back as f, in plain notation from 1e-6 up
// to 1e21 and in exponent notation ("1e+21", "1.5e-7") outside. JSON.stringify
// writes non-finite numbers as null, and so does AppendNumber.
func AppendNumber(dst []byte, f float64) []byte {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return append(dst, "null"...)
	}
	if f == 0 {
		return append(dst, '0') // also for -0
	}
	if abs := math.Abs(f); abs >= 1e21 || abs < 1e-6 {
		b := strconv.AppendFloat(dst, f, 'e', -1, 64)
		// Go writes e-07 and e+21; JavaScript writes e-7 and e+21.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
		return b
	}
	return strconv.AppendFloat(dst, f, 'f', -1, 64)
}

// AppendValue appends v as JSON.stringify writes it.
func AppendValue(dst []byte, v Value) []byte {
	switch v.kind {
	case Null:
		return append(dst, "null"...)
	case Bool:
		return strconv.AppendBool(dst, v.num != 0)
	case Number:
		return AppendNumber(dst, v.num)
	case String:
		return AppendString(dst, v.str)
	case Array:
		dst = append(dst, '[')
		for i, e := range v.list {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendValue(dst, e.Value)
		}
		return append(dst, ']')
	case Object:
		return AppendObject(dst, v.list)
	}
	return dst // an Invalid value writes nothing, as undefined does
}

// AppendObject appends an object whose members are those of the groups, in
// order. As in a JavaScript object, members whose key is an array index come
// first, in numeric order; the others follow in the order given. Members
// whose value is Invalid are left out, as JSON.stringify leaves out undefined.
func AppendObject(dst []byte, groups ...[]Member) []byte {
	dst = append(dst, '{')
	n := 0
	write := func(m Member) {
		if m.Value.kind == Invalid {
			return
		}
		if n > 0 {
			dst = append(dst, ',')
		}
		n++
		dst = AppendString(dst, m.Key)
		dst = append(dst, ':')
		dst = AppendValue(dst, m.Value)
	}
	var index []Member
	for _, g := range groups {
		for _, m := range g {
			if isArrayIndex(m.Key) {
				index = append(index, m)
			}
		}
	}
	slices.SortFunc(index, func(a, b Member) int { return compareIndex(a.Key, b.Key) })
	for _, m := range index {
		write(m)
	}
	for _, g := range groups {
		for _, m := range g {
			if index == nil || !isArrayIndex(m.Key) {
				write(m)
			}
		}
	}
	return append(dst, '}')
}

// isArrayIndex reports whether key is the canonical decimal form of an
// integer from 0 to 2^32−2, which JavaScript orders before other keys.
func isArrayIndex(key string) bool {
	if key == "" || len(key) > 10 || key[0] == '0' && len(key) > 1 {
		return false
	}
	var n uint64
	for i := 0; i < len(key); i++ {
		if key[i] < '0' || key[i] > '9' {
			return false
		}
		n = n*10 + uint64(key[i]-'0')
	}
	return n < math.MaxUint32
}

// compareIndex orders two array-index keys by value: shorter is smaller.
func compareIndex(a, b string) int {
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return CompareUTF16(a, b)
}
