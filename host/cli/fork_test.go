package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
)

// createRequest returns a signed create of a new DID, as /idtx takes it.
func createRequest(t *testing.T, name string) (did.DID, []byte) {
	t.Helper()
	seed := sha256.Sum256([]byte("fork test " + name))
	key, err := keys.NewPrivateKey(seed[:])
	if err != nil {
		t.Fatal(err)
	}
	doc, err := did.NewDocument(key.Public(), time.Now().AddDate(1, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	primary := did.URL{DID: doc.Subject(), Fragment: did.PrimaryKey}
	if doc, err = doc.Sign(key, primary, time.Now()); err != nil {
		t.Fatal(err)
	}
	req, err := idop.NewCreate(doc, primary, key)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return doc.Subject(), b
}

// publish posts a request to the node's /idtx and requires 202.
func (c *child) publish(body []byte) {
	c.t.Helper()
	resp, err := http.Post(c.rpc+"idtx", "application/json", bytes.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		c.t.Fatalf("/idtx: %d", resp.StatusCode)
	}
}

// devAddress returns the dev account's address from the node's banner.
func devAddress(t *testing.T, c *child) string {
	t.Helper()
	for _, line := range strings.Split(c.banner, "\n") {
		if f := strings.Fields(line); len(f) >= 3 && f[0] == "dev" && f[1] == "account" {
			return f[2]
		}
	}
	t.Fatalf("the banner names no dev account:\n%s", c.banner)
	return ""
}

// status returns the status resolvedid answers for d.
func (c *child) status(d did.DID) int {
	var res struct{ Status int }
	c.call("resolvedid", `{"did":"`+d.String()+`"}`, &res)
	return res.Status
}

// `didlight node --fork` begins at the upstream's chain, at its tip or a
// height given, and goes on with blocks of its own.
func TestNodeFork(t *testing.T) {
	up := startNodeProcess(t, "--mem", "--dev-seed", "shared")
	early, earlyReq := createRequest(t, "early")
	up.publish(earlyReq)
	forkAt, _ := up.tip()
	late, lateReq := createRequest(t, "late")
	up.publish(lateReq)
	upHeight, upHash := up.tip()
	rest := strings.TrimSuffix(up.rest, "/api/v1")

	// At the tip: every DID of the upstream resolves.
	f := startNodeProcess(t, "--mem", "--dev-seed", "shared", "--fork", rest)
	if h, hash := f.tip(); h != upHeight || hash != upHash {
		t.Errorf("fork at the tip: %d %s, the upstream's %d %s", h, hash, upHeight, upHash)
	}
	if f.status(early) != 0 || f.status(late) != 0 {
		t.Errorf("on the fork, the upstream's DIDs resolve with statuses %d and %d, want 0", f.status(early), f.status(late))
	}
	// New operations are mined here, paid by the dev account, not upstream;
	// the fork's coinbases fund the dev account.
	dev := devAddress(t, f)
	funds := func(c *child) ela.Fixed64 {
		t.Helper()
		var b string
		c.get("/asset/balances/"+dev, &b)
		v, err := ela.ParseFixed64(b)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	before := funds(f)
	mine, mineReq := createRequest(t, "mine")
	f.publish(mineReq)
	if got, want := funds(f), before+ledger.DevnetSubsidy; got != want || funds(up) != before {
		t.Errorf("the dev account holds %s after the fork's block, %s upstream; want %s (the coinbase paid to it, the fee back) and %s", got, funds(up), want, before)
	}
	if h, _ := f.tip(); h != upHeight+1 || f.status(mine) != 0 {
		t.Errorf("the fork's own create: height %d, status %d", h, f.status(mine))
	}
	if h, hash := up.tip(); h != upHeight || hash != upHash || up.status(mine) != 3 {
		t.Errorf("the upstream moved: %d %s, status %d", h, hash, up.status(mine))
	}
	f.stop()

	// At a height: later blocks are not taken.
	g := startNodeProcess(t, "--mem", "--dev-seed", "shared", "--fork", rest, "--fork-height", strconv.FormatUint(uint64(forkAt), 10))
	if h, _ := g.tip(); h != forkAt || g.status(early) != 0 || g.status(late) != 3 {
		t.Errorf("fork at %d: height %d, statuses %d %d; want the early DID only", forkAt, h, g.status(early), g.status(late))
	}
	g.stop()

	for i, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--fork", "http://127.0.0.1:1"}, 1, "--fork: reading the upstream's genesis block: node unreachable at http://127.0.0.1:1/api/v1"},
		{[]string{"--fork", rest, "--fork-height", "99"}, 1, "is at height " + strconv.FormatUint(uint64(upHeight), 10) + ", below 99"},
		{[]string{"--fork", rest, "--dev-seed", "other"}, 1, "is another chain"},
		{[]string{"--fork", rest, "--follow", rest}, 2, "--fork and --follow exclude each other"},
		{[]string{"--fork-height", "3"}, 2, "--fork-height needs --fork"},
		{[]string{"--fork", "ftp://x"}, 2, "ftp://x"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			args := append([]string{"node", "--mem", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0"}, c.args...)
			if !slices.Contains(c.args, "--dev-seed") {
				args = append(args, "--dev-seed", "shared")
			}
			code, _, errOut := devnetCLI(args...)
			if code != c.code || !strings.Contains(errOut, c.want) {
				t.Errorf("%v: exit %d, %s; want %d and %q", c.args, code, errOut, c.code, c.want)
			}
		})
	}
	up.stop()
}
