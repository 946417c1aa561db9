package eid_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/eidtest"
)

// TestScanReads reads the recorded scenario's chain as a scan does, in
// batches: every block from genesis to the head, linked by parent hashes,
// each step's transaction in its block, and the receipts of all of them
// in one request, their didLog as the node recorded it.
func TestScanReads(t *testing.T) {
	up := eidtest.NewUpstream(t, eidtest.Options{})
	m := up.Manifest
	c, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{up.URL}}, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	head, err := c.BlockNumber(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before := up.Requests()
	blocks, err := c.Blocks(ctx, 0, int(head)+1)
	if err != nil {
		t.Fatal(err)
	}
	if got := up.Requests() - before; got != 1 {
		t.Errorf("%d blocks took %d requests, want one batch", head+1, got)
	}
	if uint64(len(blocks)) != head+1 {
		t.Fatalf("%d blocks up to head %d", len(blocks), head)
	}
	where := map[string]eid.Tx{}
	for i, b := range blocks {
		if b.Number != uint64(i) || (i > 0 && b.ParentHash != blocks[i-1].Hash) {
			t.Fatalf("block %d: number %d, parent %s, not linked to %s", i, b.Number, b.ParentHash, blocks[max(i-1, 0)].Hash)
		}
		for _, tx := range b.Txs {
			where[fmt.Sprint(b.Number, tx.Hash)] = tx
		}
	}
	var hashes []string
	for _, s := range m.Steps {
		tx, ok := where[fmt.Sprint(s.Block, s.TxHash)]
		wantTo := m.Contract
		if s.Route == "precompile" {
			wantTo = "0x0000000000000000000000000000000000000016"
		}
		if !ok || tx.To != strings.ToLower(wantTo) || tx.From != strings.ToLower(m.Signer) {
			t.Errorf("step %s: transaction %s in block %d: %+v, want to %s from %s", s.Name, s.TxHash, s.Block, tx, wantTo, m.Signer)
		}
		hashes = append(hashes, s.TxHash)
	}
	before = up.Requests()
	rs, err := c.Receipts(ctx, hashes)
	if err != nil {
		t.Fatal(err)
	}
	if got := up.Requests() - before; got != 1 {
		t.Errorf("%d receipts took %d requests, want one batch", len(hashes), got)
	}
	for i, s := range m.Steps {
		t.Run(s.Name, func(t *testing.T) {
			var rec struct {
				DIDLog *eid.DIDLog `json:"didLog"`
			}
			if err := json.Unmarshal(s.Receipt, &rec); err != nil {
				t.Fatal(err)
			}
			r := rs[i]
			if r.TxHash != s.TxHash || r.BlockNumber != s.Block || (r.Status == 1) != s.Accepted || (r.DIDLog != nil) != s.Accepted {
				t.Fatalf("receipt %+v, step in block %d accepted %v", r, s.Block, s.Accepted)
			}
			if s.Accepted && *r.DIDLog != *rec.DIDLog {
				t.Errorf("didLog %+v, recorded %+v", r.DIDLog, rec.DIDLog)
			}
			if b := blocks[s.Block]; r.BlockHash != b.Hash || b.Txs[r.Index].Hash != r.TxHash {
				t.Errorf("receipt in block %s at %d, the block is %s", r.BlockHash, r.Index, b.Hash)
			}
		})
	}
}

// batchServer answers every HTTP request with answer, given the batch's
// requests.
func batchServer(t *testing.T, answer func(reqs []map[string]any) any) string {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var reqs []map[string]any
		if err := json.Unmarshal(b, &reqs); err != nil {
			t.Errorf("not a batch: %s", b)
		}
		json.NewEncoder(w).Encode(answer(reqs))
	}))
	t.Cleanup(s.Close)
	return s.URL
}

func reply(req map[string]any, result any) map[string]any {
	return map[string]any{"jsonrpc": "2.0", "id": req["id"], "result": result}
}

func txBlock(n uint64) map[string]any {
	return map[string]any{"number": fmt.Sprintf("%#x", n), "hash": hash(n), "parentHash": hash(n - 1), "timestamp": "0x60cb7400", "transactions": []any{}}
}

// errAny stands for any error in a table.
var errAny = errors.New("any error")

// TestBatchAnswers checks what the client takes from a batch's answer:
// the answers in any order, the list cut at the first block the node
// lacks, and refusals of answers that do not answer each request once.
func TestBatchAnswers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		answer  func(reqs []map[string]any) any
		want    int   // blocks returned
		wantErr error // an UnreachableError, wrapping this one if not errAny
		wantRPC int
	}{
		{"reversed", func(reqs []map[string]any) any {
			out := []any{}
			for i := len(reqs) - 1; i >= 0; i-- {
				n := uint64(5 + i)
				out = append(out, reply(reqs[i], txBlock(n)))
			}
			return out
		}, 4, nil, 0},
		{"past the head", func(reqs []map[string]any) any {
			out := []any{reply(reqs[0], txBlock(5)), reply(reqs[1], txBlock(6))}
			for _, r := range reqs[2:] {
				out = append(out, reply(r, nil))
			}
			return out
		}, 2, nil, 0},
		{"an element missing", func(reqs []map[string]any) any {
			return []any{reply(reqs[0], txBlock(5))}
		}, 0, eid.ErrWrongID, 0},
		{"an element twice", func(reqs []map[string]any) any {
			return []any{reply(reqs[0], txBlock(5)), reply(reqs[0], txBlock(5)), reply(reqs[2], txBlock(7)), reply(reqs[3], txBlock(8))}
		}, 0, eid.ErrWrongID, 0},
		{"not a list", func(reqs []map[string]any) any {
			return map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32600, "message": "empty batch"}}
		}, 0, eid.ErrNotJSONRPC, 0},
		{"an element's error", func(reqs []map[string]any) any {
			out := []any{}
			for i, r := range reqs {
				out = append(out, reply(r, txBlock(uint64(5+i))))
			}
			out[2] = map[string]any{"jsonrpc": "2.0", "id": reqs[2]["id"], "error": map[string]any{"code": -32000, "message": "header not found"}}
			return out
		}, 0, nil, -32000},
		{"another block", func(reqs []map[string]any) any {
			out := []any{}
			for _, r := range reqs {
				out = append(out, reply(r, txBlock(9)))
			}
			return out
		}, 0, errAny, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{batchServer(t, tc.answer)}}, Budget: -1, Retries: -1})
			if err != nil {
				t.Fatal(err)
			}
			blocks, err := c.Blocks(context.Background(), 5, 4)
			var rpc *client.RPCError
			switch {
			case tc.wantRPC != 0:
				if !errors.As(err, &rpc) || rpc.Code != tc.wantRPC {
					t.Fatalf("error %v, want RPC error %d", err, tc.wantRPC)
				}
			case tc.wantErr != nil:
				var ue *client.UnreachableError
				if !errors.As(err, &ue) || (tc.wantErr != errAny && !errors.Is(err, tc.wantErr)) {
					t.Fatalf("error %v, want %v", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case len(blocks) != tc.want:
				t.Fatalf("%d blocks, want %d", len(blocks), tc.want)
			}
			for i, b := range blocks {
				if b.Number != uint64(5+i) || b.Hash != hash(b.Number) {
					t.Errorf("block %d is %d %s", i, b.Number, b.Hash)
				}
			}
		})
	}
}

// TestBatchBudget checks that a batch counts each of its requests
// against the budget: a batch within the burst goes at once, a larger one
// waits for the rate, and one the rate cannot allow before the call's
// deadline is refused without being sent.
func TestBatchBudget(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int
		wantSent bool
		atLeast  time.Duration
	}{
		{"within the burst", 10, true, 0},
		{"past the burst", 30, true, 150 * time.Millisecond}, // 20 more at 100 a second
		{"past the deadline", 100, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sent := 0
			url := batchServer(t, func(reqs []map[string]any) any {
				sent++
				out := []any{}
				for i, r := range reqs {
					out = append(out, reply(r, txBlock(uint64(1+i))))
				}
				return out
			})
			c, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{url}}, Budget: 100, Burst: 10, CallTimeout: 500 * time.Millisecond, Retries: -1})
			if err != nil {
				t.Fatal(err)
			}
			start := time.Now()
			blocks, err := c.Blocks(context.Background(), 1, tc.n)
			took := time.Since(start)
			if (sent == 1) != tc.wantSent || (err == nil) != tc.wantSent {
				t.Fatalf("%d requests sent, error %v", sent, err)
			}
			if !tc.wantSent && !errors.Is(err, eid.ErrBudget) {
				t.Errorf("error %v, want the budget's", err)
			}
			if tc.wantSent && (len(blocks) != tc.n || took < tc.atLeast) {
				t.Errorf("%d blocks in %v, want %d after at least %v", len(blocks), took, tc.n, tc.atLeast)
			}
		})
	}
}
