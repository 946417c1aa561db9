package eidindex

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
)

// recorded is the chain a real EID node made running the recorded
// scenario, as an index is fed it: its blocks with the operations their
// receipts' didLog carry, and the answers the node gave at each checkpoint.
type recorded struct {
	blocks      []*eidsync.Block // by number, from 0
	manifest    *scenario.Manifest
	checkpoints map[string][]eidtest.Exchange
	refusedAt   map[uint64]int // block → how many operations EID refused in it were fed (see load)
}

// loadRecorded builds the blocks from the recording: each block's number,
// hash, parent and time as the node answered eth_getBlockByNumber, and the
// operations of the steps the node accepted, as their receipts give them.
// The operations the node refused that decode and do not need the ELA
// main chain (customized DIDs, which a private EID chain refuses for their
// names) are fed too, as a node that skipped EID's checks would have
// recorded them: the index must refuse each.
func loadRecorded(t testing.TB) *recorded {
	t.Helper()
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	r := &recorded{manifest: rec.Manifest, checkpoints: rec.Checkpoints, refusedAt: map[uint64]int{}}
	var customized string
	for _, d := range rec.Manifest.DIDs {
		if d.Name == "customized" {
			customized = d.DID
		}
	}
	for _, x := range rec.Chain {
		n, ok := strings.CutPrefix(x.Note, "block ")
		if !ok || !strings.HasSuffix(n, " with its transactions") {
			continue
		}
		var resp struct {
			Result struct{ Number, Hash, ParentHash, Timestamp string }
		}
		if err := json.Unmarshal(x.Response, &resp); err != nil {
			t.Fatal(err)
		}
		b := &eidsync.Block{Number: quantity(t, resp.Result.Number), Hash: hash(t, resp.Result.Hash),
			Parent: hash(t, resp.Result.ParentHash), Time: quantity(t, resp.Result.Timestamp)}
		r.blocks = append(r.blocks, b)
	}
	slices.SortFunc(r.blocks, func(a, b *eidsync.Block) int { return cmp.Compare(a.Number, b.Number) })
	for i, b := range r.blocks {
		if b.Number != uint64(i) {
			t.Fatalf("the recording has block %d at place %d", b.Number, i)
		}
	}
	for _, s := range rec.Manifest.Steps {
		var receipt struct {
			From             string
			TransactionIndex string
			DIDLog           *struct{ Data string } `json:"didLog"`
		}
		if err := json.Unmarshal(s.Receipt, &receipt); err != nil {
			t.Fatalf("step %s: %v", s.Name, err)
		}
		op := eidsync.Op{TxHash: hash(t, s.TxHash), Index: uint32(quantity(t, receipt.TransactionIndex)), From: receipt.From}
		switch {
		case s.Accepted:
			op.Data = receipt.DIDLog.Data
		case s.Operation == "" || s.Subject == customized:
			continue // malformed, or about a customized DID
		default:
			req, err := idop.ParseRequest([]byte(s.Sent))
			if err != nil {
				continue
			}
			o := ela.Operation{Header: ela.OperationHeader(req.Header), Payload: req.Payload, Proof: ela.OperationProof(req.Proof)}
			op.Data = base64.StdEncoding.EncodeToString(o.Bytes())
			r.refusedAt[s.Block]++
		}
		b := r.blocks[s.Block]
		b.Ops = append(b.Ops, op)
		slices.SortFunc(b.Ops, func(x, y eidsync.Op) int { return cmp.Compare(x.Index, y.Index) })
	}
	return r
}

// checkpoint returns the head of the named checkpoint.
func (r *recorded) checkpoint(t testing.TB, name string) uint64 {
	t.Helper()
	for _, c := range r.manifest.Checkpoints {
		if c.Name == name {
			return c.Head
		}
	}
	t.Fatalf("no checkpoint %s", name)
	return 0
}

// refusedUpTo returns how many fed operations EID refused up to block n.
func (r *recorded) refusedUpTo(n uint64) uint64 {
	var sum uint64
	for b, k := range r.refusedAt {
		if b <= n {
			sum += uint64(k)
		}
	}
	return sum
}

func quantity(t testing.TB, s string) uint64 {
	t.Helper()
	n, err := strconv.ParseUint(strings.TrimPrefix(s, "0x"), 16, 64)
	if err != nil {
		t.Fatalf("quantity %q: %v", s, err)
	}
	return n
}

func hash(t testing.TB, s string) eidsync.Hash {
	t.Helper()
	var h eidsync.Hash
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) != len(h) {
		t.Fatalf("hash %q: %v", s, err)
	}
	copy(h[:], b)
	return h
}

// resolveAsked is one did_resolveDID the node was asked at a checkpoint,
// with its answer's result.
type resolveAsked struct {
	note   string
	did    string
	all    bool
	result json.RawMessage
}

// resolves returns the did_resolveDID requests of a checkpoint that name a
// DID in full form, with the results the node gave.
func resolves(t testing.TB, xs []eidtest.Exchange) []resolveAsked {
	t.Helper()
	var out []resolveAsked
	for _, x := range xs {
		var req struct {
			Method string
			Params []struct {
				DID string
				All bool
			}
		}
		var resp struct{ Result json.RawMessage }
		if json.Unmarshal(x.Request, &req) != nil || req.Method != "did_resolveDID" || len(req.Params) != 1 ||
			!strings.HasPrefix(req.Params[0].DID, "did:elastos:") || json.Unmarshal(x.Response, &resp) != nil || resp.Result == nil {
			continue
		}
		if _, err := did.Parse(req.Params[0].DID); err != nil { // a server refuses it before it reads
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, resp.Result); err != nil {
			t.Fatal(err)
		}
		out = append(out, resolveAsked{note: x.Note, did: req.Params[0].DID, all: req.Params[0].All, result: compact.Bytes()})
	}
	if len(out) < 10 {
		t.Fatalf("only %d did_resolveDID answers in the checkpoint", len(out))
	}
	return out
}
