package find

import (
	"math"
	"regexp"
)

// matcher is one node of a compiled condition. Document-level nodes
// (logical operators, pathMatch) test the document, or the object an
// $elemMatch or shape condition stands on; value-level nodes test one
// value a path reached. not, and and always serve at both levels.
type matcher interface {
	match(e elem) bool
}

// pathMatch holds when pred holds for any value path reaches.
type pathMatch struct {
	path  string
	steps []step
	at    arrayEnd // what pred tests of an array the path ends at
	pred  matcher
}

func (m *pathMatch) match(e elem) bool { return walk(e, m.steps, m.at, m.pred) }

// arrayEnd says what a walk tests of an array its path ends at: its
// elements, the array itself, or both.
type arrayEnd uint8

const (
	endElems arrayEnd = 1 << iota // the elements (not the operators on whole arrays)
	endArray                      // the array (not when pred never holds for one)
)

type and []matcher

func (m and) match(e elem) bool {
	for _, k := range m {
		if !k.match(e) {
			return false
		}
	}
	return true
}

type or []matcher

func (m or) match(e elem) bool {
	for _, k := range m {
		if k.match(e) {
			return true
		}
	}
	return false
}

type not struct{ m matcher }

func (m not) match(e elem) bool { return !m.m.match(e) }

// always is a constant: {} matches everything, {$all: []} nothing.
type always bool

func (m always) match(elem) bool { return bool(m) }

// compare is $eq, $gt, $gte, $lt or $lte against an operand. Values of
// different kinds never compare (type bracketing), except that a null
// operand is equal to a missing value.
// https://www.mongodb.com/docs/manual/reference/bson-type-comparison-order/
// https://www.mongodb.com/docs/manual/tutorial/query-for-null-fields/
type compare struct {
	op      cmpOp
	operand *Value
}

type cmpOp uint8

const (
	opEq cmpOp = iota
	opGt
	opGte
	opLt
	opLte
)

func (m *compare) match(e elem) bool {
	k := e.kind()
	if k != m.operand.kind {
		return k == kindMissing && m.operand.kind == kindNull && m.op != opGt && m.op != opLt
	}
	if m.op == opEq && k == kindString { // most equalities: no order needed
		return e.equalString(m.operand.str)
	}
	c := compareKind(e, k, m.operand)
	switch m.op {
	case opGt:
		return c > 0
	case opGte:
		return c >= 0
	case opLt:
		return c < 0
	case opLte:
		return c <= 0
	}
	return c == 0
}

// in is $in: equal to one of values, or a string matched by one of patterns.
// A null among the values matches missing fields too.
// https://www.mongodb.com/docs/manual/reference/operator/query/in/
type in struct {
	values   []*compare
	patterns []*regexp.Regexp
}

func (m *in) match(e elem) bool {
	for _, v := range m.values {
		if v.match(e) {
			return true
		}
	}
	if len(m.patterns) == 0 || e.kind() != kindString {
		return false
	}
	s := e.string()
	for _, re := range m.patterns {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// regexMatch is $regex (or a /regex/ literal as a value): it matches
// strings only.
type regexMatch struct{ re *regexp.Regexp }

func (m regexMatch) match(e elem) bool { return e.kind() == kindString && m.re.MatchString(e.string()) }

// exists is $exists: true; $exists: false is not{exists}.
type exists struct{}

func (exists) match(e elem) bool { return e.kind() != kindMissing }

// types is $type: a set of kinds, as bits.
type types uint16

func (m types) match(e elem) bool { return m&(1<<e.kind()) != 0 }

// size is $size: an array of exactly n elements.
type size int

func (m size) match(e elem) bool {
	if e.kind() != kindArray {
		return false
	}
	n := 0
	e.each(func(string, elem) bool { n++; return false })
	return n == int(m)
}

// mod is $mod: a number whose integer part has the remainder r modulo d.
// https://www.mongodb.com/docs/manual/reference/operator/query/mod/
type mod struct{ d, r int64 }

func (m mod) match(e elem) bool {
	return e.kind() == kindNumber && truncate(e.number())%m.d == m.r
}

// truncate converts f to an integer toward zero, saturating at the int64 range.
func truncate(f float64) int64 {
	switch {
	case f >= math.MaxInt64:
		return math.MaxInt64
	case f <= math.MinInt64:
		return math.MinInt64
	}
	return int64(f)
}

// elemMatchValue is $elemMatch with operators: an array with an element
// that satisfies pred by itself.
// https://www.mongodb.com/docs/manual/reference/operator/query/elemMatch/
type elemMatchValue struct{ pred matcher }

func (m elemMatchValue) match(e elem) bool {
	return e.kind() == kindArray && e.each(func(_ string, x elem) bool { return m.pred.match(x) })
}

// elemMatchDoc is $elemMatch with a query: an array with an embedded
// document (or array) that satisfies cond.
type elemMatchDoc struct{ cond matcher }

func (m elemMatchDoc) match(e elem) bool {
	return e.kind() == kindArray && e.each(func(_ string, x elem) bool {
		k := x.kind()
		return (k == kindObject || k == kindArray) && m.cond.match(x)
	})
}

// shape is a shape condition: an object that satisfies cond (see the
// package documentation). members are the conditions of cond when each is
// on a path whose first name the encoded form writes as a code (newShape):
// on an object in encoded form they are tested from one read of its head,
// rather than one for each.
type shape struct {
	cond    matcher
	members []*pathMatch
}

// newShape returns the shape condition cond, with its members if it has them.
func newShape(cond matcher) shape {
	kids, ok := cond.(and)
	if !ok {
		kids = and{cond}
	}
	members := make([]*pathMatch, len(kids))
	for i, k := range kids {
		pm, ok := k.(*pathMatch)
		if !ok || pm.steps[0].code == 0 {
			return shape{cond: cond}
		}
		members[i] = pm
	}
	return shape{cond: cond, members: members}
}

func (m shape) match(e elem) bool {
	switch {
	case e.kind() != kindObject:
		return false
	case e.enc != "" && m.members != nil:
		return matchMembers(e, m.members)
	}
	return m.cond.match(e)
}
