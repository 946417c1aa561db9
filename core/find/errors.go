package find

import (
	"fmt"

	"github.com/didlight/didlight/core/excerpt"
)

// SyntaxError reports text that is not a (relaxed) JSON value: what was
// expected and what was found at which byte offset.
type SyntaxError struct {
	Offset   int    // byte offset of the problem in the text
	Expected string // what the parser expected there, e.g. "':' after an object key"
	Found    string // what it found, e.g. "'}'" or "end of input"
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("find: syntax error at byte %d: expected %s, found %s", e.Offset, e.Expected, e.Found)
}

// Rule names what is wrong with a well-formed condition.
type Rule int

const (
	// UnknownOperator: a $-key that is no operator at all, or a plain key
	// among operators ({a: {$gt: 1, b: 2}}).
	UnknownOperator Rule = iota + 1
	// UnsupportedOperator: an operator outside the find-condition syntax
	// this package implements ($where, $expr, $text, geospatial and bitwise
	// operators), an aggregation stage ($match, $group) or an update
	// operator ($set, $push).
	UnsupportedOperator
	// MisplacedOperator: a known operator where it cannot stand, such as
	// $gt at the top level or $and under a field name.
	MisplacedOperator
	// InvalidArgument: an operator whose argument has the wrong type or value.
	InvalidArgument
)

var ruleNames = [...]string{
	UnknownOperator:     "unknown operator",
	UnsupportedOperator: "unsupported operator",
	MisplacedOperator:   "misplaced operator",
	InvalidArgument:     "invalid argument",
}

func (r Rule) String() string {
	if r > 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// ConditionError reports a syntactically valid text that is not a valid
// find condition, naming the operator and the field path it applies to.
type ConditionError struct {
	Rule     Rule
	Operator string // the operator or key at fault, e.g. "$where"
	Path     string // dotted field path it applies to; "" at the top level
	Detail   string // what exactly is wrong
}

func (e *ConditionError) Error() string {
	at := "at the top level"
	if e.Path != "" {
		at = "on path " + excerpt.Quote(e.Path)
	}
	return fmt.Sprintf("find: %s %s %s: %s", e.Rule, excerpt.Cut(e.Operator), at, e.Detail)
}
