package eid

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
)

// EID's answers verify: every shape ResolveDID gives, for standard and
// customized DIDs, asked in full form, bare, or (customized) in another
// case.
func TestVerifyDIDAccepts(t *testing.T) {
	h, subject := standard(t, 2, false)
	gone, _ := standard(t, 1, true)
	fb := foobar(t)
	e := env(t)
	late := e
	late.Now = t0.AddDate(5, 0, 0) // every document has expired: EID still says 0
	for _, tc := range []struct {
		name     string
		answer   []byte
		req      Request
		env      Env
		status   resolve.Status
		n        int
		complete bool
		checked  []Claim
		trusted  []Claim
	}{
		{"all", eidAnswer(t, h, subject.String(), true), Request{subject.String(), true}, e, resolve.Valid, 3, true,
			[]Claim{CheckedSignatures, CheckedLinks, CheckedDocProofs, CheckedKeyDerivation, CheckedStatus}, []Claim{TrustedInclusion, TrustedBlockTime, TrustedNewest}},
		{"latest", eidAnswer(t, h, subject.String(), false), Request{subject.String(), false}, e, resolve.Valid, 1, false,
			[]Claim{CheckedSignatures}, []Claim{TrustedHistory}},
		{"asked bare", eidAnswer(t, h, subject.ID(), false), Request{subject.ID(), false}, e, resolve.Valid, 1, false, nil, nil},
		{"expired, all", eidAnswer(t, h, subject.String(), true), Request{subject.String(), true}, late, resolve.Valid, 3, true, nil, nil},
		{"deactivated, latest", eidAnswer(t, gone, subject.String(), false), Request{subject.String(), false}, e, resolve.Deactivated, 2, false, nil, nil},
		{"deactivated, all", eidAnswer(t, gone, subject.String(), true), Request{subject.String(), true}, e, resolve.Deactivated, 3, true, nil, nil},
		{"not found", eidAnswer(t, nil, subject.String(), true), Request{subject.String(), true}, e, resolve.NotFound, 0, false,
			[]Claim{CheckedAnswer}, []Claim{TrustedNotFound}},
		{"not found, asked bare", eidAnswer(t, nil, subject.ID(), false), Request{subject.ID(), false}, e, resolve.NotFound, 0, false, nil, nil},
		{"customized, all", eidAnswer(t, fb, "did:elastos:foobar", true), Request{"did:elastos:foobar", true}, e, resolve.Valid, 3, true,
			[]Claim{CheckedTickets, CheckedControllers, CheckedLinks}, []Claim{TrustedNames, TrustedController}},
		{"customized, asked in capitals", eidAnswer(t, fb, "did:elastos:FOOBAR", false), Request{"did:elastos:FOOBAR", false}, e, resolve.Valid, 1, false, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := VerifyDID(tc.answer, tc.req, tc.env)
			if err != nil {
				t.Fatal(err)
			}
			if r.Expired != (tc.env.Now == late.Now) {
				t.Errorf("expired %v at %s", r.Expired, tc.env.Now)
			}
			if r.Status != tc.status || len(r.History) != tc.n || r.Complete != tc.complete {
				t.Errorf("status %v, %d transactions, complete %v; want %v, %d, %v", r.Status, len(r.History), r.Complete, tc.status, tc.n, tc.complete)
			}
			want := OutcomeVerified
			if tc.status == resolve.NotFound {
				want = OutcomeNothing
			}
			if r.Report.Outcome != want || len(r.Migrated) != 0 || len(r.Report.Unchecked) != 0 {
				t.Errorf("report %+v, migrated %v", r.Report, r.Migrated)
			}
			for _, c := range tc.checked {
				if !slices.Contains(r.Report.Checked, c) {
					t.Errorf("checked %v, want %s among them", r.Report.Checked, c)
				}
			}
			for _, c := range tc.trusted {
				if !slices.Contains(r.Report.Trusted, c) {
					t.Errorf("trusted %v, want %s among them", r.Report.Trusted, c)
				}
			}
		})
	}
}

// Tampered answers, and answers EID does not give, are refused, with an
// error that names what failed.
func TestVerifyDIDRefuses(t *testing.T) {
	h, subject := standard(t, 2, false)
	gone, _ := standard(t, 1, true)
	other, _ := standardOf(t, "user1", 0, false)
	alice := foobar(t)
	all := eidAnswer(t, h, subject.String(), true)
	latest := eidAnswer(t, h, subject.String(), false)
	deactivated := eidAnswer(t, gone, subject.String(), false)
	full, asked := Request{subject.String(), true}, Request{subject.String(), false}
	for _, tc := range []struct {
		name   string
		answer []byte
		req    Request
		rule   idop.Rule // of a *resolve.VerifyError; "" for another error
		index  int
		msg    string
	}{
		{"flipped signature byte", edit(t, all, func(r map[string]any) {
			p := opOf(r, 0)["proof"].(map[string]any)
			sig := []byte(p["signature"].(string))
			sig[10] ^= 'A' ^ 'B'
			if sig[10] == p["signature"].(string)[10] {
				sig[10] = 'A'
			}
			p["signature"] = string(sig)
		}), full, idop.RuleSignature, 0, "does not verify"},
		{"older payload in place of the newest", edit(t, all, func(r map[string]any) {
			opOf(r, 0)["payload"] = opOf(r, 1)["payload"]
		}), full, idop.RuleSignature, 0, "does not verify"},
		{"dropped link", edit(t, all, func(r map[string]any) {
			r["transaction"] = slices.Delete(txs(r), 1, 2)
		}), full, idop.RulePreviousTxid, 0, "previousTxid"},
		{"reordered", edit(t, all, func(r map[string]any) {
			ts := txs(r)
			ts[0], ts[1] = ts[1], ts[0]
		}), full, resolve.RuleOrder, 1, "newer than the transaction before it"},
		{"truncated: all without the create", edit(t, all, func(r map[string]any) {
			r["transaction"] = txs(r)[:2]
		}), full, idop.RuleNotFound, 1, "truncated"},
		{"truncated: a deactivate alone", edit(t, deactivated, func(r map[string]any) {
			r["transaction"] = txs(r)[:1]
		}), asked, idop.RuleNotFound, 0, "begins with a deactivate"},
		{"an operation on another DID", edit(t, latest, func(r map[string]any) {
			txs(r)[0].(map[string]any)["operation"] = opOf(eidResultOf(t, eidAnswer(t, other, "x", false)), 0)
		}), asked, idop.RuleDocID, 0, "in the result of"},
		{"status 2 of a valid DID", edit(t, latest, func(r map[string]any) { r["status"] = 2 }), asked, resolve.RuleStatus, -1, "the transactions give 0"},
		{"status 0 of a deactivated DID", edit(t, deactivated, func(r map[string]any) { r["status"] = 0 }), asked, resolve.RuleStatus, -1, "the transactions give 2"},
		{"status 1, which EID never gives", edit(t, latest, func(r map[string]any) { r["status"] = 1 }), asked, idop.RuleMalformed, -1, "is not one of 0, 2, 3"},
		{"status 3 with transactions", edit(t, latest, func(r map[string]any) { r["status"] = 3 }), asked, idop.RuleMalformed, -1, "status 3 (not found) with transactions"},
		{"txid with 0x", edit(t, latest, func(r map[string]any) {
			tx := txs(r)[0].(map[string]any)
			tx["txid"] = "0x" + tx["txid"].(string)
		}), asked, idop.RuleMalformed, 0, "as EID writes an EVM hash"},
		{"txid in capitals", edit(t, latest, func(r map[string]any) {
			tx := txs(r)[0].(map[string]any)
			tx["txid"] = strings.ToUpper(tx["txid"].(string))
		}), asked, idop.RuleMalformed, 0, "as EID writes an EVM hash"},
		{"all=false with two transactions", edit(t, all, func(r map[string]any) {
			r["transaction"] = txs(r)[:2]
		}), asked, idop.RuleMalformed, -1, "EID answers 1"},
		{"a deactivated DID with its whole history for all=false", eidAnswer(t, gone, subject.String(), true), asked, idop.RuleMalformed, -1, "EID answers 2"},
		{"not found, another DID named", eidAnswer(t, nil, "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", false), asked, "", 0, "is not found, but"},
		{"about another DID than asked", eidAnswer(t, alice, "did:elastos:foobar", false), asked, "", 0, "is about did:elastos:foobar"},
		{"an error answer", []byte(`{"jsonrpc":"2.0","id":"1","error":{"code":-32000,"message":"did is null"}}`), asked, idop.RuleMalformed, -1, "the node answered an error"},
		{"not JSON", []byte(`{"jsonrpc":"2.0",`), asked, idop.RuleMalformed, -1, ""},
		{"too large", make([]byte, MaxAnswerSize+1), asked, "", 0, "at most"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := VerifyDID(tc.answer, tc.req, env(t))
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q does not say %q", err, tc.msg)
			}
			var ve *resolve.VerifyError
			switch {
			case tc.rule == "" && errors.As(err, &ve):
				t.Errorf("error %v is a VerifyError", err)
			case tc.rule != "" && (!errors.As(err, &ve) || ve.Rule != tc.rule || ve.Index != tc.index):
				t.Errorf("error %v, want rule %s at %d", err, tc.rule, tc.index)
			}
		})
	}
}

// eidResultOf returns the result object of an answer, for edit.
func eidResultOf(t testing.TB, answer []byte) map[string]any {
	var r map[string]any
	edit(t, answer, func(m map[string]any) { r = m })
	return r
}

// Other DIDs' documents are asked for through NeedError until the caller
// has fetched them all; the answer then verifies.
func TestVerifyDIDNeedsDocuments(t *testing.T) {
	answer := eidAnswer(t, foobar(t), "did:elastos:foobar", true)
	all := sdkDocs(t)
	e := env(t)
	have := fetched{}
	e.Docs = have
	rounds := 0
	for {
		r, err := VerifyDID(answer, Request{"did:elastos:foobar", true}, e)
		var need *NeedError
		if !errors.As(err, &need) {
			if err != nil {
				t.Fatal(err)
			}
			if r.Report.Outcome != OutcomeVerified {
				t.Errorf("outcome %s", r.Report.Outcome)
			}
			break
		}
		if len(need.DIDs) == 0 || len(need.Txids) != 0 {
			t.Fatalf("need %+v", need)
		}
		for _, d := range need.DIDs {
			doc, ok := all[d.Key()]
			if !ok {
				t.Fatalf("asked for %s, which the history does not name", d)
			}
			have[d.Key()] = doc
		}
		if rounds++; rounds > 5 {
			t.Fatalf("still asking after %d rounds: %v", rounds, need)
		}
	}
	if rounds == 0 {
		t.Error("verified without asking for the controllers' documents")
	}
}
