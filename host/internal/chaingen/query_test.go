package chaingen

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/synth"
)

// views returns the query views of the plan's DIDs that are not
// deactivated, in creation order, from what resolvedid answers.
func views(t *testing.T, c *chain.Chain, plan *synth.Plan) (subjects []string, out [][]byte) {
	t.Helper()
	for i := range plan.DIDs {
		subject, err := plan.Subject(plan.Shape(i))
		if err != nil {
			t.Fatal(err)
		}
		raw, err := c.ResolveDID(context.Background(), subject, false)
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Status      int
			Transaction []struct {
				Operation struct{ Payload string }
			}
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status == 2 {
			continue
		}
		b, err := base64.RawURLEncoding.DecodeString(res.Transaction[0].Operation.Payload)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := did.ParseDocument(b)
		if err != nil {
			t.Fatal(err)
		}
		subjects, out = append(subjects, doc.Subject().String()), append(out, resolve.View(doc))
	}
	return subjects, out
}

// On a generated chain, every condition finds through its plan exactly the
// DIDs a match of every view finds, in creation order, and the plan is the
// one expected: lookups where indexes apply, a scan where they do not or
// would find most DIDs.
func TestQueryPlans(t *testing.T) {
	db, _, _ := generated(t, "plans")
	c := open(t, db, false)
	plan, err := synth.NewPlan("plans", 700, chain.GenesisTime, Interval)
	if err != nil {
		t.Fatal(err)
	}
	subjects, all := views(t, c, plan)
	issuer := did.FromKey(synth.Key("plans", 3).Public()).String()
	for _, tc := range []struct{ cond, how string }{
		{`{"service.type":"HiveVault"}`, "index: service.type in [\"HiveVault\"] exact"},
		{`{"service.type":{$in:["GitHub","Telegram"]}}`, "index: service.type in [\"GitHub\",\"Telegram\"] exact"},
		{`{"credential.issuer":"` + issuer + `","credential.type":"ProfileCredential"}`, "index: and("},
		{`{"credential.subject.email":{$exists:true}}`, "index: present(credential.subject.email) exact"},
		{`{"credential.subject.country":{$in:["DE","FR"]},"credential.subject.age":{$gte:40}}`, "index: and(credential.subject.country in"},
		{`{$or:[{"credential.type":"KYCCredential"},{"controller":{$exists:true}}]}`, "index: or("},
		{`{"credential":{$elemMatch:{"type":"EmailCredential","subject.verified":true}}}`, "index: and("},
		{`{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`, "scan: and("}, // finds too many to read one by one
		{`{"credential.subject.address.city":"Berlin"}`, "scan: present(credential.subject.address)"},
		{`{"credential.subject.address.city":{$in:["Berlin","Tokyo","Paris"]},"service.type":"DIDCommMessaging"}`, "index: and(present(credential.subject.address), service.type in"},
		{`{"credential.subject.name":{$exists:true}}`, "index: present(credential.subject.name) exact"},
		{`{"credential.subject.name":{$regex:"^A"}}`, "scan: present(credential.subject.name)"},
		{`{"expires":{$gt:"2027"}}`, "scan: scan"},
		{`{"service.type":{$ne:"HiveVault"}}`, "scan: scan"},
	} {
		cond, err := find.Compile(tc.cond)
		if err != nil {
			t.Fatal(err)
		}
		how, err := c.Explain(cond)
		if err != nil || !strings.HasPrefix(how, tc.how) {
			t.Errorf("%s: explained as %q (%v), want it to start with %q", tc.cond, how, err, tc.how)
		}
		var want []string
		for i, v := range all {
			if cond.Match(v) {
				want = append(want, subjects[i])
			}
		}
		for _, page := range []chain.Query{{Skip: 0, Limit: resolve.MaxQueryLimit}, {Skip: 3, Limit: 5}} {
			page.Condition = cond
			raw, err := c.Query(context.Background(), page)
			if err != nil {
				t.Fatal(err)
			}
			var res struct {
				Total    int
				Document []struct{ ID string }
			}
			if err := json.Unmarshal(raw, &res); err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(res.Document))
			for i, d := range res.Document {
				got[i] = d.ID
			}
			end := min(page.Skip+page.Limit, len(want))
			start := min(page.Skip, end)
			if res.Total != len(want) || !slices.Equal(got, want[start:end]) {
				t.Errorf("%s (skip %d): total %d, page %v; a scan finds %d, page %v", tc.cond, page.Skip, res.Total, got, len(want), want[start:end])
			}
		}
		if len(want) == 0 {
			t.Errorf("%s finds nothing on the generated chain: the test proves little", tc.cond)
		}
	}
}
