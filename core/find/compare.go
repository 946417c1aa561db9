package find

import (
	"cmp"
	"strings"
)

// compareValue orders a document value against an operand as the store
// does: first by kind in the comparison order, then numbers by value,
// strings byte by byte, false before true, and embedded documents and
// arrays member by member (kind, then name, then value), a shorter one
// first when all shared members are equal. Embedded document equality is
// therefore exact, member order included.
// https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/#objects
// https://www.mongodb.com/docs/manual/tutorial/query-embedded-documents/#match-an-embedded-nested-document
func compareValue(e elem, v *Value) int {
	k := e.kind()
	if c := cmp.Compare(k, v.kind); c != 0 {
		return c
	}
	return compareKind(e, k, v)
}

// compareKind is compareValue of a value e of the kind k of v.
func compareKind(e elem, k kind, v *Value) int {
	switch k {
	case kindNumber:
		return cmp.Compare(e.number(), v.num)
	case kindString, kindRegex:
		return e.compareString(v.str)
	case kindBool:
		return cmp.Compare(boolInt(e.boolean()), int(v.num))
	case kindObject, kindArray:
		return compareMembers(e, v)
	}
	return 0 // null
}

func compareMembers(e elem, v *Value) int {
	i, c := 0, 0
	e.each(func(key string, x elem) bool {
		if i == len(v.items) {
			c = 1 // e has more members
			return true
		}
		w := &v.items[i]
		if c = cmp.Compare(x.kind(), w.kind); c == 0 && v.kind == kindObject {
			c = strings.Compare(key, v.keys[i])
		}
		if c == 0 {
			c = compareValue(x, w)
		}
		i++
		return c != 0
	})
	if c == 0 && i < len(v.items) {
		c = -1
	}
	return c
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
