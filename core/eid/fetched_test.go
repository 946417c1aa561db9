package eid

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

// upstream is what an EID node would answer a light client: did_resolveDID
// (all=true) per DID, eth_getTransactionByHash per txid.
type upstream struct {
	dids map[string][]byte
	txs  map[string][]byte
}

// settle verifies as a light client does: verify, fetch what a NeedError
// names from up, add it, and verify again. It returns what was fetched, in
// order, and the last error.
func settle(t *testing.T, f *Fetched, up upstream, verify func() error) ([]string, error) {
	t.Helper()
	var fetched []string
	for range 10 {
		err := verify()
		var need *NeedError
		if !errors.As(err, &need) {
			return fetched, err
		}
		for _, d := range need.DIDs {
			a, ok := up.dids[d.Key()]
			if !ok {
				t.Fatalf("%v: the upstream has no answer for %s", need, d)
			}
			f.AddDID(d, a)
			fetched = append(fetched, d.String())
		}
		for _, txid := range need.Txids {
			a, ok := up.txs[txid]
			if !ok {
				t.Fatalf("%v: the upstream has no transaction %s", need, txid)
			}
			if err := f.AddTransaction(a); err != nil {
				t.Fatal(err)
			}
			fetched = append(fetched, txid)
		}
	}
	t.Fatal("still needing more after 10 rounds")
	return nil, nil
}

// sdkUsers is an upstream that knows the SDK users as standard DIDs of one
// create each; user2's history is the migration window's (migratedHistory),
// whose verification needs two transactions.
func sdkUsers(t *testing.T) (upstream, history) {
	up := upstream{dids: map[string][]byte{}, txs: map[string][]byte{}}
	for _, user := range []string{"user1", "user3", "user4", "issuer"} {
		h, subject := standardOf(t, user, 0, false)
		up.dids[subject.Key()] = eidAnswer(t, h, subject.String(), true)
	}
	migrated, user2 := migratedHistory(t)
	up.dids[user2.Key()] = eidAnswer(t, migrated, user2.String(), true)
	for i, r := range migrated[:2] {
		up.txs[r.txid] = txAnswer(t, r, uint64(1200+i), migrationSender)
	}
	return up, migrated
}

func newFetched() *Fetched {
	return NewFetched(Env{Network: Mainnet, Verifier: keys.Native{}, Now: t0.AddDate(0, 0, 10)})
}

// A customized DID verifies from answers alone: its controllers' answers
// are fetched as the NeedErrors name them, each verified in turn, and what
// a controller's own verification needs (here the transactions of user2's
// migrated history) is asked for in the same way.
func TestFetchedCustomized(t *testing.T) {
	up, migrated := sdkUsers(t)
	f := newFetched()
	var r *Resolved
	fetched, err := settle(t, f, up, func() (err error) {
		r, err = f.VerifyDID(eidAnswer(t, foobar(t), "did:elastos:foobar", true), Request{"did:elastos:foobar", true})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != resolve.Valid || !slices.Contains(r.Report.Checked, CheckedControllers) {
		t.Errorf("status %v, report %+v", r.Status, r.Report)
	}
	for _, want := range []string{"did:elastos:igXiyCJEUjGJV1DMsMa4EbWunQqVg97GcS", "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", migrated[0].txid} {
		if !slices.Contains(fetched, want) {
			t.Errorf("fetched %v, want %s among them", fetched, want)
		}
	}
	if n := len(fetched); n != len(slices.Compact(slices.Sorted(slices.Values(fetched)))) {
		t.Errorf("fetched %v: something twice", fetched)
	}
}

// A credential verifies from answers alone: the owner's and the issuer's
// answers are fetched as the NeedErrors name them.
func TestFetchedCredential(t *testing.T) {
	up, _ := sdkUsers(t)
	v := vcOf(t, "user1.vc.twitter").declare("user1").revoke("issuer")
	asked := v.vc.ID.String()
	f := newFetched()
	var r *ResolvedCredential
	fetched, err := settle(t, f, up, func() (err error) {
		r, err = f.VerifyCredential(eidCredentialAnswer(t, v, asked, ""), CredentialRequest{ID: asked})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != resolve.CredentialRevoked || r.Report.Outcome != OutcomeVerified {
		t.Errorf("status %v, report %+v", r.Status, r.Report)
	}
	if !slices.Contains(fetched, issuerDID) || !slices.Contains(fetched, user1DID) {
		t.Errorf("fetched %v, want the owner and the issuer", fetched)
	}
}

// An answer for another DID that does not verify fails the verification
// that needed it, naming that DID; so does a lookup of a DID whose own
// verification is under way, rather than asking for it forever.
func TestFetchedRefuses(t *testing.T) {
	up, _ := sdkUsers(t)
	user1 := mustDID(t, user1DID)
	up.dids[user1.Key()] = edit(t, up.dids[user1.Key()], func(r map[string]any) {
		p := opOf(r, 0)["proof"].(map[string]any)
		p["signature"] = "A" + p["signature"].(string)[1:]
	})
	f := newFetched()
	_, err := settle(t, f, up, func() error {
		_, err := f.VerifyDID(eidAnswer(t, foobar(t), "did:elastos:foobar", true), Request{"did:elastos:foobar", true})
		return err
	})
	var ve *resolve.VerifyError
	if !errors.As(err, &ve) || ve.Rule != idop.RuleLookup || !strings.Contains(err.Error(), "the answer for "+user1DID) {
		t.Errorf("a controller's tampered answer: %v, want a lookup error naming it", err)
	}

	f = newFetched()
	f.AddDID(user1, up.dids[user1.Key()])
	f.busy[user1.Key()] = true
	if _, err := f.Document(user1); err == nil || errors.Is(err, ErrUnfetched) {
		t.Errorf("a lookup during its own verification: %v, want an error other than unfetched", err)
	}
}
