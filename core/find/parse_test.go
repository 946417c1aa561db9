package find

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/didlight/didlight/core/internal/vectors"

	"github.com/google/go-cmp/cmp"
)

// toAny converts v to what encoding/json decodes the same text to.
func toAny(v *Value) any {
	switch v.kind {
	case kindNumber:
		return v.num
	case kindString:
		return v.str
	case kindBool:
		return v.num != 0
	case kindArray:
		out := []any{}
		for i := range v.items {
			out = append(out, toAny(&v.items[i]))
		}
		return out
	case kindObject:
		out := map[string]any{}
		for i, k := range v.keys {
			out[k] = toAny(&v.items[i])
		}
		return out
	}
	return nil
}

// strictTexts are JSON texts with the corners of the grammar, and every
// JSON file among the vectors.
func strictTexts() []string {
	texts := []string{
		`{}`, `[]`, `null`, `true`, `false`, `0`, `-0`, `1.5e-7`, `1E+2`, `123456789012345678901234567890`,
		`"\"\\\/\b\f\n\r\t\u00e9\u20AC"`, `"\ud83d\ude00 \ud83d \ude00 \ud83d\u0041"`, `"é€😀"`,
		` { "a" : [ 1 , { "b" : null } ] , "c" : "" } `, `{"a":1,"a":2}`, `[[[]],{}]`,
	}
	for _, name := range vectors.Glob("*/*/*.json") {
		texts = append(texts, string(vectors.Read(name)))
	}
	return append(texts, string(vectors.Read("idchain/create-op-mainnet-format.json")))
}

// Strict JSON parses to what encoding/json decodes, in both modes, and
// renders to text that parses back to the same value.
func TestStrictJSONParsesIdentically(t *testing.T) {
	for _, text := range strictTexts() {
		var want any
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatalf("encoding/json rejects %.40q: %v", text, err)
		}
		strict, err := ParseJSON([]byte(text))
		if err != nil {
			t.Errorf("ParseJSON(%.40q): %v", text, err)
			continue
		}
		relaxed, err := parse(text, true)
		if err != nil {
			t.Errorf("relaxed parse(%.40q): %v", text, err)
			continue
		}
		if diff := cmp.Diff(want, toAny(&strict)); diff != "" {
			t.Errorf("ParseJSON(%.40q) differs from encoding/json (-want +got):\n%s", text, diff)
		}
		if diff := cmp.Diff(strict, relaxed, cmp.AllowUnexported(Value{})); diff != "" {
			t.Errorf("relaxed parse(%.40q) differs from strict (-strict +relaxed):\n%s", text, diff)
		}
		again, err := ParseJSON([]byte(strict.String()))
		if err != nil || !cmp.Equal(strict, again, cmp.AllowUnexported(Value{})) {
			t.Errorf("%.40q renders to %.60q, which parses to %v, %v", text, strict.String(), again, err)
		}
	}
}

// The relaxed forms read as the strict text they stand for.
func TestRelaxedSyntax(t *testing.T) {
	tests := []struct{ relaxed, strict string }{
		{`{$exists:true}`, `{"$exists":true}`},
		{`{credential:{type:['SelfProclaimedCredential'],subject:{email:{$exists:true}}}}`,
			`{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{"$exists":true}}}}`},
		{`{credential.subject.email: {$exists: 1}}`, `{"credential.subject.email": {"$exists": 1}}`},
		{`{_id: 'a', a_b$1: 2}`, `{"_id": "a", "a_b$1": 2}`},
		{`{'it\'s': 'say "hi"'}`, `{"it's": "say \"hi\""}`},
		{`{a: 'x\u00e9\n'}`, `{"a": "xé\n"}`},
		{`{"a": "\'"}`, `{"a": "'"}`},
		{`{ a : [ 1 , 'b' ] }`, `{"a":[1,"b"]}`},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			relaxed, err := parse(tc.relaxed, true)
			if err != nil {
				t.Errorf("parse(%s): %v", tc.relaxed, err)
				return
			}
			strict, err := ParseJSON([]byte(tc.strict))
			if err != nil {
				t.Fatalf("ParseJSON(%s): %v", tc.strict, err)
			}
			if diff := cmp.Diff(strict, relaxed, cmp.AllowUnexported(Value{})); diff != "" {
				t.Errorf("parse(%s) (-strict +relaxed):\n%s", tc.relaxed, diff)
			}
		})
	}
}

// A regex literal keeps its text, and String writes it back as a literal.
func TestRegexLiteral(t *testing.T) {
	for _, lit := range []string{`/a/`, `/^a\/b$/i`, `/[/]x/msxu`, `/é+/`} {
		v, err := parse(`{a:`+lit+`}`, true)
		if err != nil {
			t.Errorf("parse(%s): %v", lit, err)
			continue
		}
		if got := v.items[0]; got.kind != kindRegex || got.str != lit {
			t.Errorf("parse(%s) = %#v, want the literal", lit, got)
		}
		if got, want := v.String(), `{"a":`+lit+`}`; got != want {
			t.Errorf("String() = %s, want %s", got, want)
		}
	}
}
