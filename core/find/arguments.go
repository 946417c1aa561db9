package find

import (
	"math"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// compileIn compiles the array of $in or $nin: values to find, and
// /regex/ literals to match strings with.
// https://www.mongodb.com/docs/manual/reference/operator/query/in/#use-the--in-operator-with-a-regular-expression
func compileIn(op string, arg *Value, at string) (*in, error) {
	if arg.kind != kindArray {
		return nil, &ConditionError{InvalidArgument, op, at, "needs an array, found " + arg.brief()}
	}
	m := &in{}
	for i := range arg.items {
		item := &arg.items[i]
		switch {
		case item.kind == kindRegex:
			re, err := literalRegex(item, at)
			if err != nil {
				return nil, err
			}
			m.patterns = append(m.patterns, re.re)
		case item.kind == kindObject && len(item.keys) > 0 && strings.HasPrefix(item.keys[0], "$"):
			return nil, &ConditionError{InvalidArgument, op, at, "holds values and /regex/ literals, not operators: " + item.brief()}
		default:
			m.values = append(m.values, &compare{opEq, item})
		}
	}
	return m, nil
}

// bsonTypes are the store's type aliases and numbers; only the types a
// JSON value can have name a kind, the others match nothing.
// https://www.mongodb.com/docs/manual/reference/operator/query/type/#available-types
var bsonTypes = map[string]int{
	"double": 1, "string": 2, "object": 3, "array": 4, "binData": 5, "undefined": 6,
	"objectId": 7, "bool": 8, "date": 9, "null": 10, "regex": 11, "dbPointer": 12,
	"javascript": 13, "symbol": 14, "javascriptWithScope": 15, "int": 16,
	"timestamp": 17, "long": 18, "decimal": 19, "minKey": -1, "maxKey": 127,
}

var jsonKinds = map[int]kind{1: kindNumber, 2: kindString, 3: kindObject, 4: kindArray, 8: kindBool, 10: kindNull}

// compileTypes compiles $type: one alias or number, or a non-empty array of them.
func compileTypes(arg *Value, at string) (matcher, error) {
	list := []Value{*arg}
	if arg.kind == kindArray {
		if len(arg.items) == 0 {
			return nil, &ConditionError{InvalidArgument, "$type", at, "must match at least one type"}
		}
		list = arg.items
	}
	var set types
	for _, t := range list {
		code, ok := 0, false
		switch t.kind {
		case kindString:
			code, ok = bsonTypes[t.str]
			if t.str == "number" {
				code, ok = 1, true // "number" stands for all numeric types: double, int, long, decimal
			}
		case kindNumber:
			code = int(t.num)
			ok = float64(code) == t.num && isBSONType(code)
		}
		if !ok {
			return nil, &ConditionError{InvalidArgument, "$type", at, "unknown type " + t.brief() + "; use a BSON type alias such as \"string\" or \"number\", or its number"}
		}
		if k, ok := jsonKinds[code]; ok {
			set |= 1 << k
		}
	}
	return set, nil
}

func isBSONType(code int) bool {
	for _, c := range bsonTypes {
		if c == code {
			return true
		}
	}
	return false
}

// wholeNumber returns v as an int64 if it is a number without a fraction
// within the int64 range.
func wholeNumber(v *Value) (int64, bool) {
	if v.kind != kindNumber || v.num != math.Trunc(v.num) || math.Abs(v.num) >= 1<<63 {
		return 0, false
	}
	return int64(v.num), true
}

// compileSize compiles $size: a whole number of elements.
// https://www.mongodb.com/docs/manual/reference/operator/query/size/
func compileSize(arg *Value, at string) (matcher, error) {
	n, ok := wholeNumber(arg)
	if !ok || n < 0 || n > math.MaxInt32 {
		return nil, &ConditionError{InvalidArgument, "$size", at, "needs a non-negative whole number, found " + arg.brief()}
	}
	return size(n), nil
}

// compileMod compiles $mod: [divisor, remainder], both truncated toward zero.
func compileMod(arg *Value, at string) (matcher, error) {
	if arg.kind != kindArray || len(arg.items) != 2 {
		return nil, &ConditionError{InvalidArgument, "$mod", at, "needs an array of two numbers [divisor, remainder], found " + arg.brief()}
	}
	var dr [2]int64
	for i := range dr {
		item := &arg.items[i]
		if item.kind != kindNumber || math.Abs(item.num) >= 1<<63 {
			return nil, &ConditionError{InvalidArgument, "$mod", at, "needs numbers within the int64 range, found " + item.brief()}
		}
		dr[i] = int64(item.num)
	}
	if dr[0] == 0 {
		return nil, &ConditionError{InvalidArgument, "$mod", at, "divisor cannot be 0"}
	}
	return mod{dr[0], dr[1]}, nil
}

// compileAll compiles $all: the field holds every item, each tested on its
// own; {$all: []} matches nothing. Items are values, /regex/ literals, or
// all of them {$elemMatch: …} objects.
// https://www.mongodb.com/docs/manual/reference/operator/query/all/
func compileAll(arg *Value, at string) (matcher, error) {
	if arg.kind != kindArray {
		return nil, &ConditionError{InvalidArgument, "$all", at, "needs an array, found " + arg.brief()}
	}
	if len(arg.items) == 0 {
		return always(false), nil
	}
	elemMatches := isElemMatch(&arg.items[0])
	all := make(and, len(arg.items))
	for i := range arg.items {
		item := &arg.items[i]
		var err error
		switch {
		case isElemMatch(item) != elemMatches:
			return nil, &ConditionError{InvalidArgument, "$all", at, "cannot mix {$elemMatch: …} items with values"}
		case elemMatches:
			all[i], err = compileElemMatch(&item.items[0], at)
		case item.kind == kindRegex:
			all[i], err = literalRegex(item, at)
		case item.kind == kindObject && len(item.keys) > 0 && strings.HasPrefix(item.keys[0], "$"):
			return nil, &ConditionError{InvalidArgument, "$all", at, "holds values, /regex/ literals or {$elemMatch: …} objects, not " + item.brief()}
		default:
			all[i] = &compare{opEq, item}
		}
		if err != nil {
			return nil, err
		}
	}
	return all, nil
}

func isElemMatch(v *Value) bool {
	return v.kind == kindObject && len(v.keys) == 1 && v.keys[0] == "$elemMatch"
}

// compileElemMatch compiles $elemMatch. An object whose first key is a
// field operator tests each element by itself ({$gte: 80, $lt: 85});
// otherwise it is a query on each embedded document.
// https://www.mongodb.com/docs/manual/reference/operator/query/elemMatch/
func compileElemMatch(arg *Value, at string) (matcher, error) {
	if arg.kind != kindObject {
		return nil, &ConditionError{InvalidArgument, "$elemMatch", at, "needs an object, found " + arg.brief()}
	}
	if isOperatorObject(arg) {
		pred, err := compileOperators(arg, at)
		return elemMatchValue{pred}, err
	}
	cond, err := compileQuery(arg, at, false)
	return elemMatchDoc{cond}, err
}

// compileNot compiles $not: the negation of a /regex/ or of an operator
// object, over the whole path: {a: {$not: {$gt: 5}}} matches documents
// without a too.
// https://www.mongodb.com/docs/manual/reference/operator/query/not/
func compileNot(arg *Value, at string) (matcher, error) {
	var m matcher
	var err error
	switch {
	case arg.kind == kindRegex:
		m, err = literalRegex(arg, at)
	case arg.kind == kindObject && len(arg.keys) > 0 && strings.HasPrefix(arg.keys[0], "$"):
		m, err = compileOperators(arg, at)
	default:
		return nil, &ConditionError{InvalidArgument, "$not", at, "needs a /regex/ or a non-empty operator object, found " + arg.brief()}
	}
	if err != nil {
		return nil, err
	}
	return not{m}, nil
}

// compileRegexOperator compiles $regex with the $options beside it.
func compileRegexOperator(arg, options *Value, at string) (matcher, error) {
	var pattern, flags string
	switch arg.kind {
	case kindString:
		pattern = arg.str
	case kindRegex:
		pattern, flags = splitRegexLiteral(arg.str)
	default:
		return nil, &ConditionError{InvalidArgument, "$regex", at, "needs a string or a /regex/ literal, found " + arg.brief()}
	}
	if options != nil {
		if options.kind != kindString {
			return nil, &ConditionError{InvalidArgument, "$options", at, "needs a string of options, found " + options.brief()}
		}
		if flags != "" {
			return nil, &ConditionError{InvalidArgument, "$options", at, "options given both in the /regex/ literal and in $options"}
		}
		flags = options.str
	}
	return newRegexMatch("$regex", pattern, flags, at)
}

// literalRegex compiles a /pattern/flags literal used as a condition.
func literalRegex(v *Value, at string) (regexMatch, error) {
	pattern, flags := splitRegexLiteral(v.str)
	return newRegexMatch(excerpt.Cut(v.str), pattern, flags, at)
}

func newRegexMatch(op, pattern, flags, at string) (regexMatch, error) {
	re, err := compileRegex(pattern, flags)
	if err != nil {
		return regexMatch{}, &ConditionError{InvalidArgument, op, at, regexProblem(err)}
	}
	return regexMatch{re}, nil
}
