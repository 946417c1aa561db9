package eidtest

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Call is a recorded exchange read as one JSON-RPC call, for tests that
// walk a recording: the method asked, its params and the answer's result.
type Call struct {
	Exchange
	Method string
	Params json.RawMessage
	Result json.RawMessage // nil when the node answered an error or null
}

// Calls returns the single calls among xs (a batch is left out) with a
// JSON answer, in the order recorded.
func Calls(xs []Exchange) []Call {
	var out []Call
	for _, x := range xs {
		var req struct {
			Method string
			Params json.RawMessage
		}
		var resp struct{ Result json.RawMessage }
		if json.Unmarshal(x.Request, &req) != nil || req.Method == "" || json.Unmarshal(x.Response, &resp) != nil {
			continue
		}
		if string(resp.Result) == "null" {
			resp.Result = nil
		}
		out = append(out, Call{Exchange: x, Method: req.Method, Params: req.Params, Result: resp.Result})
	}
	return out
}

// DIDParams is the one params object the DID methods take (did_resolveDID,
// did_resolveCredential, did_listCredentials); each reads its own members.
type DIDParams struct {
	DID, ID, Issuer string
	All             bool
	Skip, Limit     int
}

// DIDParams returns the call's params when they are one object, as the
// DID methods take; ok is false otherwise. A member of another type than
// its method takes (as the recorder sends to see the node refuse it) reads
// as absent.
func (c Call) DIDParams() (p DIDParams, ok bool) {
	var ps []map[string]any
	if json.Unmarshal(c.Params, &ps) != nil || len(ps) != 1 || ps[0] == nil {
		return p, false
	}
	m := ps[0]
	p.DID, _ = m["did"].(string)
	p.ID, _ = m["id"].(string)
	p.Issuer, _ = m["issuer"].(string)
	p.All, _ = m["all"].(bool)
	skip, _ := m["skip"].(float64)
	limit, _ := m["limit"].(float64)
	p.Skip, p.Limit = int(skip), int(limit)
	return p, true
}

// BlockTimes returns the time of every block the chain's recording holds,
// by number.
func (r *Recording) BlockTimes(t testing.TB) map[uint64]time.Time {
	t.Helper()
	out := map[uint64]time.Time{}
	for _, x := range Calls(r.Chain) {
		var b struct{ Number, Timestamp string }
		if x.Method == "eth_getBlockByNumber" && json.Unmarshal(x.Result, &b) == nil {
			out[Quantity(t, b.Number)] = time.Unix(int64(Quantity(t, b.Timestamp)), 0).UTC()
		}
	}
	return out
}

// HeadTime returns the time of the head block as a light client saw it at
// checkpoint: the block that eth_blockNumber last answered there. It fails
// t when the recording lacks either.
func (r *Recording) HeadTime(t testing.TB, checkpoint string) time.Time {
	t.Helper()
	head := ""
	for _, x := range Calls(r.Checkpoints[checkpoint]) {
		if x.Method == "eth_blockNumber" {
			json.Unmarshal(x.Result, &head)
		}
	}
	if head == "" {
		t.Fatalf("checkpoint %s: no eth_blockNumber answer recorded", checkpoint)
	}
	at, ok := r.BlockTimes(t)[Quantity(t, head)]
	if !ok {
		t.Fatalf("checkpoint %s: the recording has no head block %s", checkpoint, head)
	}
	return at
}

// Quantity reads a JSON-RPC quantity ("0x…" hex) of a recorded answer,
// failing t when it is not one.
func Quantity(t testing.TB, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	if err != nil {
		t.Fatalf("quantity %q: %v", s, err)
	}
	return n
}

// SameAnswer reports whether two JSON-RPC answers hold the same members
// byte for byte (result, error, id), in whatever order the envelope writes
// them; a batch's elements are compared in order. A server that answers
// as the recorded node did gives the same answer (the id being the
// caller's, as the replay's is).
func SameAnswer(got, want []byte) bool {
	if bytes.HasPrefix(bytes.TrimSpace(want), []byte("[")) {
		var g, w []json.RawMessage
		if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !SameAnswer(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	var g, w map[string]json.RawMessage
	if json.Unmarshal(got, &g) != nil || json.Unmarshal(want, &w) != nil || len(g) != len(w) {
		return false
	}
	for k, v := range w {
		if !bytes.Equal(g[k], v) {
			return false
		}
	}
	return true
}
