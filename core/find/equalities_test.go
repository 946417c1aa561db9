package find

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEqualities(t *testing.T) {
	tests := []struct {
		cond string
		want []Equality
	}{
		{`{"service.type": "HiveVault"}`, []Equality{{"service.type", []any{"HiveVault"}}}},
		{`{"service.type": {$in: ["HiveVault", "CarrierAddress"]}}`, []Equality{{"service.type", []any{"HiveVault", "CarrierAddress"}}}},
		{`{"credential.type": "X", "credential.subject.email": {$exists: true}}`, []Equality{{"credential.type", []any{"X"}}}},
		{`{credential: {type: ["SelfProclaimedCredential"], subject: {email: {$exists: true}}}}`,
			[]Equality{{"credential.type", []any{"SelfProclaimedCredential"}}}},
		{`{credential: {type: ["A", "B"], subject: {country: "SG", email: {$exists: true}}}}`,
			[]Equality{{"credential.type", []any{"A"}}, {"credential.type", []any{"B"}}, {"credential.subject.country", []any{"SG"}}}},
		{`{credential: {$elemMatch: {issuer: "did:elastos:x"}}}`, []Equality{{"credential.issuer", []any{"did:elastos:x"}}}},
		{`{a: {$eq: 2}, b: true, $and: [{c: {$all: ["x", "y"]}}]}`,
			[]Equality{{"a", []any{2.0}}, {"b", []any{true}}, {"c", []any{"x"}}, {"c", []any{"y"}}}},
		// Not requirements an index can answer.
		{`{$or: [{a: 1}, {b: 2}]}`, nil},
		{`{a: {$ne: 1}}`, nil},
		{`{a: null}`, nil},
		{`{a: {$in: [1, null]}}`, nil},
		{`{a: {$in: [1, /x/]}}`, nil},
		{`{a: {$in: []}}`, nil},
		{`{a: {b: 1}}`, nil},
		{`{a: [1, 2]}`, nil},
		{`{a: {$gt: 1}}`, nil},
		{`{"a.0": 1}`, nil},
		{`{"a.0": {b: {$exists: true}, c: 1}}`, nil},
		{`{a: {$not: {$eq: 1}}}`, nil},
		{`{}`, nil},
	}
	for _, tc := range tests {
		c, err := Compile(tc.cond)
		if err != nil {
			t.Fatalf("Compile(%s): %v", tc.cond, err)
		}
		if diff := cmp.Diff(tc.want, c.Equalities()); diff != "" {
			t.Errorf("Equalities of %s (-want +got):\n%s", tc.cond, diff)
		}
	}
}

// Every document a condition matches meets each of its equalities, read
// as the matcher reads paths.
func TestEqualitiesHoldForMatches(t *testing.T) {
	raw, parsed := corpus(t, 400)
	conds := []string{
		`{"service.type": {$in: ["HiveVault", "LinkedDomains"]}}`,
		`{credential: {type: ["SelfProclaimedCredential"], subject: {email: {$exists: true}}}}`,
		`{credential: {type: ["KYCCredential", "VerifiableCredential"], subject: {nationality: "Singapore", name: {$type: "string"}}}}`,
		`{"credential.type": "DiplomaCredential", "service.type": "CarrierAddress"}`,
		`{credential: {$elemMatch: {type: "EmailCredential", issuer: {$exists: true}}}}`,
	}
	for _, text := range conds {
		c, err := Compile(text)
		if err != nil {
			t.Fatalf("Compile(%s): %v", text, err)
		}
		eqs := c.Equalities()
		if len(eqs) == 0 {
			t.Fatalf("%s: no equalities", text)
		}
		matched := 0
		for i, doc := range parsed {
			if !c.MatchValue(doc) {
				continue
			}
			matched++
			for _, eq := range eqs {
				if !equalityCondition(t, eq).Match(raw[i]) {
					t.Errorf("%s matches document %d, which fails %v", text, i, eq)
				}
			}
		}
		if matched == 0 {
			t.Errorf("%s matches no document of the corpus", text)
		}
	}
}

// equalityCondition is {path: {$in: values}}.
func equalityCondition(t *testing.T, eq Equality) *Condition {
	t.Helper()
	text, err := json.Marshal(map[string]any{eq.Path: map[string]any{"$in": eq.Values}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Compile(string(text))
	if err != nil {
		t.Fatal(err)
	}
	return c
}
