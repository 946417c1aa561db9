package idop

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

func seedRequests(f *testing.F) {
	var v struct{ Operation json.RawMessage }
	if err := json.Unmarshal(vectors.Read("idchain/create-op-mainnet-format.json"), &v); err != nil {
		f.Fatal(err)
	}
	f.Add([]byte(v.Operation))
	fx := newFixture(f)
	foobar := transferOf(f, "foobar")
	twitter := sdkCredential(f, "user1.vc.twitter")
	user1 := privateKey(f, "user1.id.primary")
	for _, r := range []func() (Request, error){
		func() (Request, error) { return NewCreate(fx.doc, fx.key, fx.priv) },
		func() (Request, error) { return NewUpdate(fx.doc, txid1, fx.key, fx.priv) },
		func() (Request, error) { return NewDeactivate(fx.doc.Subject(), fx.key, fx.priv) },
		func() (Request, error) {
			return NewTransfer(foobar.next, foobar.ticket, url(f, user4Primary), privateKey(f, "user4.id.primary"))
		},
		func() (Request, error) { return NewDeclare(twitter, url(f, user1Primary), user1) },
		func() (Request, error) { return NewRevoke(twitter.ID, url(f, user1Primary), user1) },
	} {
		req, err := r()
		if err != nil {
			f.Fatal(err)
		}
		f.Add(req.AppendJSON(nil))
	}
}

// FuzzParseRequest checks that what parses writes back to the same request.
func FuzzParseRequest(f *testing.F) {
	seedRequests(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRequest(b)
		if err != nil {
			if RuleOf(err) != RuleMalformed {
				t.Fatalf("error without rule %s: %v", RuleMalformed, err)
			}
			return
		}
		back, err := ParseRequest(r.AppendJSON(nil))
		if err != nil || back != r {
			t.Fatalf("round trip: %+v, %v; want %+v", back, err, r)
		}
	})
}

// FuzzDecode checks that decoding and validating any request never panics
// and fails only with a rule.
func FuzzDecode(f *testing.F) {
	seedRequests(f)
	docs := sdkDocs(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := ParseRequest(b)
		if err != nil {
			return
		}
		op, err := Decode(r)
		if err != nil {
			if RuleOf(err) == "" {
				t.Fatalf("error without a rule: %v", err)
			}
			return
		}
		validate := Validate
		if op.Request.Header.Specification == SpecCredential {
			validate = func(op *Op, _ *State, docs did.Lookup, v keys.Verifier, now time.Time) error {
				return ValidateCredential(op, nil, docs, v, now)
			}
		}
		if err := validate(op, nil, docs, keys.Native{}, early); err != nil && RuleOf(err) == "" {
			t.Fatalf("error without a rule: %v", err)
		}
	})
}
