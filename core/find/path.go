package find

import (
	"strconv"
	"strings"
)

// step is one name of a dotted field path.
type step struct {
	name  string // the field name
	index int    // the array position the name spells ("0", "12"), or -1
	code  byte   // encCode(name): how the encoded form writes the name
}

func splitPath(path string) []step {
	steps := make([]step, 0, strings.Count(path, ".")+1)
	for {
		n, rest, more := strings.Cut(path, ".")
		steps = append(steps, step{name: n, index: arrayIndex(n), code: encCode(n)})
		if !more {
			return steps
		}
		path = rest
	}
}

// arrayIndex returns the position a path name spells, or -1. Only the
// canonical spelling names a position: array elements are named "0", "1"...
func arrayIndex(name string) int {
	if name == "" || name != "0" && name[0] == '0' {
		return -1
	}
	for i := 0; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' {
			return -1
		}
	}
	n, err := strconv.Atoi(name)
	if err != nil {
		return -1
	}
	return n
}

// The functions below yield the values a dotted path reaches in a
// document, as the store's matcher does, and report whether pred holds for
// any of them (https://www.mongodb.com/docs/manual/core/document/#dot-notation,
// https://www.mongodb.com/docs/manual/tutorial/query-arrays/). The order and
// shape of what is yielded follows the store's path iterator (facts from
// mongodb/mongo src/mongo/db/matcher/path.cpp):
//   - Descending through objects, a missing field or a scalar where the path
//     goes on yields one missing value (so {a: null} matches a missing a).
//   - An array met before the path ends is traversed: each object element
//     continues with the rest of the path; an element at the position the
//     next name spells ("a.0.b") continues after that name; other elements,
//     and arrays nested in the array, yield nothing.
//   - An array where the path ends yields each element (endElems) and then
//     the array itself (endArray), or only the array for operators on whole
//     arrays ($size, $elemMatch). Nested arrays are not expanded further. A
//     walk skips the array when pred cannot hold for one (failsOnArrays).

// walk reports whether pred holds for a value the path reaches from ctx
// (which it moves along the path).
func walk(ctx elem, steps []step, at arrayEnd, pred matcher) bool {
	k, rest := descend(&ctx, steps)
	if k != kindArray {
		return pred.match(ctx)
	}
	if len(rest) > 0 {
		return walkArray(ctx, rest, at, pred)
	}
	if at&endElems != 0 && ctx.each(func(_ string, x elem) bool { return pred.match(x) }) {
		return true
	}
	return at&endArray != 0 && pred.match(ctx)
}

// matchMembers reports whether each of kids holds on the object obj in
// encoded form, whose head it reads once to find the member each kid's
// path starts with (each path's first name has a code: newShape). From
// that member a kid's walk goes on as walk's would.
func matchMembers(obj elem, kids []*pathMatch) bool {
	var o encObject
	ok := o.split(obj.raw)
	for _, m := range kids {
		x := elem{enc: obj.enc}
		if ok {
			x.raw = o.find(m.steps[0].code)
		}
		rest := m.steps[1:]
		if len(rest) > 0 && x.kind() == kindArray {
			if !walkArray(x, rest, m.at, m.pred) {
				return false
			}
		} else if !walk(x, rest, m.at, m.pred) {
			return false
		}
	}
	return true
}

// descend moves cur along the path through objects until it ends or meets
// an array; it returns the kind of the value reached and the steps left
// after it. It works in place: a walk descends at every step.
func descend(cur *elem, steps []step) (kind, []step) {
	k := cur.kind()
	for len(steps) > 0 {
		if k != kindObject && k != kindArray {
			*cur = elem{}
			return kindMissing, nil
		}
		cur.enter(&steps[0])
		steps, k = steps[1:], cur.kind()
		if len(steps) > 0 && k == kindArray {
			break
		}
	}
	return k, steps
}

// walkArray traverses an array met before the path ends.
func walkArray(arr elem, rest []step, at arrayEnd, pred matcher) bool {
	pos := -1
	return arr.each(func(_ string, x elem) bool {
		pos++
		k := x.kind()
		if k == kindObject && walk(x, rest, at, pred) {
			return true
		}
		if rest[0].index != pos {
			return false
		}
		switch {
		case len(rest) == 1:
			return pred.match(x)
		case k == kindObject:
			return walk(x, rest[1:], at, pred)
		case k == kindArray:
			return walkArray(x, rest[1:], at, pred)
		}
		return false
	})
}
