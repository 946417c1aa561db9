package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGo stands for go in .ci/fuzz: the module has one package with one
// fuzz target, FuzzX, and the n-th fuzzing run behaves as the n-th word of
// $FAKE_RUNS says: pass, deadline (the coordinator's race: FAIL with
// "context deadline exceeded", no input written) or finding (a crash,
// its input written).
const fakeGo = `#!/bin/sh
case "$1 $2" in
"list ./...") echo example.com/p; exit 0 ;;
"test -list") echo FuzzX; echo "ok example.com/p 0.01s"; exit 0 ;;
esac
n=$(($(cat "$FAKE_STATE" 2>/dev/null || echo 0) + 1))
echo $n > "$FAKE_STATE"
case $(echo $FAKE_RUNS | cut -d' ' -f$n) in
pass) echo "fuzz: elapsed: 5s, execs: 1000"; echo PASS; exit 0 ;;
deadline) printf -- '--- FAIL: FuzzX (5.02s)\n    context deadline exceeded\nFAIL\nFAIL example.com/p 5.1s\n'; exit 1 ;;
finding) printf -- '--- FAIL: FuzzX (0.30s)\n    panic: index out of range\n    Failing input written to testdata/fuzz/FuzzX/abc\n    context deadline exceeded\nFAIL\n'; exit 1 ;;
esac
echo "fake go: no run $n in '$FAKE_RUNS'"; exit 2
`

// .ci/fuzz retries a target the coordinator's deadline race failed, saying
// why instead of printing "--- FAIL" lines that read like a finding; a
// finding, or a third failure, fails with its whole output.
func TestCIFuzzRetry(t *testing.T) {
	script, err := os.ReadFile("../../.ci/fuzz")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		runs     string
		fails    bool
		want     []string
		not      []string
		retrying int
	}{
		{"pass", false, []string{"fuzz example.com/p FuzzX (1s, try 1)"}, []string{"FAIL", "retrying"}, 0},
		{"deadline pass", false, []string{"(1s, try 2)", "retrying FuzzX: not a finding", "golang/go#75804"}, []string{"--- FAIL", "FAIL example.com/p"}, 1},
		{"finding", true, []string{"--- FAIL: FuzzX", "panic: index out of range", "Failing input written to testdata/fuzz/FuzzX/abc"}, []string{"retrying"}, 0},
		{"deadline finding", true, []string{"retrying FuzzX", "Failing input written to"}, nil, 1},
		{"deadline deadline deadline", true, []string{"(1s, try 3)", "--- FAIL: FuzzX (5.02s)", "context deadline exceeded"}, nil, 2},
	} {
		t.Run(tc.runs, func(t *testing.T) {
			root, bin := t.TempDir(), t.TempDir()
			for name, content := range map[string]string{filepath.Join(root, ".ci", "fuzz"): string(script), filepath.Join(bin, "go"): fakeGo} {
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(content), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("bash", filepath.Join(root, ".ci", "fuzz"))
			cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "FUZZTIME=1s", "FAKE_RUNS=" + tc.runs, "FAKE_STATE=" + filepath.Join(bin, "state")}
			out, err := cmd.CombinedOutput()
			if (err != nil) != tc.fails {
				t.Errorf("exit error %v, want failure %v", err, tc.fails)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the log lacks %q", w)
				}
			}
			for _, n := range tc.not {
				if strings.Contains(string(out), n) {
					t.Errorf("the log says %q", n)
				}
			}
			if n := strings.Count(string(out), "fuzz: retrying"); n != tc.retrying {
				t.Errorf("%d retries, want %d", n, tc.retrying)
			}
			if t.Failed() {
				t.Logf("log:\n%s", out)
			}
		})
	}
}
