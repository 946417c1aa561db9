package eidsync_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/eidsync"
)

// FuzzParseHash checks ParseHash against the form it takes, and that
// String writes back what it read, in lower case.
func FuzzParseHash(f *testing.F) {
	for _, s := range []string{"0x" + strings.Repeat("ab", 32), "0x" + strings.Repeat("AB", 32), "0x" + strings.Repeat("0", 63), strings.Repeat("0", 66), "0x" + strings.Repeat("g", 64), ""} {
		f.Add(s)
	}
	form := regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
	f.Fuzz(func(t *testing.T, s string) {
		h, err := eidsync.ParseHash(s)
		if (err == nil) != form.MatchString(s) {
			t.Fatalf("ParseHash(%q) = %v, %v", s, h, err)
		}
		if err == nil && h.String() != strings.ToLower(s) {
			t.Fatalf("ParseHash(%q).String() = %s", s, h)
		}
	})
}
