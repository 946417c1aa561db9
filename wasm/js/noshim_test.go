//go:build didlight_wasm && didlight_noshim

package js

import (
	"errors"
	"testing"
)

// Built with NoShimTag, the binary has the module (TestEmbeddedModule) but
// not the shim, and says so.
func TestNoShim(t *testing.T) {
	if s, err := Shim(); s != nil || !errors.Is(err, ErrNoShim) {
		t.Errorf("Shim: %v, %v; want ErrNoShim", s, err)
	}
}
