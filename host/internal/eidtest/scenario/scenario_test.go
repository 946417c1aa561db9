package scenario

import (
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// TestCastDocuments checks what the scenario sends without a node: each
// actor's DID is the same on every run, its documents verify, and dave's
// carries #key2 as an authentication key, which signs his update.
func TestCastDocuments(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	c, again := newCast(), newCast()
	for i, a := range c.all() {
		t.Run(a.name, func(t *testing.T) {
			if a.did != again.all()[i].did {
				t.Errorf("DID %s, then %s", a.did, again.all()[i].did)
			}
			doc, err := a.document(now, now.AddDate(1, 0, 0), 3)
			if err != nil {
				t.Fatal(err)
			}
			if err := doc.VerifyProofs(keys.Native{}, did.NewDocuments(doc)); err != nil {
				t.Errorf("document proof: %v", err)
			}
			key2 := did.URL{DID: a.did, Fragment: "key2"}
			if got := doc.IsAuthentication(key2); got != (a.second != nil) {
				t.Errorf("#key2 an authentication key: %v", got)
			}
			if a.second == nil {
				return
			}
			a.last = strings.Repeat("ab", 32)
			r, err := idop.NewUpdate(doc, a.last, key2, a.second)
			if err != nil {
				t.Fatal(err)
			}
			sig, _ := keys.ParseSignatureText(r.Proof.Signature)
			if !(keys.Native{}).Verify(a.second.Public(), r.Digest(), sig) {
				t.Error("the update's signature by #key2 does not verify")
			}
		})
	}
}

func TestFlipByte(t *testing.T) {
	k := seededKey("flip")
	text := k.Sign([32]byte{1}).Text()
	flipped, err := flipByte(text)
	if err != nil || flipped == text || len(flipped) != len(text) {
		t.Fatalf("%q -> %q, %v", text, flipped, err)
	}
	if _, err := flipByte("not base64!"); err == nil {
		t.Error("no error for a signature that is not base64")
	}
}

func TestStepsUntil(t *testing.T) {
	m := &Manifest{
		Steps:       []Step{{Name: "a", Subject: "x", Accepted: true}, {Name: "b", Subject: "x"}, {Name: "c", Subject: "x", Accepted: true}},
		Checkpoints: []Checkpoint{{Name: "one", AfterStep: "a"}, {Name: "two", AfterStep: "c"}, {Name: "bad", AfterStep: "z"}},
	}
	for _, tc := range []struct {
		checkpoint string
		steps      int
		accepted   int
		err        string
	}{
		{"one", 1, 1, ""},
		{"two", 3, 2, ""},
		{"bad", 0, 0, "follows step z"},
		{"none", 0, 0, `no checkpoint "none"`},
	} {
		t.Run(tc.checkpoint, func(t *testing.T) {
			got, err := m.StepsUntil(tc.checkpoint)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || len(got.Steps) != tc.steps || len(got.Accepted("x")) != tc.accepted || got.Checkpoints[len(got.Checkpoints)-1].Name != tc.checkpoint {
				t.Errorf("%d steps, %d accepted, %v; want %d, %d", len(got.Steps), len(got.Accepted("x")), err, tc.steps, tc.accepted)
			}
		})
	}
}
