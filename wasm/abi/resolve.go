package abi

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/resolve"
)

// VerifyResolveResultInput is the input of verify_resolve_result.
type VerifyResolveResultInput struct {
	// Result is the resolvedid result object, or the whole JSON-RPC
	// response holding it, as a node answered.
	Result json.RawMessage `json:"result"`
	// Now is the reference time the claimed status is judged at (expiry).
	Now time.Time `json:"now"`
	// Documents are the current documents of other DIDs the history needs
	// (controllers), which the caller has verified.
	Documents []json.RawMessage `json:"documents,omitempty"`
}

func (*VerifyResolveResultInput) typeName() string { return "abi.VerifyResolveResultInput" }

func (in *VerifyResolveResultInput) member(d *decoder) bool {
	switch {
	case d.field("result"):
		d.raw(&in.Result)
	case d.field("now"):
		d.time(&in.Now)
	case d.field("documents"):
		d.raws(&in.Documents)
	default:
		return false
	}
	return true
}

// VerifiedResult is the output of verify_resolve_result: what the result
// proves.
type VerifiedResult struct {
	DID        string `json:"did"`
	Status     int    `json:"status"`     // 0 valid, 1 expired, 2 deactivated, 3 not found
	StatusName string `json:"statusName"` // "valid", "expired", "deactivated", "not found"
	// Txid is the transaction of Document, the latest document (normalized);
	// both absent for a DID that does not exist.
	Txid     string          `json:"txid,omitempty"`
	Document json.RawMessage `json:"document,omitempty"`
	// Complete: the transactions begin with the DID's create, so every
	// link of the history was checked.
	Complete bool `json:"complete"`
}

func (v VerifiedResult) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	v.members(&o)
	return o.End()
}

func (v VerifiedResult) members(o *jsontext.Object) {
	o.String("did", v.DID)
	o.Int("status", int64(v.Status))
	o.String("statusName", v.StatusName)
	o.StringOmit("txid", v.Txid)
	o.RawOmit("document", v.Document)
	o.Bool("complete", v.Complete)
}

// verifiedResult is what a verified history proves.
func verifiedResult(v *resolve.Verified) VerifiedResult {
	out := VerifiedResult{DID: v.DID.String(), Status: int(v.Status), StatusName: v.Status.String(), Txid: v.Txid, Complete: v.Complete}
	if v.Document != nil {
		out.Document = v.Document.Normalized()
	}
	return out
}

// VerifyResolveResult runs verify_resolve_result: resolve.Verify.
func VerifyResolveResult(in []byte, env Env) []byte { return run(in, env, verifyResolveResult) }

func verifyResolveResult(in *VerifyResolveResultInput, env Env) (VerifiedResult, error) {
	if err := required("result", len(in.Result) == 0); err != nil {
		return VerifiedResult{}, err
	}
	if err := required("now", in.Now.IsZero()); err != nil {
		return VerifiedResult{}, err
	}
	docs, err := env.lookup(in.Documents)
	if err != nil {
		return VerifiedResult{}, err
	}
	v, err := resolve.Verify(in.Result, docs, env.verifier(), in.Now)
	if err != nil {
		return VerifiedResult{}, err
	}
	return verifiedResult(v), nil
}

// StatusOfInput is the input of status_of.
type StatusOfInput struct {
	// History is the DID's operations, in any order. A resolve result's
	// transaction array is a history.
	History []HistoryEntry `json:"history"`
	// Tip is the block time of the chain tip, against which expiry is
	// judged.
	Tip time.Time `json:"tip"`
}

func (*StatusOfInput) typeName() string { return "abi.StatusOfInput" }

func (in *StatusOfInput) member(d *decoder) bool {
	switch {
	case d.field("history"):
		list(d, &in.History, "[]abi.HistoryEntry", func(e *HistoryEntry) { d.object(e) })
	case d.field("tip"):
		d.time(&in.Tip)
	default:
		return false
	}
	return true
}

// HistoryEntry is one operation of a DID's history: a resolve result's
// transaction element, with its block height and position in the block
// when known (they order operations of the same second).
type HistoryEntry struct {
	Txid      string          `json:"txid"`
	Timestamp time.Time       `json:"timestamp"`
	Operation json.RawMessage `json:"operation"`
	Height    uint32          `json:"height,omitempty"`
	Position  int             `json:"position,omitempty"`
}

func (*HistoryEntry) typeName() string { return "abi.HistoryEntry" }

func (e *HistoryEntry) member(d *decoder) bool {
	switch {
	case d.field("txid"):
		d.str(&e.Txid)
	case d.field("timestamp"):
		d.time(&e.Timestamp)
	case d.field("operation"):
		d.raw(&e.Operation)
	case d.field("height"):
		var n int64
		d.integer(&n, "uint32", 32, true)
		e.Height = uint32(n)
	case d.field("position"):
		var n int64
		d.integer(&n, "int", 64, false)
		e.Position = int(n)
	default:
		return false
	}
	return true
}

// Status is the output of status_of.
type Status struct {
	Status     int    `json:"status"`
	StatusName string `json:"statusName"`
}

func (s Status) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.Int("status", int64(s.Status))
	o.String("statusName", s.StatusName)
	return o.End()
}

// StatusOf runs status_of: resolve.StatusOf.
func StatusOf(in []byte, env Env) []byte { return run(in, env, statusOf) }

func statusOf(in *StatusOfInput, _ Env) (Status, error) {
	if err := required("tip", in.Tip.IsZero()); err != nil {
		return Status{}, err
	}
	h := make([]resolve.Entry, len(in.History))
	for i, e := range in.History {
		if err := required(fmt.Sprintf("history[%d].timestamp", i), e.Timestamp.IsZero()); err != nil {
			return Status{}, err
		}
		r, err := idop.ParseRequest(e.Operation)
		if err != nil {
			return Status{}, fmt.Errorf("abi: history[%d]: %w", i, err)
		}
		op, err := idop.Decode(r)
		if err != nil {
			return Status{}, fmt.Errorf("abi: history[%d]: %w", i, err)
		}
		h[i] = resolve.NewEntry(op, e.Txid, e.Height, e.Position, e.Timestamp.Unix())
	}
	s, err := resolve.StatusOf(h, in.Tip.Unix())
	if err != nil {
		return Status{}, err
	}
	return Status{Status: int(s), StatusName: s.String()}, nil
}
