package demo

import (
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

func TestPlanShape(t *testing.T) {
	people, err := plan("didlight")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := plan("didlight")
	other, _ := plan("other")
	count := map[string]int{}
	services, credentials := map[string]bool{}, map[string]bool{}
	dids := map[did.DID]bool{}
	for i, p := range people {
		d := did.FromKey(p.key.Public())
		dids[d] = true
		if !again[i].key.Public().Equal(p.key.Public()) || other[i].key.Public().Equal(p.key.Public()) {
			t.Errorf("DID %d: keys do not follow the seed", i)
		}
		count["update"] += btoi(p.update)
		count["deactivate"] += btoi(p.deactivate)
		count["short"] += btoi(p.shortLived)
		count["no credentials"] += btoi(len(p.credentials) == 0)
		count["declare"] += btoi(p.declare)
		count["revoke"] += btoi(p.revoke)
		if p.declare && (len(p.credentials) == 0 || p.deactivate || p.shortLived) || p.revoke && !p.declare {
			t.Errorf("DID %d declares a credential it has not, or that its DID will not outlive", i)
		}
		if p.shortLived && (p.update || p.deactivate) {
			t.Errorf("DID %d expires soon and is also updated or deactivated", i)
		}
		for _, s := range p.services {
			services[s.typ] = true
		}
		for _, c := range p.credentials {
			credentials[c.types[0]] = true
		}
	}
	if len(dids) != len(people) || len(people) < 24 {
		t.Errorf("%d distinct DIDs of %d, want a few dozen", len(dids), len(people))
	}
	if count["update"] < 4 || count["deactivate"] < 3 || count["short"] < 3 || count["no credentials"] == 0 || count["declare"] < 4 ||
		count["revoke"] == 0 || count["revoke"] == count["declare"] || len(services) < 4 || len(credentials) < 3 {
		t.Errorf("plan lacks variety: %v, service types %v, credential types %v", count, services, credentials)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Every operation of the plan is valid in turn, as the chain will judge it.
func TestPlanOperationsValidate(t *testing.T) {
	people, err := plan("didlight")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, p := range people {
		var st *idop.State
		for i, opName := range p.ops() {
			last := ""
			if st != nil {
				last = st.Txid
			}
			req, err := p.request(opName, last, now)
			if err != nil {
				t.Fatalf("%s %s: %v", opName, p.name, err)
			}
			op, err := idop.Decode(req)
			if err != nil {
				t.Fatalf("%s %s: %v", opName, p.name, err)
			}
			if err := idop.Validate(op, st, nil, keys.Native{}, now); err != nil {
				t.Fatalf("%s %s: %v", opName, p.name, err)
			}
			if op.Document != nil {
				checkDocument(t, &p, op.Document, opName == idop.Update)
			}
			st = &idop.State{Document: op.Document, Txid: txid(i)}
		}
	}
}

func txid(i int) string { return string(slices.Repeat([]byte{byte('a' + i)}, 64)) }

func checkDocument(t *testing.T, p *person, doc *did.Document, updated bool) {
	t.Helper()
	wantServices := len(p.services) + btoi(updated)
	if got := len(doc.Services()); got != wantServices {
		t.Errorf("%s: %d services, want %d", p.name, got, wantServices)
	}
	creds := doc.Credentials()
	if len(creds) != len(p.credentials) {
		t.Fatalf("%s: %d credentials, want %d", p.name, len(creds), len(p.credentials))
	}
	for _, c := range creds {
		if !c.IsSelfProclaimed() || !slices.Contains(c.Types, "SelfProclaimedCredential") {
			t.Errorf("%s: credential %s is not self-proclaimed: %v", p.name, c.ID, c.Types)
		}
		if err := c.VerifyProof(keys.Native{}, did.NewDocuments(doc)); err != nil {
			t.Errorf("%s: %v", p.name, err)
		}
	}
}
