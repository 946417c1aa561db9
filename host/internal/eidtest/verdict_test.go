package eidtest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/eidtest"
)

// The recording checked against didlight's core, as a light client would
// judge what the real node decided: every answer it recorded verifies
// (core/eid), and every step it refused core's validation refuses too,
// every step it accepted core accepts, but where the node decided with what
// no light client can check (below, with why).

// recorded is a did.Lookup of the documents of a checkpoint's DIDs, each
// verified from its recorded answer (all=true, as the SDKs ask) the first
// time it is looked up.
type recorded struct {
	answers map[string]json.RawMessage // by did.DID.Key
	docs    map[string]*did.Document
	env     eid.Env
}

func (r *recorded) Document(d did.DID) (*did.Document, error) {
	if doc, ok := r.docs[d.Key()]; ok {
		return doc, nil
	}
	answer, ok := r.answers[d.Key()]
	if !ok {
		return nil, fmt.Errorf("%s: %w", d, eid.ErrUnfetched)
	}
	res, err := eid.VerifyDID(answer, eid.Request{DID: d.String(), All: true}, r.env)
	if err != nil {
		return nil, err
	}
	r.docs[d.Key()] = res.Document
	return res.Document, nil
}

// Every answer the node gave at a checkpoint to did_resolveDID,
// did_resolveCredential and did_listCredentials verifies, at the head's
// time, whatever the form of the request (all absent, false or true, the
// id without its prefix or upper-cased, with and without an issuer,
// paged).
func TestRecordedAnswersVerify(t *testing.T) {
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, cp := range rec.Manifest.Checkpoints {
		t.Run(cp.Name, func(t *testing.T) {
			xs := eidtest.Calls(rec.Checkpoints[cp.Name])
			docs := &recorded{answers: map[string]json.RawMessage{}, docs: map[string]*did.Document{}}
			for _, x := range xs {
				if p, _ := x.DIDParams(); x.Method == "did_resolveDID" && strings.HasSuffix(x.Note, "as the SDKs ask") && p.All {
					d, err := did.Parse(p.DID)
					if err != nil {
						t.Fatal(err)
					}
					docs.answers[d.Key()] = x.Result
				}
			}
			now := rec.HeadTime(t, cp.Name)
			docs.env = eid.Env{Network: eid.NetworkOf(rec.Manifest.ChainID), Docs: docs, Verifier: keys.Native{}, Now: now}
			verified := 0
			for _, x := range xs {
				p, ok := x.DIDParams()
				if x.Result == nil || !ok {
					continue // an error answer, to a request the node refused
				}
				t.Run(x.Note, func(t *testing.T) {
					var err error
					switch _, perr := did.Parse(p.DID); {
					case x.Method == "did_resolveDID" && perr != nil:
						// EID answers not found for what is not a DID; didlight
						// refuses the request before it asks (-32602).
						var r struct{ Status int }
						if json.Unmarshal(x.Result, &r); r.Status != 3 {
							t.Errorf("%s: %s, want not found", x.Params, x.Result)
						}
						return
					case x.Method == "did_resolveCredential" && !credentialID(p.ID):
						// Likewise for what is not a credential id.
						var r struct{ Status int }
						if json.Unmarshal(x.Result, &r); r.Status != 3 {
							t.Errorf("%s: %s, want not found", x.Params, x.Result)
						}
						return
					case x.Method == "did_resolveDID":
						_, err = eid.VerifyDID(x.Result, eid.Request{DID: p.DID, All: p.All}, docs.env)
					case x.Method == "did_resolveCredential":
						_, err = eid.VerifyCredential(x.Result, eid.CredentialRequest{ID: p.ID, Issuer: p.Issuer}, docs.env)
					case x.Method == "did_listCredentials":
						_, err = eid.VerifyCredentialList(x.Result, eid.ListRequest{DID: p.DID, Skip: p.Skip, Limit: p.Limit})
					default:
						return
					}
					verified++
					if err != nil {
						t.Errorf("%s %s: %v", x.Method, x.Params, err)
					}
				})
			}
			if verified < 50 {
				t.Errorf("%d answers verified, want every DID's, credential's and list's", verified)
			}
		})
	}
}

// credentialID reports whether id, with the did:elastos: prefix EID puts
// before an id without it, is a credential id.
func credentialID(id string) bool {
	if !strings.HasPrefix(id, "did:elastos:") {
		id = "did:elastos:" + id
	}
	_, err := did.ParseCredentialID(id)
	return err == nil
}

// nodeOnly are the steps the node decided with what a light client cannot
// check, with why: core's validation decides them otherwise.
var nodeOnly = map[string]string{
	// checkCustomizedDIDAvailable (core/vm/did_contracts.go): the name must
	// be one the ELA main chain reserved, which the node asks its SPV
	// client; a light client takes it on the node's word (reserved-names).
	"create-customized": "the ELA main chain's reserved names",
}

// state is the chain's state as core keeps it, from the steps the node
// accepted.
type state struct {
	dids      map[string]*idop.State
	creds     map[string]*idop.CredentialState
	lastBlock map[string]uint64 // a DID's last accepted operation's block
}

// Document is the current document of d: nil when it does not exist or is
// deactivated (did.Lookup).
func (s *state) Document(d did.DID) (*did.Document, error) {
	if st := s.dids[d.Key()]; st != nil && !st.Deactivated {
		return st.Document, nil
	}
	return nil, nil
}

// decide is core's decision on the operation a step sent, at its block's
// time: nil to accept it.
func (s *state) decide(sent string, block uint64, now time.Time) error {
	req, err := idop.ParseRequest([]byte(sent))
	if err != nil {
		return err
	}
	op, err := idop.Decode(req)
	if err != nil {
		return err
	}
	if op.Request.Header.Specification == idop.SpecCredential {
		return idop.ValidateCredential(op, s.creds[op.CredentialID.Key()], s, keys.Native{}, now)
	}
	if b, ok := s.lastBlock[op.DID.Key()]; ok && b == block {
		// EID takes one operation on a DID a block (core/state/state_did_db.go,
		// "allready create did"), as didlight's mempool does.
		return errors.New("a second operation on the DID in one block")
	}
	return idop.Validate(op, s.dids[op.DID.Key()], s, keys.Native{}, now)
}

// apply records a step the node accepted.
func (s *state) apply(t *testing.T, sent, hash string, block uint64) {
	t.Helper()
	req, _ := idop.ParseRequest([]byte(sent))
	op, err := idop.Decode(req)
	if err != nil {
		t.Fatal(err)
	}
	txid, err := eid.TxidOf(hash)
	if err != nil {
		t.Fatal(err)
	}
	if op.Request.Header.Specification == idop.SpecCredential {
		cs := s.creds[op.CredentialID.Key()]
		if cs == nil {
			cs = &idop.CredentialState{}
			s.creds[op.CredentialID.Key()] = cs
		}
		if op.Credential != nil {
			cs.Declared, cs.Txid = op.Credential, txid
		} else {
			cs.Revokers = append(cs.Revokers, op.Method.DID)
		}
		return
	}
	st := &idop.State{Document: op.Document, Txid: txid}
	if old := s.dids[op.DID.Key()]; op.Document == nil && old != nil {
		st.Document, st.Deactivated = old.Document, true
	}
	s.dids[op.DID.Key()] = st
	s.lastBlock[op.DID.Key()] = block
}

// Every step of the scenario, in the order sent: core's validation, at
// the time of the step's block against the state the accepted steps before
// it made, decides it as the node did, but for nodeOnly's.
func TestStepsDecidedAsTheNodeDid(t *testing.T) {
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	times := rec.BlockTimes(t)
	s := &state{dids: map[string]*idop.State{}, creds: map[string]*idop.CredentialState{}, lastBlock: map[string]uint64{}}
	refused := 0
	for _, step := range rec.Manifest.Steps {
		now, ok := times[step.Block]
		if !ok {
			t.Fatalf("%s: no recorded block %d", step.Name, step.Block)
		}
		t.Run(step.Name, func(t *testing.T) {
			err := s.decide(step.Sent, step.Block, now)
			why, trusted := nodeOnly[step.Name]
			switch {
			case trusted && (err != nil || step.Accepted):
				t.Errorf("core: %v; the node accepted it: %v. Want core to accept it and the node to refuse it for %s", err, step.Accepted, why)
			case !trusted && (err == nil) != step.Accepted:
				t.Errorf("core: %v; the node accepted it: %v", err, step.Accepted)
			}
		})
		if step.Accepted {
			s.apply(t, step.Sent, step.TxHash, step.Block)
		} else {
			refused++
		}
	}
	if refused < 10 {
		t.Errorf("%d refusals in the scenario, want its ten and more", refused)
	}
}
