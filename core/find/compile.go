package find

import "strings"

// compileQuery compiles a query object: the implicit AND of its members,
// which are field conditions and logical operators. at is the dotted path
// of the object the query stands on (for error messages); inShape says the
// query is a shape condition, where array literals mean "contains all".
func compileQuery(q *Value, at string, inShape bool) (matcher, error) {
	var all and
	for i, key := range q.keys {
		var m matcher
		var err error
		if strings.HasPrefix(key, "$") {
			m, err = compileLogical(key, &q.items[i], at, inShape)
		} else {
			m, err = compileField(key, &q.items[i], join(at, key), inShape)
		}
		if err != nil {
			return nil, err
		}
		if m != nil {
			all = append(all, m)
		}
	}
	return conjunction(all), nil
}

func conjunction(all and) matcher {
	if len(all) == 1 {
		return all[0]
	}
	return all // an empty and matches everything: {} finds all documents
}

func join(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

// compileLogical compiles a $-member of a query object.
// https://www.mongodb.com/docs/manual/reference/operator/query-logical/
func compileLogical(op string, arg *Value, at string, inShape bool) (matcher, error) {
	switch op {
	case "$and", "$or", "$nor":
		if arg.kind != kindArray || len(arg.items) == 0 {
			return nil, &ConditionError{InvalidArgument, op, at, "needs a non-empty array of condition objects"}
		}
		kids := make([]matcher, len(arg.items))
		for i := range arg.items {
			item := &arg.items[i]
			if item.kind != kindObject {
				return nil, &ConditionError{InvalidArgument, op, at, "needs a non-empty array of condition objects, found " + item.brief()}
			}
			var err error
			if kids[i], err = compileQuery(item, at, inShape); err != nil {
				return nil, err
			}
		}
		switch op {
		case "$and":
			return and(kids), nil
		case "$or":
			return or(kids), nil
		}
		return not{or(kids)}, nil
	case "$comment":
		return nil, nil // a note for the reader; it matches everything
	}
	if fieldOperators[op] {
		return nil, &ConditionError{MisplacedOperator, op, at, "applies to a field: write {field: {" + op + ": …}}"}
	}
	return nil, badOperator(op, at)
}

// compileField compiles the condition value v on the field path (relative
// to the object the query stands on; at is the full path for messages).
func compileField(path string, v *Value, at string, inShape bool) (matcher, error) {
	var m matcher
	var err error
	switch {
	case v.kind == kindObject && isOperatorObject(v):
		m, err = compileOperators(v, at)
	case v.kind == kindObject && hasOperator(v):
		var cond matcher
		cond, err = compileQuery(v, at, true)
		m = newShape(cond)
	case v.kind == kindArray && len(v.items) > 0 && (inShape || hasOperator(v)):
		return containsAll(path, v, at)
	case v.kind == kindRegex:
		m, err = literalRegex(v, at)
	default:
		m = &compare{opEq, v}
	}
	if err != nil {
		return nil, err
	}
	return onPath(path, m), nil
}

// containsAll compiles an array literal in a shape condition: the field
// holds every item. An item is read as a member value would be (a value
// to find among the elements, operators, a nested shape), except that a
// nested array is an element to find whole.
func containsAll(path string, v *Value, at string) (matcher, error) {
	all := make(and, len(v.items))
	for i := range v.items {
		item := &v.items[i]
		if item.kind == kindArray {
			all[i] = onPath(path, &compare{opEq, item})
			continue
		}
		var err error
		if all[i], err = compileField(path, item, at, true); err != nil {
			return nil, err
		}
	}
	return conjunction(all), nil
}

// isOperatorObject reports whether an object is a set of field operators
// ({$gt: 1, $lt: 5}) rather than a document or a shape: its first key is
// an operator other than those that combine whole conditions. This is the
// rule the store uses to tell the two forms of $elemMatch apart.
func isOperatorObject(v *Value) bool {
	return len(v.keys) > 0 && strings.HasPrefix(v.keys[0], "$") && !queryOperators[v.keys[0]]
}

// hasOperator reports whether a $-key or a /regex/ literal appears
// anywhere inside v: what no JSON document can hold, so what no exact
// equality could ever match.
func hasOperator(v *Value) bool {
	if v.kind == kindRegex {
		return true
	}
	for _, k := range v.keys {
		if strings.HasPrefix(k, "$") {
			return true
		}
	}
	for i := range v.items {
		if hasOperator(&v.items[i]) {
			return true
		}
	}
	return false
}

// onPath applies a value-level matcher to a field path. Negations and
// conjunctions apply to the whole path, so that {a: {$ne: 1}} means "no
// value of a is 1" and {a: {$gt: 1, $lt: 5}} lets different elements of
// an array satisfy the two bounds, as the store does.
// https://www.mongodb.com/docs/manual/reference/operator/query/ne/
// https://www.mongodb.com/docs/manual/tutorial/query-arrays/#query-an-array-with-compound-filter-conditions-on-the-array-elements
func onPath(path string, m matcher) matcher {
	switch m := m.(type) {
	case not:
		return not{onPath(path, m.m)}
	case and:
		out := make(and, len(m))
		for i, k := range m {
			out[i] = onPath(path, k)
		}
		return out
	case always:
		return m
	}
	steps := splitPath(path)
	at := endArray
	if expandsArrays(m) {
		at |= endElems
	}
	if failsOnArrays(m) {
		at &^= endArray
	}
	return &pathMatch{path: path, steps: steps, at: at, pred: m}
}

// failsOnArrays reports whether m never holds for an array, so that a walk
// need not test the array after its elements. It may say false of some
// that never do: that costs a test, not an answer.
func failsOnArrays(m matcher) bool {
	switch m := m.(type) {
	case *compare:
		return m.operand.kind != kindArray // kinds differ: no match (a null operand matches missing values only)
	case shape, regexMatch, mod:
		return true
	}
	return false
}

// expandsArrays reports whether m tests the elements of an array a path
// ends at as well as the array; operators on whole arrays do not.
func expandsArrays(m matcher) bool {
	switch m.(type) {
	case size, elemMatchValue, elemMatchDoc:
		return false
	}
	return true
}
