package jsontext

import (
	"strings"
	"testing"
)

// On valid JSON, End finds where Scan stops, in strings and byte slices.
func FuzzEndIsScans(f *testing.F) {
	for _, s := range []string{`1`, ` -2.5e3 `, `"a\\"`, `"a\"b"`, `{"a":[1,"]}",{"b":null}],"c":"\\\""}`, `[[[]],{}]`, `true`, `"` + strings.Repeat("x", 40) + `\\"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !Valid(in) {
			return
		}
		want, _ := Scan(in)
		start := SkipSpace(in, 0)
		if got := End(in, start); got != want {
			t.Fatalf("End(%q) = %d, Scan %d", in, got, want)
		}
		if got := End(string(in), start); got != want {
			t.Fatalf("End of a string (%q) = %d, Scan %d", in, got, want)
		}
	})
}

// Deep nesting is skipped without recursion, and text that is not JSON gives
// some answer without a panic.
func TestEndNeverRecursesOrPanics(t *testing.T) {
	deep := strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20)
	if got := End(deep+",", 0); got != len(deep) {
		t.Errorf("End of deep nesting = %d, want %d", got, len(deep))
	}
	for _, s := range []string{``, `{`, `[`, `"`, `"\`, `"\"`, `{"a":"\`, `]`, `1`} {
		t.Run(s, func(t *testing.T) {
			for i := range len(s) + 1 {
				if got := End(s, i); got < i || got > len(s) {
					t.Errorf("End(%q, %d) = %d, outside the text", s, i, got)
				}
				End([]byte(s), i)
			}
		})
	}
}

// StringEnd allocates nothing, for strings and byte slices: it runs on
// every value the node stores and every request it reads.
func TestStringEndAllocatesNothing(t *testing.T) {
	s := `"` + strings.Repeat(`ab\"`, 100) + `"`
	b := []byte(s)
	if n := testing.AllocsPerRun(100, func() { StringEnd(s, 0) }); n != 0 {
		t.Errorf("StringEnd of a string: %v allocations", n)
	}
	if n := testing.AllocsPerRun(100, func() { StringEnd(b, 0) }); n != 0 {
		t.Errorf("StringEnd of bytes: %v allocations", n)
	}
	if got := StringEnd(s, 0); got != len(s) {
		t.Errorf("StringEnd = %d, want %d", got, len(s))
	}
}
