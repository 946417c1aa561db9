package abi

import (
	"encoding/json"
	"time"

	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/w3c"
)

// ResolveW3CEIDInput is the input of resolve_w3c_eid.
type ResolveW3CEIDInput struct {
	// Answer is an EID node's did_resolveDID answer for the DID with
	// all=true. A request that cannot be answered (not a did:elastos DID,
	// a malformed one or options) is answered with its W3C error at once:
	// it needs neither Answer nor Now nor ChainID.
	Answer json.RawMessage `json:"answer,omitempty"`
	// DID, Options and Accept are as for resolve_w3c.
	DID     string `json:"did"`
	Options string `json:"options,omitempty"`
	Accept  string `json:"accept,omitempty"`
	// Now, ChainID, DIDs and Transactions are as for verify_eid_did.
	Now          time.Time         `json:"now"`
	ChainID      uint64            `json:"chainId"`
	DIDs         []FetchedDID      `json:"dids,omitempty"`
	Transactions []json.RawMessage `json:"transactions,omitempty"`
}

func (*ResolveW3CEIDInput) typeName() string { return "abi.ResolveW3CEIDInput" }

func (in *ResolveW3CEIDInput) member(d *decoder) bool {
	if d.field("answer") {
		d.raw(&in.Answer)
		return true
	}
	return w3cMember(d, &in.DID, &in.Options, &in.Accept) || fetchedMember(d, &in.Now, &in.ChainID, &in.DIDs, &in.Transactions)
}

// EIDW3CAnswer is the output of resolve_w3c_eid: resolve_w3c's answer,
// and the report of the verification it was built from (absent when the
// request itself was answered with an error).
type EIDW3CAnswer struct {
	W3CAnswer
	Report *Report `json:"report,omitempty"`
}

func (a EIDW3CAnswer) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	a.W3CAnswer.members(&o)
	if a.Report != nil {
		o.Value("report", a.Report.appendJSON)
	}
	return o.End()
}

// ResolveW3CEID runs resolve_w3c_eid: the W3C DID Resolution answer
// (w3c.ResolveChecked) built from an EID answer verified as
// verify_eid_did verifies it.
func ResolveW3CEID(in []byte, env Env) []byte { return run(in, env, resolveW3CEID) }

func resolveW3CEID(in *ResolveW3CEIDInput, env Env) (EIDW3CAnswer, error) {
	if err := required("did", in.DID == ""); err != nil {
		return EIDW3CAnswer{}, err
	}
	req := w3c.ParseRequest(in.DID, in.Options, in.Accept)
	subject, ok := req.DID()
	if !ok {
		resp, err := w3c.Resolve(req, w3c.History{}, w3c.Tip{})
		return EIDW3CAnswer{W3CAnswer: w3cAnswer(resp)}, err
	}
	if err := required("answer", len(in.Answer) == 0); err != nil {
		return EIDW3CAnswer{}, err
	}
	f, err := fetched(in.Now, in.ChainID, in.DIDs, in.Transactions, env)
	if err != nil {
		return EIDW3CAnswer{}, err
	}
	r, err := f.VerifyDID(in.Answer, eid.Request{DID: subject.String(), All: true})
	if err != nil {
		return EIDW3CAnswer{}, err
	}
	resp, err := w3c.ResolveChecked(req, r.Verified, in.Now)
	if err != nil {
		return EIDW3CAnswer{}, err
	}
	report := reportOf(r.Report)
	return EIDW3CAnswer{W3CAnswer: w3cAnswer(resp), Report: &report}, nil
}
