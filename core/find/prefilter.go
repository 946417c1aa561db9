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
	if len(p) == 0 || strings.IndexByte(text, '\\') >= 0 {
		return true
	}
	for _, group := range p {
		if !slices.ContainsFunc(group, func(l literal) bool { return l.in(text) }) {
			return false
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

// newPrefilter collects the literals of the conditions that every match
// must meet: those joined by AND whose path must reach a value.
func newPrefilter(m matcher, p prefilter) prefilter {
	switch m := m.(type) {
	case and:
		for _, k := range m {
			p = newPrefilter(k, p)
		}
	case *pathMatch:
		if !needsValue(m.pred) {
			break
		}
		// The last name that is not an array position is a key of the document.
		for i := len(m.steps) - 1; i >= 0; i-- {
			if m.steps[i].index < 0 {
				p = append(p, []literal{newLiteral(m.steps[i].name)})
				break
			}
		}
		p = valueLiterals(m.pred, p)
	}
	return p
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

// valueLiterals adds the strings a value satisfying pred must hold.
func valueLiterals(pred matcher, p prefilter) prefilter {
	switch pred := pred.(type) {
	case *compare:
		if pred.op == opEq && pred.operand.kind == kindString {
			p = append(p, []literal{newLiteral(pred.operand.str)})
		}
	case *in:
		group := make([]literal, 0, len(pred.values))
		for _, c := range pred.values {
			if c.operand.kind != kindString {
				return p
			}
			group = append(group, newLiteral(c.operand.str))
		}
		if len(group) > 0 && len(pred.patterns) == 0 {
			p = append(p, group)
		}
	case shape:
		p = newPrefilter(pred.cond, p)
	case elemMatchDoc:
		p = newPrefilter(pred.cond, p)
	}
	return p
}
