package find

import (
	"strings"
	"testing"

	"github.com/didlight/didlight/core/jsontext"
)

func TestRawMembersAndElements(t *testing.T) {
	obj := ` {"a": 1, "b" : {"c": [1, "x\"]", {"d": null}]}, "e\u0301": true, "a": 2, "s": "q\\"} `[1:]
	for _, tc := range []struct{ name, want string }{
		{"a", "1"}, // the first of repeated members, as the parsed form
		{"b", `{"c": [1, "x\"]", {"d": null}]}`},
		{"e\u0301", "true"},
		{"s", `"q\\"`},
		{"z", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rawMember(obj, tc.name); got != tc.want {
				t.Errorf("member %q = %q, want %q", tc.name, got, tc.want)
			}
		})
	}
	arr := `[1, "x\"]", {"d": null}, [[]] ]`
	for n, want := range []string{"1", `"x\"]"`, `{"d": null}`, "[[]]", ""} {
		if got := rawElement(arr, n); got != want {
			t.Errorf("element %d = %q, want %q", n, got, want)
		}
	}
	if got := rawUnquote(`"a\u00e9\ud83d\ude00\n"`); got != "aé😀\n" {
		t.Errorf("unquote: %q", got)
	}
}

// Deep nesting is skipped without recursion, and invalid text gives some
// answer without a panic.
func TestRawNeverRecursesOrPanics(t *testing.T) {
	deep := `{"a":` + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + `,"b":2}`
	if got := rawMember(deep, "b"); got != "2" {
		t.Errorf("member after deep nesting: %q", got)
	}
	for _, s := range []string{`{`, `[`, `{"a`, `{"a"`, `{"a":`, `{"a":1,`, `[1,`, `{"a":"\`, `{,}`, `[,]`, `{"a" 1}`, `["\"]`} {
		rawMember(s, "a")
		rawElement(s, 1)
		jsontext.End(s, 0)
	}
}
