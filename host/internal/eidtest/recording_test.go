package eidtest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/eidtest/didcontract"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
)

// results returns the result of every recorded single request to method,
// by its first param (a transaction hash).
func results(t *testing.T, xs []Exchange, method string) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	for _, x := range xs {
		req, err := parseRequest(x.Request)
		if err != nil || req.method != method {
			continue
		}
		var params []string
		var env struct{ Result json.RawMessage }
		if json.Unmarshal(req.params, &params) != nil || len(params) == 0 || json.Unmarshal(x.Response, &env) != nil {
			t.Fatalf("%s: request %s answered %s", x.Note, x.Request, x.Body())
		}
		out[params[0]] = env.Result
	}
	return out
}

type receipt struct {
	TransactionHash string `json:"transactionHash"`
	Status          string `json:"status"`
	DIDLog          *struct {
		DID             string `json:"did"`
		Operation       string `json:"operation"`
		Data            string `json:"data"`
		TransactionHash string `json:"transactionHash"`
	} `json:"didLog"`
}

// TestRecordedReceiptsMatchTheManifest checks the recording against itself:
// each step's transaction and receipt are recorded, the receipt is the one
// the manifest holds, an accepted step has a didLog naming its subject and
// operation, a refused one has status 0 and no didLog.
func TestRecordedReceiptsMatchTheManifest(t *testing.T) {
	rec, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	receipts := results(t, rec.Chain, "eth_getTransactionReceipt")
	txs := results(t, rec.Chain, "eth_getTransactionByHash")
	if len(rec.Manifest.Steps) < 40 {
		t.Fatalf("the manifest has %d steps", len(rec.Manifest.Steps))
	}
	for _, s := range rec.Manifest.Steps {
		t.Run(s.Name, func(t *testing.T) {
			raw, ok := receipts[s.TxHash]
			if !ok {
				t.Fatalf("no recorded receipt of %s", s.TxHash)
			}
			if !jsonEqual(t, raw, s.Receipt) {
				t.Errorf("the recorded receipt differs from the manifest's:\n%s\n%s", raw, s.Receipt)
			}
			var rc receipt
			if err := json.Unmarshal(raw, &rc); err != nil {
				t.Fatal(err)
			}
			if rc.TransactionHash != s.TxHash {
				t.Errorf("receipt of %s, want %s", rc.TransactionHash, s.TxHash)
			}
			switch {
			case s.Accepted && (rc.Status != "0x1" || rc.DIDLog == nil):
				t.Errorf("accepted, but status %s, didLog %v", rc.Status, rc.DIDLog)
			case s.Accepted && (rc.DIDLog.DID != s.Subject || rc.DIDLog.Operation != s.Operation || rc.DIDLog.TransactionHash != s.TxHash || rc.DIDLog.Data == ""):
				t.Errorf("didLog %+v, want did %s, operation %s, data", *rc.DIDLog, s.Subject, s.Operation)
			case !s.Accepted && (rc.Status != "0x0" || rc.DIDLog != nil):
				t.Errorf("refused, but status %s, didLog %v", rc.Status, rc.DIDLog)
			}
			var tx struct{ Hash, Input, To string }
			if err := json.Unmarshal(txs[s.TxHash], &tx); err != nil || tx.Hash != s.TxHash {
				t.Fatalf("recorded transaction %s (%v)", txs[s.TxHash], err)
			}
			wantTo := map[string]string{scenario.ViaContract: rec.Manifest.Contract, scenario.ViaPrecompile: didcontract.Precompile}[s.Route]
			if tx.Input != s.Input || !strings.EqualFold(tx.To, wantTo) {
				t.Errorf("transaction to %s with input %.40s…, want to %s (%s) with %.40s…", tx.To, tx.Input, wantTo, s.Route, s.Input)
			}
		})
	}
}

// TestRefusalsCovered checks that the recording shows what the scenario
// means to: each kind of refusal refused, each acceptance accepted, and
// DIDs with histories of 1, 5 and 20 operations.
func TestRefusalsCovered(t *testing.T) {
	rec, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range rec.Manifest.Steps {
		t.Run(s.Name, func(t *testing.T) {
			if got := map[bool]string{true: "accepted", false: "refused"}[s.Accepted]; got != s.Expect {
				t.Errorf("the node %s it; the scenario expected %s (precheck: %s)", got, s.Expect, s.Precheck)
			}
		})
	}
	lengths := map[int]bool{}
	for _, d := range rec.Manifest.DIDs {
		lengths[len(rec.Manifest.Accepted(d.DID))] = true
	}
	for _, n := range []int{1, 5, 20} {
		if !lengths[n] {
			t.Errorf("no DID with a history of %d operations", n)
		}
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}
