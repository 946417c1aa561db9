package eid

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/did"
)

// The DID reads, as the published DID SDKs send them: the method's params
// as a list holding one object, its members in the SDKs' order and left
// out at their defaults
// (Elastos.DID.JS.SDK src/backend/didresolverequest.ts,
// credentialresolverequest.ts, credentiallistrequest.ts). The results are
// returned raw, as core/resolve reads them to verify them.

// ResolveDID calls did_resolveDID: the DID's newest operation, or every
// one when all is true.
func (c *Client) ResolveDID(ctx context.Context, d did.DID, all bool) (json.RawMessage, error) {
	if d.IsZero() {
		return nil, errors.New("eid: ResolveDID of the zero DID")
	}
	p := struct {
		DID string `json:"did"`
		All bool   `json:"all,omitempty"`
	}{d.String(), all}
	return c.call(ctx, "did_resolveDID", d.String(), []any{p}, object)
}

// ResolveCredential calls did_resolveCredential: the declare and revoke
// operations of the credential id; a nil issuer is left out.
func (c *Client) ResolveCredential(ctx context.Context, id did.URL, issuer *did.DID) (json.RawMessage, error) {
	if id.DID.IsZero() || id.Fragment == "" {
		return nil, errors.New("eid: ResolveCredential of an id without a DID or fragment")
	}
	p := struct {
		ID     string `json:"id"`
		Issuer string `json:"issuer,omitempty"`
	}{ID: id.String()}
	if issuer != nil && !issuer.IsZero() {
		p.Issuer = issuer.String()
	}
	return c.call(ctx, "did_resolveCredential", id.String(), []any{p}, object)
}

// ListCredentials calls did_listCredentials: the ids of the credentials
// declared about d, newest first, skip and limit left out when 0 (EID then
// answers at most 128, and never more than 256).
func (c *Client) ListCredentials(ctx context.Context, d did.DID, skip, limit int) (json.RawMessage, error) {
	switch {
	case d.IsZero():
		return nil, errors.New("eid: ListCredentials of the zero DID")
	case skip < 0 || limit < 0:
		return nil, fmt.Errorf("eid: ListCredentials of %s: negative skip %d or limit %d", d, skip, limit)
	}
	p := struct {
		DID   string `json:"did"`
		Skip  int    `json:"skip,omitempty"`
		Limit int    `json:"limit,omitempty"`
	}{d.String(), skip, limit}
	return c.call(ctx, "did_listCredentials", d.String(), []any{p}, object)
}
