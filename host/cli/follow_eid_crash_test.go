package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/eidtest/eidfake"
	"github.com/didlight/didlight/host/internal/synth"
)

// fakeChainID is the generated chain's: not mainnet or testnet, so that
// every operation is checked in full and --did-contract is needed.
const fakeChainID = 7203

// fakeContract is the DID contract of the generated chain.
const fakeContract = "0x3a220f351252089d385b29beca14e27f204c296a"

// placed is a synth plan placed in a generated chain from block base.
type placed struct {
	plan *synth.Plan
	base uint64
}

// placePlan places the plan of n DIDs for seed in c from block base.
func placePlan(t *testing.T, c *eidfake.Chain, seed string, n int, base uint64) placed {
	t.Helper()
	plan, err := eidfake.NewPlan(seed, n, base)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.PutPlan(plan, base); err != nil {
		t.Fatal(err)
	}
	return placed{plan, base}
}

// followerAnswers returns what a follower answers of the plans' DIDs:
// did_resolveDID with all, did_listCredentials, each credential listed
// resolved, and a query page of every document; each answer's body
// without its id.
func followerAnswers(t *testing.T, c *child, plans ...placed) map[string]string {
	t.Helper()
	out := map[string]string{}
	ask := func(method, params string) string {
		body := `{"jsonrpc":"2.0","id":1,"method":"` + method + `","params":` + params + `}`
		resp, err := http.Post(c.rpc, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		out[method+" "+params] = string(b)
		return string(b)
	}
	for _, p := range plans {
		for i := range p.plan.DIDs {
			d, err := p.plan.Subject(p.plan.DID(i))
			if err != nil {
				t.Fatal(err)
			}
			ask("did_resolveDID", `[{"did":"`+d.String()+`","all":true}]`)
			var list struct {
				Result struct{ Credentials []string }
			}
			json.Unmarshal([]byte(ask("did_listCredentials", `[{"did":"`+d.String()+`"}]`)), &list)
			for _, id := range list.Result.Credentials {
				ask("did_resolveCredential", `[{"id":"`+id+`"}]`)
			}
		}
	}
	ask("query", `{"query":"{}","limit":256}`)
	return out
}

// checkSameAnswers compares two followers' answers, and that they answer
// the plans' DIDs at all.
func checkSameAnswers(t *testing.T, got, want map[string]string) {
	t.Helper()
	resolved := 0
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s:\n got %.400s\nwant %.400s", k, got[k], w)
		}
		if strings.HasPrefix(k, "did_resolveDID") && strings.Contains(w, `"transaction"`) {
			resolved++
		}
	}
	if !maps.EqualFunc(got, want, func(a, b string) bool { return a == b }) || resolved == 0 {
		t.Errorf("%d answers of %d the same; %d DIDs resolved", countSame(got, want), len(want), resolved)
	}
}

func countSame(got, want map[string]string) int {
	n := 0
	for k, w := range want {
		if got[k] == w {
			n++
		}
	}
	return n
}

// followerState is what the node state says of a follower.
func followerState(t *testing.T, c *child) (synced uint64, reorgs int, ops struct{ Applied, Refused uint64 }) {
	t.Helper()
	var st struct {
		Light struct {
			Synced     struct{ Number uint64 }
			Reorgs     int
			Operations struct{ Applied, Refused uint64 }
		}
	}
	c.get("/node/state", &st)
	return st.Light.Synced.Number, st.Light.Reorgs, st.Light.Operations
}

// opsOf counts the operations of plans.
func opsOf(plans ...placed) uint64 {
	var n uint64
	for _, p := range plans {
		for h := range p.plan.Blocks() {
			n += uint64(len(p.plan.Block(h)))
		}
	}
	return n
}

// waitSynced waits until the follower has indexed block head.
func waitSynced(t *testing.T, c *child, head uint64, within time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(within); ; time.Sleep(20 * time.Millisecond) {
		if n, _, _ := followerState(t, c); n >= head {
			return
		}
		if time.Now().After(deadline) {
			n, _, _ := followerState(t, c)
			t.Fatalf("the follower is at block %d after %s, want %d\nstderr:\n%s", n, within, head, c.stderr)
		}
	}
}

// A follower process syncing a long generated chain (tens of thousands of
// empty blocks, DID operations early and late among them), killed with
// SIGKILL mid-sync and started again on its directory, continues from the
// head it stored (it asks the upstream for the blocks after it only) and
// ends with the answers of a follower that was never interrupted.
func TestEIDFollowerKilledMidSync(t *testing.T) {
	const head = 40_000
	up := eidfake.New(fakeChainID, fakeContract, head)
	early := placePlan(t, up, "early", 120, 1_000)
	late := placePlan(t, up, "late", 120, 36_000)
	url := up.Start(t)
	follow := []string{"--follow", url, "--did-contract", fakeContract}

	whole := startNodeProcess(t, append(follow, "--mem")...)
	waitSynced(t, whole, head, 120*time.Second)
	if _, _, ops := followerState(t, whole); ops.Applied != opsOf(early, late) || ops.Refused != 0 {
		t.Fatalf("the follower indexed %+v of the %d operations placed", ops, opsOf(early, late))
	}
	want := followerAnswers(t, whole, early, late)
	whole.stop()

	dir := t.TempDir()
	c := startNodeProcess(t, append(follow, "--datadir", dir)...)
	var killedAt uint64
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		n, _, _ := followerState(t, c)
		if n > early.base+uint64(early.plan.Blocks()) && n < late.base-5_000 {
			killedAt = n
			break
		}
		if n >= late.base-5_000 || time.Now().After(deadline) {
			t.Fatalf("the follower went from before block %d to %d between two looks: no mid-sync kill", early.base, n)
		}
	}
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	c.cmd.Wait()

	asked := up.BlockCalls.Load()
	c = startNodeProcess(t, append(follow, "--datadir", dir)...)
	if n, _, _ := followerState(t, c); n < killedAt {
		t.Errorf("restarted at block %d, below the %d it had stored before the kill", n, killedAt)
	}
	waitSynced(t, c, head, 120*time.Second)
	if _, _, ops := followerState(t, c); ops.Applied != opsOf(early, late) || ops.Refused != 0 {
		t.Errorf("the restarted follower indexed %+v of the %d operations placed", ops, opsOf(early, late))
	}
	again := uint64(up.BlockCalls.Load() - asked)
	t.Logf("killed at block %d of %d; after the restart it asked for %d blocks", killedAt, head, again)
	if again > head-killedAt+1_000 {
		t.Errorf("after the restart the follower asked for %d blocks, want about the %d after block %d", again, head-killedAt, killedAt)
	}
	checkSameAnswers(t, followerAnswers(t, c, early, late), want)
	c.stop()
}

// A follower process following a chain that reorganises, replacing
// blocks that hold DID operations by a branch that holds others, ends
// with the answers of a follower started afresh on the new branch.
func TestEIDFollowerReorg(t *testing.T) {
	const head, fork, newHead = 3_000, 2_905, 3_100
	up := eidfake.New(fakeChainID, fakeContract, head)
	kept := placePlan(t, up, "kept", 80, 2_900) // its operations from block 2,905 on are dropped
	url := up.Start(t)
	follow := []string{"--follow", url, "--did-contract", fakeContract}

	c := startNodeProcess(t, append(follow, "--datadir", t.TempDir())...)
	waitSynced(t, c, head, 60*time.Second)
	before := followerAnswers(t, c, kept)

	up.Reorg(fork, newHead)
	added := placePlan(t, up, "added", 80, 2_950)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		n, reorgs, _ := followerState(t, c)
		if n >= newHead && reorgs > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the follower is at block %d, %d reorganisations, after 60 s; want %d and one\nstderr:\n%s", n, reorgs, newHead, c.stderr)
		}
	}
	after := followerAnswers(t, c, kept, added)

	fresh := startNodeProcess(t, append(follow, "--mem")...)
	waitSynced(t, fresh, newHead, 60*time.Second)
	checkSameAnswers(t, after, followerAnswers(t, fresh, kept, added))
	if bytes.Equal([]byte(before["query {\"query\":\"{}\",\"limit\":256}"]), []byte(after["query {\"query\":\"{}\",\"limit\":256}"])) {
		t.Error("the reorganisation changed no answer: the dropped blocks held no operation")
	}
	fresh.stop()
	c.stop()
}
