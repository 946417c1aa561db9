package cli

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README's and docs' example sessions are fenced ```console blocks:
// lines that start with "$ " are commands, the lines after one are what it
// prints. TestDocExamples runs each against real nodes, so that no example
// in the docs can go stale. In the printed text, "…" stands for anything
// within a line, and a line of "…" alone for any number of lines. Block
// hashes, txids and times change from run to run; they are compared as
// shapes (64 hex digits, an RFC 3339 time), so the docs show real ones.

// docPorts are the ports the docs show: ELA's defaults, which the nodes
// the test starts on free ports are written as.
const (
	docREST = "127.0.0.1:20334"
	docRPC  = "127.0.0.1:20336"
)

// example is one command of a console block and what it must print.
type example struct {
	where   string // file:line, for failures
	command string
	want    []string
}

func TestDocExamples(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var all []example
	for _, f := range append([]string{"../../README.md"}, docs...) {
		all = append(all, readExamples(t, f)...)
	}
	if !containsWhere(all, "README.md") {
		t.Fatal("README.md has no console examples: its first-success section must be checked")
	}
	demo := startNodeProcess(t, "--demo", "--mem")
	defer demo.stop()
	for _, ex := range all {
		t.Run(ex.where, func(t *testing.T) {
			got := runExample(t, demo, ex.command)
			if !matchLines(shape(ex.want), shape(strings.Split(strings.TrimRight(got, "\n"), "\n"))) {
				t.Errorf("%s\n$ %s\nprints:\n%s\nthe doc says:\n%s", ex.where, ex.command, got, strings.Join(ex.want, "\n"))
			}
		})
	}
}

func containsWhere(all []example, file string) bool {
	for _, ex := range all {
		if strings.HasPrefix(ex.where, file+":") {
			return true
		}
	}
	return false
}

// readExamples returns the commands of file's console blocks.
func readExamples(t *testing.T, file string) []example {
	t.Helper()
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	inBlock, started := false, false
	for i, line := range strings.Split(string(text), "\n") {
		switch {
		case !inBlock:
			inBlock, started = line == "```console", false
		case line == "```":
			inBlock = false
		case strings.HasPrefix(line, "$ "):
			out = append(out, example{where: fmt.Sprintf("%s:%d", filepath.Base(file), i+1), command: line[2:]})
			started = true
		case !started:
			t.Fatalf("%s:%d: a console block must start with a command (\"$ …\")", file, i+1)
		default:
			out[len(out)-1].want = append(out[len(out)-1].want, line)
		}
	}
	return out
}

// runExample runs a documented command and returns what it prints, with
// the nodes' real addresses written as the docs' ports.
func runExample(t *testing.T, demo *child, command string) string {
	t.Helper()
	args := shellWords(t, command)
	switch {
	case len(args) >= 2 && args[0] == "./didlight" && args[1] == "node":
		// A node of its own, with the documented flags, on free ports and
		// a fresh data directory.
		if !slices.Contains(args, "--mem") {
			args = append(args, "--datadir", t.TempDir())
		}
		n := startNodeProcess(t, args[2:]...)
		defer n.stop()
		return docAddrs(n.banner, n)
	case args[0] == "./didlight":
		t.Setenv("DIDLIGHT_REST", demo.rest)
		t.Setenv("DIDLIGHT_RPC", demo.rpc)
		var out, errOut bytes.Buffer
		if code := Run(args[1:], &out, &errOut); code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut.String())
		}
		return docAddrs(out.String(), demo)
	case args[0] == "curl":
		return docAddrs(curl(t, args[1:], demo), demo)
	}
	t.Fatalf("console examples run ./didlight or curl, not %q", args[0])
	return ""
}

// docAddrs writes n's real addresses as the docs' ports.
func docAddrs(s string, n *child) string {
	return strings.NewReplacer(hostPort(n.rest), docREST, hostPort(n.rpc), docRPC).Replace(s)
}

func hostPort(url string) string {
	return strings.SplitN(strings.TrimPrefix(url, "http://"), "/", 2)[0]
}

// curl does what the documented curl command does, for the flags the docs
// use (-s, -X, -H, -d), against the demo node, and returns the body.
func curl(t *testing.T, args []string, demo *child) string {
	t.Helper()
	method, body, url := "GET", "", ""
	header := http.Header{}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-s":
		case (a == "-X" || a == "-H" || a == "-d") && i+1 < len(args):
			i++
			switch a {
			case "-X":
				method = args[i]
			case "-d":
				body, method = args[i], "POST"
			case "-H":
				k, v, _ := strings.Cut(args[i], ":")
				header.Add(k, strings.TrimSpace(v))
			}
		case !strings.HasPrefix(a, "-") && url == "":
			url = strings.NewReplacer(docREST, hostPort(demo.rest), docRPC, hostPort(demo.rpc)).Replace(a)
		default:
			t.Fatalf("curl argument %q is not one the doc checker knows", a)
		}
	}
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	if body != "" && header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded") // what curl -d sends
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// shellWords splits a command line as sh does for the quoting the docs use:
// words separated by spaces, single-quoted runs taken as they are.
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var word strings.Builder
	inWord, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			word.WriteRune(r)
		case r == '\'':
			quoted, inWord = true, true
		case r == ' ':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		case r == '"' || r == '$' || r == '\\' || r == '`' || r == '|' || r == ';':
			t.Fatalf("%q: the doc checker takes single quotes only, no %q", line, r)
		default:
			word.WriteRune(r)
			inWord = true
		}
	}
	if quoted {
		t.Fatalf("%q: unclosed quote", line)
	}
	if inWord {
		words = append(words, word.String())
	}
	return words
}

var (
	hashShape = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
	timeShape = regexp.MustCompile(`\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
)

// shape writes hashes and times, which differ from run to run, as shapes.
func shape(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = timeShape.ReplaceAllString(hashShape.ReplaceAllString(l, "<hash>"), "<time>")
	}
	return out
}

// matchLines reports whether got is what want describes: a want line of "…"
// alone stands for any number of lines, and "…" within a line for any text.
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "…" {
		for i := 0; i <= len(got); i++ {
			if matchLines(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && lineRE(want[0]).MatchString(got[0]) && matchLines(want[1:], got[1:])
}

func lineRE(want string) *regexp.Regexp {
	parts := strings.Split(want, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$")
}

func TestMatchLines(t *testing.T) {
	tests := []struct {
		want, got string
		ok        bool
	}{
		{"a\nb", "a\nb", true},
		{"a\nb", "a\nc", false},
		{"a\nb", "a", false},
		{"a …", "a b c", true},
		{"a …", "b a", false},
		{"a\n…\nz", "a\nz", true},
		{"a\n…\nz", "a\nb\nc\nz", true},
		{"a\n…\nz", "a\nb\nc", false},
		{"x.y", "xzy", false}, // "." is no wildcard
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := matchLines(strings.Split(tc.want, "\n"), strings.Split(tc.got, "\n")); got != tc.ok {
				t.Errorf("matchLines(%q, %q) = %v, want %v", tc.want, tc.got, got, tc.ok)
			}
		})
	}
	if got := shape([]string{"tx 38657927449d3827a4c7f5f390340d0e3142b50186af28e27b1ecb16bf696a52 at 2026-11-25T18:20:11Z"}); got[0] != "tx <hash> at <time>" {
		t.Errorf("shape: %q", got[0])
	}
}

// TestDocLinks checks that every relative link of the README and the docs
// names a file or folder of the repository.
func TestDocLinks(t *testing.T) {
	docs, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)#]+)(#[^)]*)?\)`)
	for _, f := range append([]string{"../../README.md", "../../CONTRIBUTING.md", "../../wasm/README.md"}, docs...) {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(string(text), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(f), target)); err != nil {
				t.Errorf("%s links to %s, which is not there", f, target)
			}
		}
	}
}
