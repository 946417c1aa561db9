package find

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestConditionErrors(t *testing.T) {
	tests := []struct {
		cond     string
		rule     Rule
		operator string
		path     string
	}{
		{`{a: {$foo: 1}}`, UnknownOperator, "$foo", "a"},
		{`{$foo: 1}`, UnknownOperator, "$foo", ""},
		{`{a: {$gt: 1, b: 2}}`, UnknownOperator, "b", "a"},
		{`{$or: [{"x.y": {$eq: 1, $near: 2}}]}`, UnsupportedOperator, "$near", "x.y"},
		{`{$where: "this.a == 1"}`, UnsupportedOperator, "$where", ""},
		{`{$expr: {$eq: ["$a", 1]}}`, UnsupportedOperator, "$expr", ""},
		{`{$text: {$search: "john"}}`, UnsupportedOperator, "$text", ""},
		{`{$jsonSchema: {}}`, UnsupportedOperator, "$jsonSchema", ""},
		{`{$match: {a: 1}}`, UnsupportedOperator, "$match", ""},
		{`{$group: {_id: "$a"}}`, UnsupportedOperator, "$group", ""},
		{`{a: {$set: 1}}`, UnsupportedOperator, "$set", "a"},
		{`{a: {$inc: 1}}`, UnsupportedOperator, "$inc", "a"},
		{`{a: {$where: "x"}}`, UnsupportedOperator, "$where", "a"},
		{`{a: {$bitsAllSet: 3}}`, UnsupportedOperator, "$bitsAllSet", "a"},
		{`{$gt: 1}`, MisplacedOperator, "$gt", ""},
		{`{$exists: true}`, MisplacedOperator, "$exists", ""},
		{`{a: {$gt: 1, $and: [{b: 1}]}}`, MisplacedOperator, "$and", "a"},
		{`{credential: {type: ["X"], $size: 2}}`, MisplacedOperator, "$size", "credential"},
		{`{a: {$in: 1}}`, InvalidArgument, "$in", "a"},
		{`{a: {$nin: {}}}`, InvalidArgument, "$nin", "a"},
		{`{a: {$in: [{$gt: 1}]}}`, InvalidArgument, "$in", "a"},
		{`{a: {$size: -1}}`, InvalidArgument, "$size", "a"},
		{`{a: {$size: 1.5}}`, InvalidArgument, "$size", "a"},
		{`{a: {$size: "1"}}`, InvalidArgument, "$size", "a"},
		{`{a: {$type: "foo"}}`, InvalidArgument, "$type", "a"},
		{`{a: {$type: "missing"}}`, InvalidArgument, "$type", "a"},
		{`{a: {$type: 42}}`, InvalidArgument, "$type", "a"},
		{`{a: {$type: 1.5}}`, InvalidArgument, "$type", "a"},
		{`{a: {$type: []}}`, InvalidArgument, "$type", "a"},
		{`{a: {$type: ["string", true]}}`, InvalidArgument, "$type", "a"},
		{`{a: {$regex: 1}}`, InvalidArgument, "$regex", "a"},
		{`{a: {$regex: "("}}`, InvalidArgument, "$regex", "a"},
		{`{a: {$regex: "(?<=a)b"}}`, InvalidArgument, "$regex", "a"},
		{`{a: {$regex: "(a)\\1"}}`, InvalidArgument, "$regex", "a"},
		{`{a: {$regex: "a", $options: "g"}}`, InvalidArgument, "$regex", "a"},
		{`{a: {$regex: "a", $options: 1}}`, InvalidArgument, "$options", "a"},
		{`{a: {$regex: "a", $options: "i", $options: "m"}}`, InvalidArgument, "$options", "a"},
		{`{a: {$options: "i"}}`, InvalidArgument, "$options", "a"},
		{`{a: {$regex: /a/i, $options: "m"}}`, InvalidArgument, "$options", "a"},
		{`{a: /(/}`, InvalidArgument, "/(/", "a"},
		{`{a: {$in: [/(/]}}`, InvalidArgument, "/(/", "a"},
		{`{a: {$not: 1}}`, InvalidArgument, "$not", "a"},
		{`{a: {$not: {}}}`, InvalidArgument, "$not", "a"},
		{`{a: {$not: {b: 1}}}`, InvalidArgument, "$not", "a"},
		{`{a: {$not: {$foo: 1}}}`, UnknownOperator, "$foo", "a"},
		{`{a: {$all: 1}}`, InvalidArgument, "$all", "a"},
		{`{a: {$all: [{$elemMatch: {b: 1}}, 1]}}`, InvalidArgument, "$all", "a"},
		{`{a: {$all: [1, {$elemMatch: {b: 1}}]}}`, InvalidArgument, "$all", "a"},
		{`{a: {$all: [{$gt: 1}]}}`, InvalidArgument, "$all", "a"},
		{`{a: {$elemMatch: 1}}`, InvalidArgument, "$elemMatch", "a"},
		{`{a: {$elemMatch: {b: {$foo: 1}}}}`, UnknownOperator, "$foo", "a.b"},
		{`{a: {$mod: [0, 1]}}`, InvalidArgument, "$mod", "a"},
		{`{a: {$mod: [1]}}`, InvalidArgument, "$mod", "a"},
		{`{a: {$mod: ["a", 1]}}`, InvalidArgument, "$mod", "a"},
		{`{a: {$mod: [1e19, 1]}}`, InvalidArgument, "$mod", "a"},
		{`{$and: []}`, InvalidArgument, "$and", ""},
		{`{$or: 1}`, InvalidArgument, "$or", ""},
		{`{$nor: [1]}`, InvalidArgument, "$nor", ""},
		{`{$or: [{a: {$foo: 1}}]}`, UnknownOperator, "$foo", "a"},
		{`{credential: {subject: {email: {$foo: 1}}}}`, UnknownOperator, "$foo", "credential.subject.email"},
		{`{credential: {type: [{$regex: "("}]}}`, InvalidArgument, "$regex", "credential.type"},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, err := Compile(tc.cond)
			var ce *ConditionError
			if !errors.As(err, &ce) {
				t.Errorf("Compile(%s) = %v, want a *ConditionError", tc.cond, err)
				return
			}
			if ce.Rule != tc.rule || ce.Operator != tc.operator || ce.Path != tc.path {
				t.Errorf("Compile(%s) = %s (rule %d), want %s %s on %q", tc.cond, ce, ce.Rule, tc.rule, tc.operator, tc.path)
			}
			if !strings.Contains(ce.Error(), tc.operator) || ce.Detail == "" {
				t.Errorf("Compile(%s): message %q does not name %s or lacks detail", tc.cond, ce, tc.operator)
			}
		})
	}
}

func TestSyntaxErrors(t *testing.T) {
	deep := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	tests := []struct {
		text     string
		offset   int
		expected string
		found    string
	}{
		{``, 0, "'{' (a find condition is an object)", "end of input"},
		{`  [1]`, 2, "'{' (a find condition is an object)", "'['"},
		{`{a:1`, 4, "',' or '}'", "end of input"},
		{`{a 1}`, 3, "':' after an object key", "'1'"},
		{`{'a:1}`, 6, "closing '", "end of input"},
		{`{a:tru}`, 3, "a value", "'t'"},
		{`{a:01}`, 4, "',' or '}'", "'1'"},
		{`{a:1.}`, 5, "a digit after the decimal point", "'}'"},
		{`{a:1e}`, 5, "a digit in the exponent", "'}'"},
		{`{a:-}`, 4, "a digit", "'}'"},
		{`{a:1e400}`, 3, "a number within the range of a float64", "'1'"},
		{`{a:"\x"}`, 5, "an escape character (one of \"\\/bfnrtu)", "'x'"},
		{`{a:"\u12`, 8, "four hex digits after \\u", "end of input"},
		{`{a:"\u12"}`, 6, "four hex digits after \\u", "'1'"},
		{`{a:"\u12x4"}`, 6, "four hex digits after \\u", "'1'"},
		{"{a:\"\x01\"}", 4, "a string character (control characters must be escaped)", "'\\x01'"},
		{"{a:\"\xff\"}", 4, "UTF-8 text", "invalid UTF-8 byte 0xff"},
		{`{1:2}`, 1, "an object key", "'1'"},
		{`{a:1,}`, 5, "an object key", "'}'"},
		{`{a:[1,]}`, 6, "a value", "']'"},
		{`{a:[1 2]}`, 6, "',' or ']'", "'2'"},
		{`{a:/x/g}`, 6, "a regular expression flag, each of imsxu at most once", "'g'"},
		{`{a:/x/ii}`, 7, "a regular expression flag, each of imsxu at most once", "'i'"},
		{`{a://}`, 4, "a regular expression pattern", "'/'"},
		{`{a:/x}`, 6, "closing / of the regular expression", "end of input"},
		{"{a:/x\n/}", 5, "closing / of the regular expression", "'\\n'"},
		{`{a:1} x`, 6, "end of input", "'x'"},
		{`{a:` + deep + `}`, 3 + maxDepth - 1, "at most 100 levels of nesting", "'['"},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, err := Compile(tc.text)
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Errorf("Compile(%q) = %v, want a *SyntaxError", tc.text, err)
				return
			}
			if se.Offset != tc.offset || se.Expected != tc.expected || se.Found != tc.found {
				t.Errorf("Compile(%q) = %+v, want offset %d, expected %s, found %s", tc.text, *se, tc.offset, tc.expected, tc.found)
			}
		})
	}
}

// ParseJSON reads documents strictly: none of the relaxed forms.
func TestParseJSONIsStrict(t *testing.T) {
	tests := []struct {
		text     string
		offset   int
		expected string
	}{
		{`{a:1}`, 1, "a quoted object key"},
		{`{'a':1}`, 1, "a quoted object key"},
		{`{"a":'x'}`, 5, "a value"},
		{`{"a":/x/}`, 5, "a value"},
		{`{"a":"\'"}`, 7, "an escape character (one of \"\\/bfnrtu)"},
		{`{"a":1}{}`, 7, "end of input"},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, err := ParseJSON([]byte(tc.text))
			var se *SyntaxError
			if !errors.As(err, &se) || se.Offset != tc.offset || se.Expected != tc.expected {
				t.Errorf("ParseJSON(%s) = %v, want expected %s at %d", tc.text, err, tc.expected, tc.offset)
			}
		})
	}
}

// Regular expressions are refused beyond MaxRegexBytes of pattern in all,
// before any is compiled; errors about long values quote only their start.
func TestLongInputs(t *testing.T) {
	long := strings.Repeat("a", MaxRegexBytes/2)
	for i, tc := range []struct{ cond, want string }{
		{`{id: /` + long + long + `x/}`, "at most 16384 bytes of pattern"},
		{`{id: /` + long + `/, did: {$regex: "` + long + `x"}}`, "at most 16384 bytes of pattern"},
		{`{a: {$in: [/` + long + `/, /x` + long + `/]}}`, "at most 16384 bytes of pattern"},
		{`{$or: "` + strings.Repeat("x", 50000) + `"}`, "needs a non-empty array"},
		{`{"$` + strings.Repeat("x", 50000) + `": 1}`, "unknown operator"},
		{`{a: {$size: "` + strings.Repeat("x", 50000) + `"}}`, "$size"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, err := Compile(tc.cond)
			if err == nil || !strings.Contains(err.Error(), tc.want) || len(err.Error()) > 400 {
				t.Errorf("Compile of %d bytes: error %.500v, want a short one with %q", len(tc.cond), err, tc.want)
			}
		})
	}
	if _, err := Compile(`{id: /` + long + `/i, did: {$regex: "` + long + `"}}`); err != nil {
		t.Errorf("patterns of %d bytes in all: %v", MaxRegexBytes, err)
	}
}
