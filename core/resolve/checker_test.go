package resolve

import (
	"errors"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// A Checker grants the waivers its Waive gives: the waived transaction is
// checked again without what the waiver exempts, and the result says so.
func TestCheckerWaivers(t *testing.T) {
	c := newChain(t, 2, false)
	relinked := append([]Entry(nil), c.entries...)
	r, err := idop.NewUpdate(c.docAt(t, 1), txid(7), c.key, c.priv) // names a transaction not in the history
	if err != nil {
		t.Fatal(err)
	}
	relinked[1] = entry(t, r, txid(1), 101, 1, t0.AddDate(0, 0, 1))
	expired := newChain(t, 0, false)
	r, err = idop.NewUpdate(expired.docAt(t, 0), txid(0), expired.key, expired.priv)
	if err != nil {
		t.Fatal(err)
	}
	expired.entries = append(expired.entries, entry(t, r, txid(1), 101, 1, t0.AddDate(2, 0, 0))) // republishes a document expired a year before
	at := t0.AddDate(0, 0, 10)
	for _, tc := range []struct {
		name  string
		h     []Entry
		now   int64
		grant Waiver
		want  []Waiver // nil: every check made
		rule  idop.Rule
	}{
		{"nothing to waive", c.entries, at.Unix(), WaiveMigrated, nil, ""},
		{"broken link, not waived", relinked, at.Unix(), WaiveNone, nil, idop.RulePreviousTxid},
		{"broken link, migrated", relinked, at.Unix(), WaiveMigrated, []Waiver{WaiveNone, WaiveMigrated, WaiveNone}, ""},
		{"broken link, expiry waived only", relinked, at.Unix(), WaiveExpiry, nil, idop.RulePreviousTxid},
		{"expired document, expiry waived", expired.entries, t0.AddDate(2, 0, 1).Unix(), WaiveExpiry, []Waiver{WaiveExpiry, WaiveNone}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := DialectEID.Result(c.subject, tc.h, true, tc.now)
			if err != nil {
				t.Fatal(err)
			}
			var asked []string
			ck := Checker{Dialect: DialectEID, Verifier: keys.Native{}, Waive: func(b Broken) (Waiver, error) {
				asked = append(asked, string(idop.RuleOf(b.Err)))
				return tc.grant, nil
			}}
			v, err := ck.Verify(b, time.Unix(tc.now, 0))
			if tc.rule != "" {
				var ve *VerifyError
				if !errors.As(err, &ve) || ve.Rule != tc.rule {
					t.Fatalf("error %v, want rule %s", err, tc.rule)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equalWaivers(v.Waivers, tc.want) {
				t.Errorf("waivers %v, want %v (asked about %v)", v.Waivers, tc.want, asked)
			}
		})
	}
	// A waiver does not excuse a broken signature.
	forged := append([]Entry(nil), relinked...)
	forged[1].Request.Proof.Signature = forged[0].Request.Proof.Signature
	b, _ := DialectEID.Result(c.subject, forged, true, at.Unix())
	ck := Checker{Dialect: DialectEID, Verifier: keys.Native{}, Waive: func(Broken) (Waiver, error) { return WaiveMigrated, nil }}
	var ve *VerifyError
	if _, err := ck.Verify(b, at); !errors.As(err, &ve) || ve.Rule != idop.RuleSignature || ve.Index != 1 {
		t.Errorf("forged signature, migrated: %v, want rule %s at 1", err, idop.RuleSignature)
	}
}

// docAt returns the document entry i publishes.
func (c *chain) docAt(t *testing.T, i int) *did.Document {
	t.Helper()
	op, err := idop.Decode(c.entries[i].Request)
	if err != nil {
		t.Fatal(err)
	}
	return op.Document
}

func equalWaivers(a, b []Waiver) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
