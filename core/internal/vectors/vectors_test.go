package vectors

import (
	"fmt"
	"testing"
)

func TestGlobFindsEverySDKDocument(t *testing.T) {
	for i, tc := range []struct {
		pattern string
		min     int
	}{
		{"elastos-did-sdk/v1/*.id.json", 4},
		{"elastos-did-sdk/v2.2/*.id.json", 10},
		{"elastos-did-sdk/*/*.sk", 10},
		{"idchain/*.json", 1},
		{"eid/*.json", 1},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := Glob(tc.pattern); len(got) < tc.min {
				t.Errorf("Glob(%q) = %d files %v, want at least %d", tc.pattern, len(got), got, tc.min)
			}
		})
	}
	if s := String("elastos-did-sdk/v1/user1.id.primary.sk"); len(s) != 111 || s[:4] != "xprv" {
		t.Errorf("String(user1 primary key) = %q, want a 111-character xprv key", s)
	}
}
