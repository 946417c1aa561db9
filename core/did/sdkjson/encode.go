package sdkjson

import (
	"math"
	"slices"
	"strconv"

	"github.com/didlight/didlight/core/jsontext"
)

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
		return jsontext.JS.AppendString(dst, v.str)
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
		dst = jsontext.JS.AppendString(dst, m.Key)
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
