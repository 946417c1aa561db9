package synth

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

var start = time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)

func newPlan(t testing.TB, seed string, n int) *Plan {
	t.Helper()
	p, err := NewPlan(seed, n, start, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// chainState is what a chain knows of the plan's DIDs and credentials as
// it validates them: the test's stand-in for host/internal/chain.
type chainState struct {
	dids  map[string]*idop.State
	creds map[string]*idop.CredentialState
	n     int
}

func (s *chainState) Document(d did.DID) (*did.Document, error) {
	st := s.dids[d.Key()]
	if st == nil || st.Deactivated {
		return nil, nil
	}
	return st.Document, nil
}

// apply validates req at time at against the state and records it,
// returning its made-up txid.
func (s *chainState) apply(req idop.Request, at time.Time) (string, error) {
	op, err := idop.Decode(req)
	if err != nil {
		return "", err
	}
	s.n++
	txid := fmt.Sprintf("%064x", s.n)
	if req.Header.Specification == idop.SpecCredential {
		key := op.CredentialID.Key()
		st := s.creds[key]
		if err := idop.ValidateCredential(op, st, s, keys.Native{}, at); err != nil {
			return "", err
		}
		if st == nil {
			st = &idop.CredentialState{}
			s.creds[key] = st
		}
		if op.Credential != nil {
			st.Declared, st.Txid = op.Credential, txid
		} else {
			st.Revokers = append(st.Revokers, op.Method.DID)
		}
		return txid, nil
	}
	key := op.DID.Key()
	st := s.dids[key]
	if err := idop.Validate(op, st, s, keys.Native{}, at); err != nil {
		return "", err
	}
	if st == nil {
		st = &idop.State{}
		s.dids[key] = st
	}
	st.Txid = txid
	if op.Document != nil {
		st.Document = op.Document
	} else {
		st.Deactivated = true
	}
	return txid, nil
}

// Every request of a plan spanning several waves is valid, in its block's
// order, against the state the blocks before leave: what the chain's
// validation will say of the generated chain.
func TestPlanValidates(t *testing.T) {
	p := newPlan(t, "validates", 2*WaveSize+100)
	s := &chainState{dids: map[string]*idop.State{}, creds: map[string]*idop.CredentialState{}}
	last := map[int]string{}
	ops := 0
	for h := range p.Blocks() {
		at := p.Time(h)
		for _, step := range p.Block(h) {
			d := p.DID(step.Index)
			req, err := p.Request(d, step.Op, last[step.Index], at)
			if err == nil {
				last[step.Index], err = s.apply(req, at)
			}
			if err != nil {
				t.Fatalf("block %d: DID %d operation %d (%s): %v", h, step.Index, step.Op, d.Ops()[step.Op], err)
			}
			ops++
		}
	}
	want := 0
	for i := range p.DIDs {
		want += len(p.Shape(i).Ops())
	}
	if ops != want || len(last) != p.DIDs {
		t.Errorf("the blocks hold %d operations on %d DIDs, want %d on %d", ops, len(last), want, p.DIDs)
	}
}

// Block h holds operation k of the DIDs of wave h-k, each DID at most
// once, and every operation of the plan is in exactly one block.
func TestPlanSchedule(t *testing.T) {
	p := newPlan(t, "schedule", 3*WaveSize+7)
	seen := map[Step]int{}
	for h := range p.Blocks() {
		dids := map[int]bool{}
		for _, s := range p.Block(h) {
			if wave := s.Index / WaveSize; wave+s.Op != h {
				t.Errorf("block %d holds operation %d of DID %d, of wave %d", h, s.Op, s.Index, wave)
			}
			if dids[s.Index] {
				t.Errorf("block %d holds DID %d twice", h, s.Index)
			}
			dids[s.Index] = true
			seen[s]++
		}
	}
	for i := range p.DIDs {
		for k := range p.Shape(i).Ops() {
			if n := seen[Step{i, k}]; n != 1 {
				t.Errorf("operation %d of DID %d is in %d blocks", k, i, n)
			}
		}
	}
	if p.Block(p.Blocks()-1) == nil {
		t.Error("the last block is empty")
	}
}

// The same seed gives the same requests; another seed other DIDs.
func TestPlanDeterministic(t *testing.T) {
	a, b, other := newPlan(t, "same", 2000), newPlan(t, "same", 2000), newPlan(t, "other", 2000)
	for _, i := range []int{0, 63, 64, 777, 1999} {
		ra, err1 := a.Request(a.DID(i), 0, "", start)
		rb, err2 := b.Request(b.DID(i), 0, "", start)
		ro, err3 := other.Request(other.DID(i), 0, "", start)
		if err := cmpErr(err1, err2, err3); err != nil {
			t.Fatal(err)
		}
		if ra != rb {
			t.Errorf("DID %d: two plans of one seed differ:\n%+v\n%+v", i, ra, rb)
		}
		if ra.Payload == ro.Payload {
			t.Errorf("DID %d: seeds same and other give the same document", i)
		}
	}
}

func cmpErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// The mix over many DIDs: every kind of DID and operation the plan
// promises occurs, in about the shares it draws, within the bounds.
func TestPlanMix(t *testing.T) {
	const n = 20_000
	p := newPlan(t, "mix", n)
	var customized, updated, short, declared, revoked, deactivated, issued, nested, arrays int
	serviceTypes, credTypes := map[string]bool{}, map[string]bool{}
	for i := range n {
		d := p.DID(i)
		if len(d.Services) > MaxServices || len(d.Credentials) > MaxCredentials || d.Updates > MaxUpdates {
			t.Fatalf("DID %d has %d services, %d credentials, %d updates", i, len(d.Services), len(d.Credentials), d.Updates)
		}
		if !slices.Equal(d.Ops(), p.Shape(i).Ops()) {
			t.Fatalf("DID %d: its shape's operations %v differ from its plan's %v", i, p.Shape(i).Ops(), d.Ops())
		}
		count(&customized, d.Name != "")
		count(&updated, d.Updates > 0)
		count(&short, d.Lifetime < 365*24*time.Hour)
		count(&declared, d.Declare)
		count(&revoked, d.Revoke)
		count(&deactivated, d.Deactivate)
		for _, s := range d.Services {
			serviceTypes[s.Type] = true
		}
		for _, c := range d.Credentials {
			credTypes[c.Types[0]] = true
			count(&issued, c.Issuer >= 0)
			count(&nested, strings.Contains(string(c.Subject), `"address":{`))
			count(&arrays, strings.Contains(string(c.Subject), `"languages":[`))
		}
	}
	for i, tc := range []struct {
		what     string
		got      int
		low, top int // percent of n
	}{
		{"customized", customized, 3, 7},
		{"updated", updated, 25, 35},
		{"short-lived", short, 7, 13},
		{"declaring", declared, 5, 10},
		{"revoking", revoked, 1, 4},
		{"deactivated", deactivated, 3, 7},
		{"issued credentials", issued, 50, 150},
		{"nested subjects", nested, 20, 60},
		{"array subjects", arrays, 20, 60},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if tc.got*100 < tc.low*n || tc.got*100 > tc.top*n {
				t.Errorf("%d %s of %d DIDs, want %d%% to %d%%", tc.got, tc.what, n, tc.low, tc.top)
			}
		})
	}
	if len(serviceTypes) < 25 || len(credTypes) < 25 {
		t.Errorf("%d service types and %d credential types in use, want a few dozen", len(serviceTypes), len(credTypes))
	}
}

func count(n *int, ok bool) {
	if ok {
		*n++
	}
}
