package eid

import (
	"bytes"
	"errors"
	"testing"

	"github.com/didlight/didlight/core/w3c"
)

// W3C DID Resolution of an EID answer: the verified history feeds
// core/w3c as a didlight node's does, and a history EID answered without
// all cannot.
func TestW3CFromEID(t *testing.T) {
	h, subject := standard(t, 2, false)
	gone, _ := standardOf(t, "user1", 1, true)
	e := env(t)
	for _, tc := range []struct {
		name   string
		h      history
		did    string
		all    bool
		status int
		body   string
	}{
		{"valid", h, subject.String(), true, 200, `"id":"` + subject.String() + `"`},
		{"deactivated", gone, "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", true, 410, `"deactivated":true`},
		{"not found", nil, "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", true, 404, "#NOT_FOUND"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := VerifyDID(eidAnswer(t, tc.h, tc.did, tc.all), Request{tc.did, tc.all}, e)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := w3c.ResolveChecked(w3c.ParseRequest(tc.did, "", "application/did-resolution"), r.Verified, e.Now)
			if err != nil {
				t.Fatal(err)
			}
			if resp.Status != tc.status || !bytes.Contains(resp.Body, []byte(tc.body)) {
				t.Errorf("status %d, body %s", resp.Status, resp.Body)
			}
		})
	}
	r, err := VerifyDID(eidAnswer(t, h, subject.String(), false), Request{subject.String(), false}, e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w3c.ResolveChecked(w3c.ParseRequest(subject.String(), "", ""), r.Verified, e.Now); !errors.Is(err, w3c.ErrIncomplete) {
		t.Errorf("all=false: %v, want ErrIncomplete", err)
	}
}
