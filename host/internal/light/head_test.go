package light_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/light"
)

// A kept answer is served unasked while the upstream's head stays. When
// the head moves it is asked again; the same bytes reuse the verification,
// with expiry judged anew at the new head's time: frank, created with a
// document that expires 30 s later, is valid at the checkpoint and
// expired (status 1 in resolvedid) at a later head.
func TestKeptPerHead(t *testing.T) {
	var pinned atomic.Uint64
	var resolves atomic.Int64
	u := eidtest.NewUpstream(t, eidtest.Options{Checkpoint: scenario.Active, Tamper: func(method string, _ json.RawMessage, answer []byte) []byte {
		switch method {
		case "did_resolveDID":
			resolves.Add(1)
		case "eth_blockNumber":
			if n := pinned.Load(); n != 0 {
				return bytes.Replace(answer, resultOf(t, answer), fmt.Appendf(nil, `"%#x"`, n), 1)
			}
		}
		return answer
	}})
	h0 := u.Manifest.Checkpoints[len(u.Manifest.Checkpoints)-1].Head // frank valid; a live node has moved on since
	pinned.Store(h0)
	frank := mustDID(t, didOf(t, u.Manifest, "frank"))
	doc, _ := lastDocument(t, u.Manifest, frank.String())
	h1 := blockAfter(t, u.URL, h0, doc.Expires())

	r := light.New(light.Config{Client: testClient(t, u.URL, 5*time.Second), Poll: 20 * time.Millisecond})
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	defer func() { stop(); <-done }()

	first, err := r.DID(t.Context(), frank, false)
	if err != nil {
		t.Fatal(err)
	}
	asked := resolves.Load()
	again, err := r.DID(t.Context(), frank, false)
	if err != nil || again != first || resolves.Load() != asked {
		t.Fatalf("at the same head: %v, asked %d times more; want the kept answer, unasked", err, resolves.Load()-asked)
	}
	if st := parseResolved(t, first.Spec); st.Status != 0 || first.Resolved.Expired {
		t.Fatalf("at block %d: status %d, expired %v; want valid", h0, st.Status, first.Resolved.Expired)
	}

	pinned.Store(h1)
	waitFor(t, func() bool { n, _, _ := r.Head(); return n == h1 })
	later, err := r.DID(t.Context(), frank, false)
	if err != nil {
		t.Fatal(err)
	}
	st := r.State()
	if resolves.Load() != asked+1 || st.Answers.Reused != 1 || st.Answers.Verified != 1 || st.Answers.Kept != 1 {
		t.Errorf("after the head moved: asked %d more, counts %+v; want asked once, its verification reused", resolves.Load()-asked, st.Answers)
	}
	if spec := parseResolved(t, later.Spec); spec.Status != 1 || !later.Resolved.Expired || !bytes.Equal(later.Raw, first.Raw) || later.Head.Number != h1 {
		t.Errorf("at block %d: status %d, expired %v, head %d; want 1, expired, the same answer", h1, spec.Status, later.Resolved.Expired, later.Head.Number)
	}
}

// An upstream that fails gives an error saying so within the client's
// timeouts (well within the test's own deadline, which would otherwise
// end the call), and nothing is kept; once the upstream answers again, so
// does the same Resolver.
func TestUpstreamFaults(t *testing.T) {
	for _, tc := range []struct {
		name  string
		fault eidtest.Fault
		slow  bool
		want  string
	}{
		{"HTTP 500", eidtest.Status500, false, "HTTP 500"},
		{"not JSON", eidtest.Garbage, false, "not"},
		{"connection closed", eidtest.Hangup, false, "EOF"},
		{"no answer in time", eidtest.NoFault, true, "no answer within"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var failing atomic.Bool
			failing.Store(true)
			u := eidtest.NewUpstream(t, eidtest.Options{
				Fault: func(int) eidtest.Fault {
					if failing.Load() {
						return tc.fault
					}
					return eidtest.NoFault
				},
				Tamper: func(_ string, _ json.RawMessage, answer []byte) []byte {
					if tc.slow && failing.Load() {
						time.Sleep(time.Second)
					}
					return answer
				},
			})
			r := light.New(light.Config{Client: testClient(t, u.URL, 300*time.Millisecond)})
			alice := mustDID(t, didOf(t, u.Manifest, "alice"))
			ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
			defer cancel()
			_, err := r.DID(ctx, alice, true)
			if !errors.As(err, new(*light.UpstreamError)) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%v, want the upstream's failure (%q)", err, tc.want)
			}
			if st := r.State(); st.Answers.Failed == 0 || st.Kept.Answers != 0 {
				t.Errorf("state %+v: want the failure counted and nothing kept", st)
			}
			failing.Store(false)
			if _, err := r.DID(ctx, alice, true); err != nil {
				t.Errorf("once the upstream answers again: %v", err)
			}
		})
	}
}

// resultOf returns the result member of a JSON-RPC answer as it is written.
func resultOf(t testing.TB, answer []byte) []byte {
	var r struct{ Result json.RawMessage }
	if err := json.Unmarshal(answer, &r); err != nil {
		t.Errorf("%v: %.200s", err, answer)
	}
	return r.Result
}

// blockAfter returns the number of the first block after from whose time
// is after at, waiting for a live node to make it.
func blockAfter(t testing.TB, url string, from uint64, at time.Time) uint64 {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for n := from + 1; ; {
		res, _ := ask(t, url, "eth_getBlockByNumber", []any{fmt.Sprintf("%#x", n), false})
		var b *struct{ Timestamp string }
		json.Unmarshal(res, &b)
		switch {
		case b != nil && time.Unix(int64(eidtest.Quantity(t, b.Timestamp)), 0).After(at):
			return n
		case b != nil:
			n++
		case time.Now().After(deadline):
			t.Fatalf("no block after %v by block %d", at, n)
		default:
			time.Sleep(500 * time.Millisecond) // a live node makes a block a second
		}
	}
}

// waitFor waits until cond holds, for at most ten seconds.
func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("gave up waiting")
		}
	}
}

// Run stops when its context ends, even in the middle of asking an
// upstream that does not answer: a node stopping does not wait for the
// client's timeout (a minute here; the test gives up far sooner).
func TestRunStops(t *testing.T) {
	u := eidtest.NewReplay(t, eidtest.Options{Delay: time.Hour})
	r := light.New(light.Config{Client: testClient(t, u.URL, time.Minute), Poll: 10 * time.Millisecond})
	ctx, stop := context.WithCancel(t.Context())
	done := make(chan error)
	go func() { done <- r.Run(ctx) }()
	waitFor(t, func() bool { return u.Requests() > 0 })
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not stop when its context ended")
	}
}
