package testenv

import (
	"errors"
	"fmt"
	"testing"
)

// recorder is a testing.TB that records how Check ended the test.
type recorder struct {
	testing.TB
	ended string // "skip", "fail" or "" when the test goes on
}

func (r *recorder) Helper()               {}
func (r *recorder) Fatal(...any)          { r.ended = "fail" }
func (r *recorder) Fatalf(string, ...any) { r.ended = "fail" }
func (r *recorder) Skipf(string, ...any)  { r.ended = "skip" }
func (r *recorder) Errorf(string, ...any) { r.ended = "fail" }

func TestCheck(t *testing.T) {
	missing := fmt.Errorf("%w: node is not on PATH", ErrMissing)
	tests := []struct {
		name string
		ci   string
		err  error
		want string
	}{
		{"no error", "", nil, ""},
		{"no error in CI", "true", nil, ""},
		{"missing tool outside CI", "", missing, "skip"},
		{"missing tool, CI not true", "1", missing, "skip"},
		{"missing tool in CI", "true", missing, "fail"},
		{"other error", "", errors.New("boom"), "fail"},
		{"other error in CI", "true", errors.New("boom"), "fail"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("CI", tc.ci)
			r := &recorder{TB: t}
			Check(r, tc.err)
			if r.ended != tc.want {
				t.Errorf("Check(%v) with CI=%q: ended %q, want %q", tc.err, tc.ci, r.ended, tc.want)
			}
		})
	}
}

func TestLookPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := LookPath("node", "Node.js 20 or later")
	if !errors.Is(err, ErrMissing) {
		t.Fatalf("LookPath on an empty PATH: %v, want ErrMissing", err)
	}
	if msg := err.Error(); msg != "missing tool: node is not on PATH (Node.js 20 or later)" {
		t.Errorf("LookPath's error does not say what is missing and why: %q", msg)
	}
}

func TestShim(t *testing.T) {
	if _, err := Shim(t.TempDir()); !errors.Is(err, ErrMissing) {
		t.Errorf("Shim of an empty folder: %v, want ErrMissing", err)
	}
}
