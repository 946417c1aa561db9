package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/nodetest"
)

// runCLI runs didlight with args in process.
func runCLI(args ...string) result {
	var out, errOut bytes.Buffer
	code := Run(args, &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// askEID sends the upstream did_resolveDID as the SDKs do and returns the
// result.
func askEID(t *testing.T, url, d string, all bool) json.RawMessage {
	t.Helper()
	p := map[string]any{"did": d}
	if all {
		p["all"] = true
	}
	body, _ := json.Marshal(map[string]any{"id": "1", "method": "did_resolveDID", "params": []any{p}})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct{ Result json.RawMessage }
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return r.Result
}

// resolvedJSON is what `resolve --json` prints that the tests compare.
type resolvedJSON struct {
	DID          string            `json:"did"`
	Status       int               `json:"status"`
	Transaction  []json.RawMessage `json:"transaction"`
	Verification struct {
		Ran      bool     `json:"ran"`
		Outcome  string   `json:"outcome"`
		Upstream string   `json:"upstream"`
		ChainID  uint64   `json:"chainId"`
		Checked  []string `json:"checked"`
		Trusted  []string `json:"trusted"`
		Expired  bool     `json:"expired"`
	} `json:"verification"`
}

// `didlight resolve --rpc <EID node> --verify --json`, for every DID of the
// scenario at every checkpoint, with and without --all: the status and
// transactions the EID node answers (txids, timestamps, operations), with
// core/eid's verdict; --all checks every operation from the create on.
func TestResolveEID(t *testing.T) {
	for _, cp := range scenario.Checkpoints {
		t.Run(cp, func(t *testing.T) {
			u := eidtest.NewUpstream(t, eidtest.Options{Checkpoint: cp})
			for _, s := range u.Manifest.DIDs {
				for _, all := range []bool{true, false} {
					t.Run(fmt.Sprintf("%s all=%v", s.Name, all), func(t *testing.T) {
						args := []string{"resolve", "--rpc", u.URL, "--verify", "--json", s.DID}
						if all {
							args = append(args, "--all")
						}
						r := runCLI(args...)
						if r.code != exitOK {
							t.Fatalf("exit %d: %s", r.code, r.stderr)
						}
						var got, want resolvedJSON
						if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
							t.Fatalf("%v: %s", err, r.stdout)
						}
						json.Unmarshal(askEID(t, u.URL, s.DID, all), &want)
						same := slices.EqualFunc(got.Transaction, want.Transaction, func(a, b json.RawMessage) bool { return jsonEqual(a, b) })
						if got.DID != want.DID || got.Status != want.Status || !same {
							t.Errorf("printed %s; the node answered %+v", r.stdout, want)
						}
						v, outcome := got.Verification, "verified"
						if len(want.Transaction) == 0 {
							outcome = "nothing to verify"
						}
						if !v.Ran || v.Outcome != outcome || v.Upstream != "EID" || v.ChainID != u.Manifest.ChainID || len(v.Trusted) == 0 ||
							(outcome == "verified") != slices.Contains(v.Checked, "signatures") {
							t.Errorf("verification %+v, want %s by core/eid, with what it trusted", v, outcome)
						}
					})
				}
			}
		})
	}
}

// jsonEqual reports whether two JSON texts hold the same value.
func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && fmt.Sprint(x) == fmt.Sprint(y)
}

// The table against an EID node is a didlight node's, with the real txids
// and times, what core/eid checked, what it took on the node's word, and
// expiry, which EID leaves to the client.
func TestResolveEIDTable(t *testing.T) {
	u := eidtest.NewUpstream(t, eidtest.Options{})
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"carol", []string{"status    0 valid\n", "verified  yes, locally: answer-form, order, signatures, key-derivation, document-proofs, expiry, previous-txid-links, status, over every operation from the create on",
			"trusted   on the node's word: inclusion, block-time, newest\n", "Document (latest)"}},
		{"frank", []string{"status    0 valid\n", "expired   yes, at the chain's time", "(resolvedid says 1)"}},
		{"erin", []string{"status    2 deactivated\n", "deactivate\n"}},
		{"customized", []string{"status    3 not found\n", "verified  nothing to verify"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var d string
			for _, s := range u.Manifest.DIDs {
				if s.Name == tc.name {
					d = s.DID
				}
			}
			r := runCLI("resolve", "--rpc", u.URL, "--all", "--verify", d)
			if r.code != exitOK {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var raw resolvedJSON
			json.Unmarshal(askEID(t, u.URL, d, true), &raw)
			for _, x := range raw.Transaction {
				var tx struct{ Txid, Timestamp string }
				json.Unmarshal(x, &tx)
				tc.want = append(tc.want, tx.Txid+"  "+tx.Timestamp)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.stdout, w) {
					t.Errorf("the table lacks %q:\n%s", w, r.stdout)
				}
			}
		})
	}
}

// An EID answer that fails verification is an error naming what failed,
// exit 1, and nothing printed; an EID node that does not answer is exit 3;
// an EID node has no W3C endpoint, but --verify builds the answer here.
func TestResolveEIDFails(t *testing.T) {
	var tampered atomic.Bool
	u := eidtest.NewUpstream(t, eidtest.Options{Tamper: func(method string, _ json.RawMessage, answer []byte) []byte {
		if tampered.Load() && method == "did_resolveDID" {
			return bytes.Replace(answer, []byte(`"signature":"`), []byte(`"signature":"AA`), 1)
		}
		return answer
	}})
	alice := u.Manifest.DIDs[0].DID
	tampered.Store(true)
	r := runCLI("resolve", "--rpc", u.URL, "--all", "--verify", alice)
	tampered.Store(false)
	if r.code != exitFail || r.stdout != "" || !strings.Contains(r.stderr, "does not verify") || !strings.Contains(r.stderr, "signature") {
		t.Errorf("a tampered answer: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}

	r = runCLI("resolve", "--rpc", u.URL, "--format", "w3c", "--verify", alice+"#primary")
	if r.code != exitOK || !strings.Contains(r.stdout, `"contentStream"`) || !strings.Contains(r.stdout, alice+"#primary") {
		t.Errorf("W3C: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r = runCLI("resolve", "--rpc", u.URL, "--format", "w3c", alice); r.code != exitUsage || !strings.Contains(r.stderr, "add --verify") {
		t.Errorf("W3C without --verify: exit %d %s", r.code, r.stderr)
	}

	gone := eidtest.NewReplay(t, eidtest.Options{Fault: func(int) eidtest.Fault { return eidtest.Hangup }})
	if r = runCLI("resolve", "--rpc", gone.URL, "--timeout", "5s", "--verify", alice); r.code != exitUnreachable {
		t.Errorf("an upstream that hangs up: exit %d %s", r.code, r.stderr)
	}
}

// `didlight node --light <EID node>` runs as a process: a banner that says
// so, the DID reads answered as the EID node answers them, resolve --verify
// through it, its node state; a didlight node given as --light is refused.
func TestLightNodeProcess(t *testing.T) {
	u := eidtest.NewUpstream(t, eidtest.Options{})
	c := startNodeProcess(t, "--light", u.URL, "--light-poll", "200ms")
	if !strings.Contains(c.banner, "mode         light") || !strings.Contains(c.banner, "upstream     "+u.URL) || !strings.Contains(c.banner, "chain id 7203") {
		t.Errorf("banner:\n%s", c.banner)
	}
	carol := u.Manifest.DIDs[2].DID
	var got json.RawMessage
	c.call("did_resolveDID", `[{"did":"`+carol+`","all":true}]`, &got)
	if want := askEID(t, u.URL, carol, true); !bytes.Equal(got, want) {
		t.Errorf("did_resolveDID: %.200s, want the EID node's %.200s", got, want)
	}
	if r := runCLI("resolve", "--rpc", c.rpc, "--all", "--verify", carol); r.code != exitOK || !strings.Contains(r.stdout, "verified  yes, locally") {
		t.Errorf("resolve --verify through the light node: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var st struct{ Light struct{ Mode string } }
	c.get("/node/state", &st)
	if st.Light.Mode != "light" {
		t.Errorf("node state: %+v", st)
	}
	resp, err := http.Get(strings.TrimSuffix(c.rest, "api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.HasPrefix(page, []byte("<!doctype html>")) {
		t.Errorf("the browser app: HTTP %d %.100s", resp.StatusCode, page)
	}
	c.stop()

	up := nodetest.Start(t)
	r := runCLI("node", "--light", up.RPC, "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0")
	if r.code == exitOK || !strings.Contains(r.stderr, "a didlight node, not an EID node") || !strings.Contains(r.stderr, "--follow") {
		t.Errorf("--light at a didlight node: exit %d %s", r.code, r.stderr)
	}
}
