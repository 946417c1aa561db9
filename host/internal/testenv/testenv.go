// Package testenv decides what a test does when a tool beyond Go is missing.
//
// Some tests need programs or packages that a machine with Go alone lacks:
// Node.js and the npm packages of wasm/js for the JS loaders, Chromium for
// the browser app. Outside CI such a test skips, saying what is missing and
// how to get it, so that go test ./... passes on Go alone. Under CI=true
// (as .ci/run sets) every tool is required, and the test fails naming it.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// ErrMissing is wrapped by the errors of [LookPath] and [Shim]: a tool the
// test needs is not on this machine.
var ErrMissing = errors.New("missing tool")

// InCI reports whether the tests run in CI (CI=true), where every tool is
// required.
func InCI() bool { return os.Getenv("CI") == "true" }

// Check ends the test if err is not nil: an error wrapping [ErrMissing]
// skips it outside CI and fails it under CI=true; any other error fails it.
func Check(t testing.TB, err error) {
	t.Helper()
	switch {
	case err == nil:
	case !errors.Is(err, ErrMissing):
		t.Fatal(err)
	case InCI():
		t.Fatalf("%v (CI=true requires it)", err)
	default:
		t.Skipf("skipped: %v (CI=true requires it)", err)
	}
}

// LookPath returns the path of the named program on PATH; need says what
// it is and how to get it, for the error when it is missing.
func LookPath(name, need string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %s is not on PATH (%s)", ErrMissing, name, need)
	}
	return p, nil
}

// MustLookPath returns the path of the named program, ending the test as
// [Check] does when it is missing.
func MustLookPath(t testing.TB, name, need string) string {
	t.Helper()
	p, err := LookPath(name, need)
	Check(t, err)
	return p
}

// Node returns the path of Node.js, ending the test as [Check] does when
// it is missing.
func Node(t testing.TB) string {
	t.Helper()
	return MustLookPath(t, "node", "Node.js 20 or later")
}

// Shim returns the folder of the WASI shim that npm installs in wasm/js,
// under the repository's root folder root (relative to the test's folder).
func Shim(root string) (string, error) {
	dir := filepath.Join(root, "wasm/js/node_modules/@bjorn3/browser_wasi_shim")
	if _, err := os.Stat(filepath.Join(dir, "dist/index.js")); err != nil {
		return "", fmt.Errorf("%w: the WASI shim is not installed in wasm/js (run `npm ci` there, or `make test`)", ErrMissing)
	}
	return dir, nil
}
