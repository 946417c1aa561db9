package idop

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
)

// ValidateMigrated checks what EID checked in its migration window: the
// signature by an authentication key, and the DID's existence; not the
// previousTxid nor the document's proofs.
func TestValidateMigrated(t *testing.T) {
	f := newFixture(t)
	build := decoded(t)
	create := build(NewCreate(f.doc, f.key, f.priv))
	wrongLink := build(NewUpdate(f.doc, txid1, f.key, f.priv))
	unproved := build(NewCreate(proofless(t, f.doc), f.key, f.priv))
	forged := build(flipped(create.Request), nil)
	foobar := transferOf(t, "foobar")
	customized := build(NewCreate(foobar.current, url(t, user1Primary), privateKey(t, "user1.id.primary")))
	deactivate := build(NewDeactivate(f.doc.Subject(), f.key, f.priv))
	live := &State{Document: f.doc, Txid: strings.Repeat("ab", 32)}
	for _, tc := range []struct {
		name string
		op   *Op
		st   *State
		rule Rule
	}{
		{"create", create, nil, ""},
		{"update naming another transaction", wrongLink, live, ""},
		{"update, detached", wrongLink, nil, ""},
		{"create whose document has no proof", unproved, nil, ""},
		{"create of an existing DID", create, live, RuleCreateExists},
		{"update of a deactivated DID", wrongLink, &State{Document: f.doc, Txid: live.Txid, Deactivated: true}, RuleDeactivated},
		{"signed by another key", forged, nil, RuleSignature},
		{"customized DID", customized, nil, RuleCustomized},
		{"deactivate", deactivate, live, RuleUnsupported},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.rule == "" && Validate(tc.op, tc.st, nil, keys.Native{}, blockTime) == nil && tc.name != "create" {
				t.Fatal("Validate accepts it too: the case shows nothing")
			}
			err := ValidateMigrated(tc.op, tc.st, nil, keys.Native{})
			if RuleOf(err) != tc.rule || (tc.rule == "") != (err == nil) {
				t.Fatalf("error %v, want rule %q", err, tc.rule)
			}
		})
	}
}

// flipped returns r with a byte of its signature flipped.
func flipped(r Request) Request {
	sig, _ := keys.DecodeBase64(r.Proof.Signature)
	sig[5] ^= 1
	r.Proof.Signature = base64.RawURLEncoding.EncodeToString(sig)
	return r
}

// proofless returns doc without its proof, signed by nobody: a document
// Validate refuses and EID's migration window took.
func proofless(t *testing.T, doc *did.Document) *did.Document {
	t.Helper()
	return editDoc(t, doc, func(m map[string]any) { delete(m, "proof") })
}
