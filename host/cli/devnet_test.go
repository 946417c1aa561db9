package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tip is a node's tip, read over REST.
func (c *child) tip() (height uint32, hash string) {
	c.get("/block/height", &height)
	c.get("/block/hash/"+strconv.FormatUint(uint64(height), 10), &hash)
	return height, hash
}

// devnetCLI runs didlight with args in this process and returns its exit code
// and output.
func devnetCLI(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := Run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// A chain exported from a data directory starts another node, in memory or
// in a data directory, at the same tip; bad files and stores are refused
// with a message and change nothing.
func TestDevnetExportImport(t *testing.T) {
	dir, file := t.TempDir(), filepath.Join(t.TempDir(), "chain.fixture")
	c := startNodeProcess(t, "--datadir", dir, "--genesis-time", "2025-06-01T00:00:00Z", "--dev-seed", "team")
	for range 3 {
		c.call("dev_mine", "{}", &struct{}{})
	}
	var moved struct{ Time int64 }
	c.call("dev_increaseTime", `{"seconds":86400}`, &moved)
	height, hash := c.tip()
	if code, _, errOut := devnetCLI("devnet", "export", "--datadir", dir, "--dev-seed", "team", file); code != exitFail || !strings.Contains(errOut, "stop the node that uses") {
		t.Errorf("export while the node runs: exit %d, %s", code, errOut)
	}
	c.stop()

	code, out, errOut := devnetCLI("devnet", "export", "--datadir", dir, "--dev-seed", "team", file)
	if code != 0 || out != "exported 4 blocks after genesis (dev seed \"team\") to "+file+"\n" {
		t.Fatalf("export: exit %d, %q %s", code, out, errOut)
	}

	// node --import: in memory, the file's seed taken.
	m := startNodeProcess(t, "--mem", "--import", file)
	if h, got := m.tip(); h != height || got != hash {
		t.Errorf("node --import: tip %d %s, the exported chain's %d %s", h, got, height, hash)
	}
	var mined struct{ Height uint32 }
	m.call("dev_mine", "{}", &mined)
	var b struct{ Time int64 }
	m.get("/block/details/height/"+strconv.FormatUint(uint64(mined.Height), 10), &b)
	if b.Time != moved.Time+1 {
		t.Errorf("the first block after the import is stamped %d, want %d", b.Time, moved.Time+1)
	}
	m.stop()

	// devnet import into a data directory, which a node then opens.
	into := t.TempDir()
	if code, out, errOut := devnetCLI("devnet", "import", "--datadir", into, file); code != 0 || !strings.HasPrefix(out, "imported 4 blocks after genesis (dev seed \"team\") into ") {
		t.Fatalf("devnet import: exit %d, %q %s", code, out, errOut)
	}
	if code, _, errOut := devnetCLI("devnet", "import", "--datadir", into, file); code != exitFail || !strings.Contains(errOut, "the store holds a chain of 4 blocks: import into an empty one") {
		t.Errorf("a second import: exit %d, %s", code, errOut)
	}
	n := startNodeProcess(t, "--datadir", into, "--dev-seed", "team")
	if h, got := n.tip(); h != height || got != hash {
		t.Errorf("after devnet import: tip %d %s, want %d %s", h, got, height, hash)
	}
	n.stop()

	// Bad files: nothing is made.
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	corrupt := filepath.Join(t.TempDir(), "corrupt.fixture")
	data[len(data)/2] ^= 1
	os.WriteFile(corrupt, data, 0o600)
	fresh := filepath.Join(t.TempDir(), "fresh")
	for i, c := range []struct {
		args []string
		want string
	}{
		{[]string{"devnet", "import", "--datadir", fresh, corrupt}, "its checksum does not match: the file is truncated or altered"},
		{[]string{"devnet", "import", "--datadir", fresh, "--dev-seed", "other", file}, `the file's chain is of dev seed "team", not "other"`},
		{[]string{"devnet", "import", "--datadir", fresh, filepath.Join(fresh, "none")}, "no such file"},
		{[]string{"devnet", "import", "--datadir", fresh}, "want one argument, FILE; got 0"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			code, _, errOut := devnetCLI(c.args...)
			if code == 0 || !strings.Contains(errOut, c.want) {
				t.Errorf("%v: exit %d, %s; want an error saying %q", c.args, code, errOut, c.want)
			}
			if _, err := os.Stat(fresh); !os.IsNotExist(err) {
				t.Errorf("%v: the data directory was made (%v)", c.args, err)
			}
		})
	}
	if code, _, errOut := devnetCLI("node", "--mem", "--import", corrupt, "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0"); code != 1 || !strings.Contains(errOut, "its checksum does not match") {
		t.Errorf("node --import of a corrupt file: exit %d, %s", code, errOut)
	}
	if code, _, errOut := devnetCLI("node", "--mem", "--import", file, "--follow", "http://127.0.0.1:1"); code != 2 || !strings.Contains(errOut, "--import and --follow exclude each other") {
		t.Errorf("node --import --follow: exit %d, %s", code, errOut)
	}
}
