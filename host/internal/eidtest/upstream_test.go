package eidtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/eidtest/scenario"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// resolved is did_resolveDID's result.
type resolved struct {
	DID         string `json:"did"`
	Status      int    `json:"status"`
	Transaction []struct {
		Txid      string `json:"txid"`
		Timestamp string `json:"timestamp"`
		Operation struct {
			Header struct {
				Operation string `json:"operation"`
			} `json:"header"`
			Payload string `json:"payload"`
			Proof   struct {
				Signature string `json:"signature"`
			} `json:"proof"`
		} `json:"operation"`
	} `json:"transaction"`
}

// resolveDID asks u as the SDKs do and checks the envelope.
func resolveDID(t *testing.T, u *Upstream, did string, all bool) resolved {
	t.Helper()
	params := map[string]any{"did": did}
	if all {
		params["all"] = true
	}
	id := fmt.Sprintf("%032x", len(did)*7+1)
	body, _ := json.Marshal(map[string]any{"id": id, "method": "did_resolveDID", "params": []any{params}})
	resp, err := http.Post(u.URL, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      string          `json:"id"`
		Result  *resolved       `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil || env.Result == nil {
		t.Fatalf("resolve %s: %v, error %s", did, err, env.Error)
	}
	if env.JSONRPC != "2.0" || env.ID != id {
		t.Fatalf("resolve %s: jsonrpc %q id %q, want 2.0 and %s", did, env.JSONRPC, env.ID, id)
	}
	return *env.Result
}

// TestResolveListsAcceptedOperations checks, at every checkpoint, that each
// DID's resolve answer lists exactly the operations the node accepted on
// it, newest first, with what was sent, and the status they make. Against
// the recording, or a live node with EID_GETH set.
func TestResolveListsAcceptedOperations(t *testing.T) {
	for _, cp := range []string{scenario.Created, scenario.Active, scenario.Final} {
		t.Run(cp, func(t *testing.T) {
			u := NewUpstream(t, Options{Checkpoint: cp})
			if got := u.Manifest.Checkpoints[len(u.Manifest.Checkpoints)-1].Name; got != cp {
				t.Fatalf("the manifest ends at checkpoint %s", got)
			}
			for _, d := range u.Manifest.DIDs {
				t.Run(d.Name, func(t *testing.T) {
					checkResolve(t, u, d.DID)
				})
			}
		})
	}
}

func checkResolve(t *testing.T, u *Upstream, did string) {
	ops := u.Manifest.Accepted(did)
	slices.Reverse(ops) // newest first
	all := resolveDID(t, u, did, true)
	if all.DID != did {
		t.Errorf("did %s", all.DID)
	}
	switch {
	case len(ops) == 0:
		if all.Status != 3 || all.Transaction != nil {
			t.Errorf("never created, answered status %d with %d transactions", all.Status, len(all.Transaction))
		}
		return
	case ops[0].Operation == "deactivate":
		if all.Status != 2 {
			t.Errorf("deactivated, status %d", all.Status)
		}
	default:
		if all.Status != 0 {
			t.Errorf("status %d, want 0", all.Status)
		}
	}
	if len(all.Transaction) != len(ops) {
		t.Fatalf("%d transactions, the node accepted %d operations", len(all.Transaction), len(ops))
	}
	for i, tx := range all.Transaction {
		s := ops[i]
		var sent struct {
			Payload string
			Proof   struct{ Signature string }
		}
		if err := json.Unmarshal([]byte(s.Sent), &sent); err != nil {
			t.Fatal(err)
		}
		if tx.Txid != strings.TrimPrefix(s.TxHash, "0x") || tx.Operation.Header.Operation != s.Operation ||
			tx.Operation.Payload != sent.Payload || tx.Operation.Proof.Signature != sent.Proof.Signature {
			t.Errorf("transaction %d: %s %s, want step %s (%s %s) as sent", i, tx.Txid, tx.Operation.Header.Operation, s.Name, s.TxHash, s.Operation)
		}
	}
	latest := resolveDID(t, u, did, false)
	want := 1
	if latest.Status == 2 {
		want = 2 // the deactivate and the document it deactivated
	}
	if latest.Status != all.Status || len(latest.Transaction) != want || latest.Transaction[0].Txid != all.Transaction[0].Txid {
		t.Errorf("latest: status %d, %d transactions; all: status %d, first %s", latest.Status, len(latest.Transaction), all.Status, all.Transaction[0].Txid)
	}
}

// TestTamperedUpstream serves resolve answers whose newest signature has
// one character changed, as tests of verifiers will, and checks that only
// that changed.
func TestTamperedUpstream(t *testing.T) {
	flip := func(method string, _ json.RawMessage, answer []byte) []byte {
		if method != "did_resolveDID" {
			return answer
		}
		i := bytes.Index(answer, []byte(`"signature":"`))
		if i < 0 {
			return answer
		}
		out := bytes.Clone(answer)
		at := i + len(`"signature":"`)
		out[at] = map[bool]byte{true: 'B', false: 'A'}[out[at] == 'A']
		return out
	}
	plain := NewUpstream(t, Options{})
	tampered := NewUpstream(t, Options{Tamper: flip})
	did := plain.Manifest.DIDs[0].DID
	a, b := resolveDID(t, plain, did, true), resolveDID(t, tampered, did, true)
	if len(a.Transaction) == 0 || len(a.Transaction) != len(b.Transaction) {
		t.Fatalf("%d and %d transactions", len(a.Transaction), len(b.Transaction))
	}
	if a.Transaction[0].Operation.Proof.Signature == b.Transaction[0].Operation.Proof.Signature {
		t.Error("the newest signature was not changed")
	}
	b.Transaction[0].Operation.Proof.Signature = a.Transaction[0].Operation.Proof.Signature
	if ja, jb := mustJSON(t, a), mustJSON(t, b); ja != jb {
		t.Errorf("more than the signature changed:\n%s\n%s", ja, jb)
	}
	if got := tampered.Requests(); got != 1 {
		t.Errorf("the tampered upstream saw %d requests, want 1", got)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
