package wasmrt_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/host/internal/testenv"
	"github.com/didlight/didlight/wasm/abi"
)

// nodeCase is a parity case as wasm/js/parity.mjs reads it.
type nodeCase struct {
	Call      string            `json:"call"`
	Input     string            `json:"input"`
	Documents map[string]string `json:"documents,omitempty"`
}

// TestParityNode runs every parity case through the JS loaders in Node
// (wasm/js/parity.mjs: the Node loader with node:crypto and without, and
// the browser loader) and requires each answer to be the native one, byte
// for byte: Go, wazero and Node answer alike.
func TestParityNode(t *testing.T) {
	var lines bytes.Buffer
	enc := json.NewEncoder(&lines)
	var skipped int
	cases := slices.DeleteFunc(parityCases(t), func(c parityCase) bool {
		// A JS caller's input is text: bytes that are not UTF-8 cannot be
		// given to the loaders.
		if !utf8.Valid(c.in) {
			skipped++
			return true
		}
		return false
	})
	if skipped > len(abi.Calls()) {
		t.Errorf("%d cases are not UTF-8: the loaders check few of them", skipped)
	}
	for _, c := range cases {
		nc := nodeCase{Call: c.call, Input: string(c.in)}
		if docs, ok := c.env.Lookup.(did.Documents); ok {
			nc.Documents = map[string]string{}
			for _, d := range docs {
				nc.Documents["did:elastos:"+d.Subject().Key()] = string(d.Normalized())
			}
		} else if c.env.Lookup != nil {
			t.Fatalf("%s: a lookup parity.mjs cannot give: %T", c.name, c.env.Lookup)
		}
		if err := enc.Encode(nc); err != nil {
			t.Fatal(err)
		}
	}
	out := runNodeScript(t, "parity.mjs", lines.Bytes())
	run := map[string]abi.Func{}
	for _, c := range abi.Calls() {
		run[c.Name] = c.Run
	}
	loaders := []string{"node", "node without host crypto", "browser loader"}
	if len(out) != len(cases) {
		t.Fatalf("parity.mjs answered %d of %d cases", len(out), len(cases))
	}
	for n, line := range out {
		c := cases[n]
		var answers []string
		if err := json.Unmarshal(line, &answers); err != nil || len(answers) != len(loaders) {
			t.Fatalf("%s: answers %.200s: %v", c.name, line, err)
		}
		native := string(run[c.call](c.in, c.env))
		for i, a := range answers {
			if a != native {
				t.Errorf("%s (%s), %s:\n node   %s\n native %s", c.name, c.call, loaders[i], strings.TrimSpace(a), native)
			}
		}
	}
}

// loaderNode returns the path of Node.js for the JS loaders' scripts,
// ending the test as [testenv.Check] does when Node or the loaders' WASI
// shim is missing.
func loaderNode(t testing.TB) string {
	t.Helper()
	node := testenv.Node(t)
	_, err := testenv.Shim("../..")
	testenv.Check(t, err)
	return node
}

// runNodeScript runs a script of wasm/js (parity.mjs, apicalls.mjs) in Node
// on the module, with in (JSON lines) as its input, and returns the lines
// it wrote.
func runNodeScript(t *testing.T, script string, in []byte) [][]byte {
	t.Helper()
	node := loaderNode(t)
	dir := t.TempDir()
	wasmFile, inFile, outFile := filepath.Join(dir, "didlight.wasm"), filepath.Join(dir, "in.jsonl"), filepath.Join(dir, "out.jsonl")
	if err := os.WriteFile(wasmFile, module(t), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(inFile, in, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "--no-warnings", "../../wasm/js/"+script, "--wasm", wasmFile, "--in", inFile, "--out", outFile)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", script, err, b)
	}
	f, err := os.Open(outFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	var out [][]byte
	for sc.Scan() {
		out = append(out, bytes.Clone(sc.Bytes()))
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s's output: %v", script, err)
	}
	return out
}
