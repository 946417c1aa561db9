package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/didlight/didlight/wasm/js"
)

// makeDryRun runs `make -n target` on a copy of the repository's Makefile
// in a fresh directory, with PATH holding only the programs named in path
// (empty files, never run: -n runs no recipe) and the files named in have
// created, and returns what make would run.
func makeDryRun(t *testing.T, target string, path, have []string) string {
	t.Helper()
	mk, err := exec.LookPath("make")
	if err != nil {
		t.Fatalf("make is needed to check the Makefile: %v", err)
	}
	src, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	dir, bin := t.TempDir(), t.TempDir()
	files := map[string]string{filepath.Join(dir, "Makefile"): string(src)}
	for _, p := range path {
		files[filepath.Join(bin, p)] = "#!/bin/sh\nexit 1\n"
	}
	for _, f := range have {
		files[filepath.Join(dir, f)] = "{}\n"
	}
	for name, content := range files {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(mk, "-n", "--no-print-directory", "-C", dir, target)
	cmd.Env = []string{"PATH=" + bin, "HOME=" + dir}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n %s: %v\n%s", target, err, out)
	}
	return string(out)
}

// `make run` works without npm: it builds the module and a binary that
// embeds it without the browser's WASI shim, says why and what to install,
// and starts the node. With npm it installs the shim and embeds it; with
// the shim installed already it needs no npm.
func TestMakeRunWithoutNpm(t *testing.T) {
	const shim = "wasm/js/node_modules/@bjorn3/browser_wasi_shim/package.json"
	withShim := "go build -tags " + js.BuildTag + " -o didlight ./cmd/didlight"
	noShim := "go build -tags " + js.BuildTag + "," + js.NoShimTag + " -o didlight ./cmd/didlight"
	for _, tc := range []struct {
		name       string
		path, have []string
		want       []string
		not        []string
	}{
		{"no npm", nil, nil, []string{"wasmbuild -o wasm/js/didlight.wasm", "note: npm not found", "Install Node.js", noShim, "./didlight node --demo"}, []string{"npm ci", withShim}},
		{"npm", []string{"npm"}, nil, []string{"wasmbuild", "npm ci", withShim, "./didlight node --demo"}, []string{js.NoShimTag, "note: npm not found"}},
		{"shim installed, no npm", nil, []string{shim}, []string{"wasmbuild", withShim, "./didlight node --demo"}, []string{"npm", js.NoShimTag}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := makeDryRun(t, "run", tc.path, tc.have)
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("make -n run does not say %q:\n%s", w, out)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(out, n) {
					t.Errorf("make -n run says %q:\n%s", n, out)
				}
			}
			if b, r := strings.Index(out, "go build"), strings.Index(out, "./didlight node"); b > r {
				t.Errorf("the node starts before it is built:\n%s", out)
			}
		})
	}
}

// The build without the shim embeds the module alone: its embed patterns
// name nothing npm installs, so it builds where npm is missing.
func TestNoShimBuildNeedsNoNodeModules(t *testing.T) {
	for i, tc := range []struct {
		tags     string
		wantShim bool
	}{
		{js.BuildTag, true},
		{js.BuildTag + "," + js.NoShimTag, false},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			out, err := exec.Command("go", "list", "-e", "-tags", tc.tags, "-f", "{{.EmbedPatterns}}", "../../wasm/js").CombinedOutput()
			if err != nil {
				t.Fatalf("go list -tags %s: %v\n%s", tc.tags, err, out)
			}
			if !strings.Contains(string(out), "didlight.wasm") || strings.Contains(string(out), "node_modules") != tc.wantShim {
				t.Errorf("-tags %s embeds %s; want the module, and the shim %v", tc.tags, out, tc.wantShim)
			}
		})
	}
}
