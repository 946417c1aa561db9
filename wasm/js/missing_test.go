//go:build !didlight_wasm

package js

import (
	"errors"
	"strings"
	"testing"
)

// Without the build tag nothing built is embedded, and the error says how
// to build a binary that has it.
func TestNotEmbedded(t *testing.T) {
	m, err := Module()
	if m != nil || !errors.Is(err, ErrNotEmbedded) {
		t.Errorf("Module: %d bytes, %v; want ErrNotEmbedded", len(m), err)
	}
	s, err := Shim()
	if s != nil || !errors.Is(err, ErrNotEmbedded) {
		t.Errorf("Shim: %v, %v; want ErrNotEmbedded", s, err)
	}
	if msg := ErrNotEmbedded.Error(); !strings.Contains(msg, "make build") || !strings.Contains(msg, "-tags "+BuildTag) {
		t.Errorf("ErrNotEmbedded does not say how to build: %q", msg)
	}
	if msg := ErrNoShim.Error(); !strings.Contains(msg, "npm") || !strings.Contains(msg, "make build") {
		t.Errorf("ErrNoShim does not say what is missing and how to build: %q", msg)
	}
}
