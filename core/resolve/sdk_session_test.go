package resolve

import (
	_ "embed"
	"encoding/json"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// sdkSession is what the published JS SDK sent in one session, in order
// (the file says which flows).
//
//go:embed testdata/sdk-2.3.5-session.json
var sdkSession []byte

// sessionChain replays requests as a node records them: the state of each
// DID and credential id, their histories, the current documents (docs) and
// every DID's last document, deactivated or not (latest), which is what a
// light client verifying old operations must look up.
type sessionChain struct {
	dids         map[string]*idop.State
	creds        map[string]*idop.CredentialState
	history      map[string][]Entry
	subjects     map[string]did.DID
	ids          map[string]did.URL
	docs, latest did.Documents
}

func newSessionChain() *sessionChain {
	return &sessionChain{
		dids: map[string]*idop.State{}, creds: map[string]*idop.CredentialState{},
		history: map[string][]Entry{}, subjects: map[string]did.DID{}, ids: map[string]did.URL{},
		docs: did.Documents{}, latest: did.Documents{},
	}
}

// apply validates op as of its block time and records it.
func (c *sessionChain) apply(op *idop.Op, e Entry) error {
	at := time.Unix(e.Time, 0)
	if op.Request.Header.Specification == idop.SpecCredential {
		k := op.CredentialID.Key()
		st := c.creds[k]
		if err := idop.ValidateCredential(op, st, c.docs, keys.Native{}, at); err != nil {
			return err
		}
		if st == nil {
			st = &idop.CredentialState{}
			c.creds[k] = st
		}
		if op.Request.Header.Operation == idop.Declare {
			st.Declared, st.Txid = op.Credential, e.Txid
		} else {
			st.Revokers = append(st.Revokers, op.Method.DID)
		}
		c.history[k], c.ids[k] = append(c.history[k], e), op.CredentialID
		return nil
	}
	k := op.DID.Key()
	if err := idop.Validate(op, c.dids[k], c.docs, keys.Native{}, at); err != nil {
		return err
	}
	if op.Request.Header.Operation == idop.Deactivate {
		c.dids[k].Deactivated = true
		delete(c.docs, k)
	} else {
		c.dids[k] = &idop.State{Document: op.Document, Txid: e.Txid}
		c.docs[k], c.latest[k] = op.Document, op.Document
	}
	c.history[k], c.subjects[k] = append(c.history[k], e), op.DID
	return nil
}

// Everything the SDK sent is accepted in order, and every DID's and
// credential's result verifies.
func TestSDKSession(t *testing.T) {
	var session struct {
		Transactions []struct {
			Txid      string
			Timestamp time.Time
			Operation json.RawMessage
		}
	}
	if err := json.Unmarshal(sdkSession, &session); err != nil {
		t.Fatal(err)
	}
	c := newSessionChain()
	ops := map[string]int{}
	for i, tx := range session.Transactions {
		r, err := idop.ParseRequest(tx.Operation)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		op, err := idop.Decode(r)
		if err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		if err := c.apply(op, NewEntry(op, tx.Txid, uint32(i+1), 0, tx.Timestamp.Unix())); err != nil {
			t.Errorf("request %d, %s of %s: %v", i, r.Header.Operation, op.DID, err)
		}
		ops[r.Header.Operation]++
	}
	want := map[string]int{idop.Create: 7, idop.Update: 3, idop.Transfer: 2, idop.Deactivate: 3, idop.Declare: 2, idop.Revoke: 3}
	for name, n := range want {
		if ops[name] != n {
			t.Errorf("%d %s operations in the session, want %d", ops[name], name, n)
		}
	}
	tip := session.Transactions[len(session.Transactions)-1].Timestamp.Add(time.Minute)
	for k, d := range c.subjects {
		b, err := DialectEID.Result(d, c.history[k], true, tip.Unix())
		if err != nil {
			t.Fatal(err)
		}
		if v, err := DialectEID.Verify(b, c.latest, keys.Native{}, tip); err != nil || !v.Complete {
			t.Errorf("%s: %+v, %v", d, v, err)
		}
	}
	statuses := map[CredentialStatus]int{}
	for k, id := range c.ids {
		b, err := CredentialResult(id, c.history[k], did.DID{}, c.docs)
		if err != nil {
			t.Fatal(err)
		}
		v, err := VerifyCredential(b, did.DID{}, c.latest, keys.Native{})
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		statuses[v.Status]++
	}
	if statuses[CredentialRevoked] != 2 || statuses[CredentialValid] != 1 {
		t.Errorf("credential statuses %v, want 2 revoked and 1 valid", statuses)
	}
}
