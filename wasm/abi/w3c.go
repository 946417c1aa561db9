package abi

import (
	"encoding/json"
	"time"

	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/w3c"
)

// ResolveW3CInput is the input of resolve_w3c.
type ResolveW3CInput struct {
	// Result is a node's resolvedid answer with the DID's whole history
	// (all=true): the result object or the JSON-RPC response holding it.
	Result json.RawMessage `json:"result"`
	// DID is the DID to resolve or the DID URL to dereference, as DID Core
	// writes it (with its own query and fragment, if any).
	DID string `json:"did"`
	// Options are resolution options given apart from the DID, as an HTTP
	// query string (versionId=…&versionTime=…), form-encoded.
	Options string `json:"options,omitempty"`
	// Accept is the media type asked for, as an HTTP Accept header; empty
	// for the default (the resolution or dereferencing result).
	Accept string `json:"accept,omitempty"`
	// Now is the chain tip's block time, against which expiry is judged.
	Now time.Time `json:"now"`
	// Documents are the current documents of other DIDs the history needs
	// (controllers), which the caller has verified.
	Documents []json.RawMessage `json:"documents,omitempty"`
}

func (*ResolveW3CInput) typeName() string { return "abi.ResolveW3CInput" }

// member reads the members a resolvedid answer's check takes as
// verify_resolve_result reads them, and the request's own.
func (in *ResolveW3CInput) member(d *decoder) bool {
	if w3cMember(d, &in.DID, &in.Options, &in.Accept) {
		return true
	}
	v := VerifyResolveResultInput{Result: in.Result, Now: in.Now, Documents: in.Documents}
	ok := v.member(d)
	in.Result, in.Now, in.Documents = v.Result, v.Now, v.Documents
	return ok
}

// w3cMember reads the members of a W3C request: the DID or DID URL, the
// options and the media type asked for.
func w3cMember(d *decoder, didURL, options, accept *string) bool {
	switch {
	case d.field("did"):
		d.str(didURL)
	case d.field("options"):
		d.str(options)
	case d.field("accept"):
		d.str(accept)
	default:
		return false
	}
	return true
}

// W3CAnswer is the output of resolve_w3c: the answer of the W3C DID
// Resolution HTTP(S) binding, as the node's GET /1.0/identifiers/{did}
// sends it (but for block heights, which a resolve result does not give).
type W3CAnswer struct {
	Status      int    `json:"status"`                // the binding's HTTP status
	ContentType string `json:"contentType,omitempty"` // the media type of Body
	Location    string `json:"location,omitempty"`    // the service endpoint a 303 redirects to
	// Body is the answer: the resolution or dereferencing result, or the
	// document or entry alone; absent for a 303.
	Body json.RawMessage `json:"body,omitempty"`
}

func (a W3CAnswer) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	a.members(&o)
	return o.End()
}

func (a W3CAnswer) members(o *jsontext.Object) {
	o.Int("status", int64(a.Status))
	o.StringOmit("contentType", a.ContentType)
	o.StringOmit("location", a.Location)
	o.RawOmit("body", a.Body)
}

// w3cAnswer is the output a W3C response makes.
func w3cAnswer(resp w3c.Response) W3CAnswer {
	return W3CAnswer{Status: resp.Status, ContentType: resp.ContentType, Location: resp.Location, Body: resp.Body}
}

// ResolveW3C runs resolve_w3c: w3c.ResolveVerified, the answer a W3C DID
// resolver gives, built from a history the call verifies first.
func ResolveW3C(in []byte, env Env) []byte { return run(in, env, resolveW3C) }

func resolveW3C(in *ResolveW3CInput, env Env) (W3CAnswer, error) {
	for _, m := range []struct {
		name   string
		absent bool
	}{{"result", len(in.Result) == 0}, {"did", in.DID == ""}, {"now", in.Now.IsZero()}} {
		if err := required(m.name, m.absent); err != nil {
			return W3CAnswer{}, err
		}
	}
	req := w3c.ParseRequest(in.DID, in.Options, in.Accept)
	docs, err := env.lookup(in.Documents)
	if err != nil {
		return W3CAnswer{}, err
	}
	resp, err := w3c.ResolveVerified(req, in.Result, docs, env.verifier(), in.Now)
	if err != nil {
		return W3CAnswer{}, err
	}
	return w3cAnswer(resp), nil
}
