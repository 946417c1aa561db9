package find

import (
	"slices"
	"strings"
)

// A prefilter rejects most raw documents a condition cannot match before
// any JSON is read: in JSON text without a backslash every key and every
// string is written verbatim in double quotes, so a document that matches
// must contain, for instance, "email" to have a credential.subject.email
// and "HiveVault" to have that service type. Searching bytes is many times
// faster than walking the document; with a backslash anywhere the
// prefilter stands aside, so it never changes an answer.
type prefilter [][]literal // the text must contain one literal of each group

func (p prefilter) admits(text string) bool {
	for _, group := range p {
		if !slices.ContainsFunc(group, func(l literal) bool { return l.in(text) }) {
			// Not written verbatim: only an escaped spelling could be there.
			return strings.IndexByte(text, '\\') >= 0
		}
	}
	return true
}

// literal is a quoted key or string to search raw text for. The search
// jumps between occurrences of its least common byte: a plain substring
// search would stop at every double quote of the document.
type literal struct {
	text   string
	anchor int // the index in text of its least common byte
}

// byFrequency lists bytes from most to least common in compact DID
// documents (measured over the SDK vectors); unlisted bytes are rarer.
const byFrequency = `"et:iarosdln,c/p12h05ugmy.w-4f8bZCvT369XjMxVBPLSJD{}kEAK7URqNWHYG[#]FQOz_I@ =+?&`

func newLiteral(s string) literal {
	quoted := string(appendString(nil, s))
	rank := func(i int) int {
		if r := strings.IndexByte(byFrequency, quoted[i]); r >= 0 {
			return r
		}
		return len(byFrequency)
	}
	anchor := 0
	for i := range len(quoted) {
		if rank(i) > rank(anchor) {
			anchor = i
		}
	}
	return literal{quoted, anchor}
}

func (l literal) in(text string) bool {
	c := l.text[l.anchor]
	for from := l.anchor; from < len(text); {
		j := strings.IndexByte(text[from:], c)
		if j < 0 {
			return false
		}
		if strings.HasPrefix(text[from+j-l.anchor:], l.text) {
			return true
		}
		from += j + 1
	}
	return false
}

// newPrefilter collects the literals every match must contain, from the
// conditions joined by AND whose path must reach a value: the strings such
// values must equal or, when there are none, the last key of each path.
// Keys come second because many ("type", "id") are in nearly every document.
func newPrefilter(m matcher) prefilter {
	var n needs
	n.add(m)
	if len(n.values) > 0 {
		return n.values
	}
	return n.keys
}

type needs struct{ keys, values prefilter }

func (n *needs) add(m matcher) {
	switch m := m.(type) {
	case and:
		for _, k := range m {
			n.add(k)
		}
	case *pathMatch:
		if !needsValue(m.pred) {
			return
		}
		// The last name that is not an array position is a key of the document.
		for i := len(m.steps) - 1; i >= 0; i-- {
			if m.steps[i].index < 0 {
				n.keys = append(n.keys, []literal{newLiteral(m.steps[i].name)})
				break
			}
		}
		n.addValue(m.pred)
	}
}

// needsValue reports whether pred fails on a missing value.
func needsValue(pred matcher) bool {
	switch pred := pred.(type) {
	case *compare:
		return pred.operand.kind != kindNull
	case *in:
		return !slices.ContainsFunc(pred.values, func(c *compare) bool { return c.operand.kind == kindNull })
	case regexMatch, exists, types, size, mod, elemMatchValue, elemMatchDoc, shape:
		return true
	}
	return false
}

// addValue adds the strings a value satisfying pred must hold.
func (n *needs) addValue(pred matcher) {
	switch pred := pred.(type) {
	case *compare:
		if pred.op == opEq && pred.operand.kind == kindString {
			n.values = append(n.values, []literal{newLiteral(pred.operand.str)})
		}
	case *in:
		if len(pred.patterns) > 0 || len(pred.values) == 0 {
			return
		}
		group := make([]literal, len(pred.values))
		for i, c := range pred.values {
			if c.operand.kind != kindString {
				return
			}
			group[i] = newLiteral(c.operand.str)
		}
		n.values = append(n.values, group)
	case shape:
		n.add(pred.cond)
	case elemMatchDoc:
		n.add(pred.cond)
	}
}
