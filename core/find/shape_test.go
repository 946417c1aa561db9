package find

import (
	"slices"
	"testing"
)

// The interface's example finds the documents that hold a
// SelfProclaimedCredential whose subject has an email; the dotted form
// finds what the store finds, where the two tests may be met by different
// credentials. The expectations come from walking the parsed views in Go.
func TestSpecExampleOverCorpus(t *testing.T) {
	raw, parsed := corpus(t, 300)
	sameCredential := func(doc *Value) bool {
		return slices.ContainsFunc(doc.field("credential").items, func(c Value) bool {
			return hasType(&c, "SelfProclaimedCredential") && hasEmail(&c)
		})
	}
	anyCredentials := func(doc *Value) bool {
		creds := doc.field("credential").items
		return slices.ContainsFunc(creds, func(c Value) bool { return hasType(&c, "SelfProclaimedCredential") }) &&
			slices.ContainsFunc(creds, func(c Value) bool { return hasEmail(&c) })
	}
	none := func(*Value) bool { return false }
	tests := []struct {
		cond string
		want func(*Value) bool
	}{
		{`{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`, sameCredential},
		{`{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{"$exists":true}}}}`, sameCredential},
		{`{credential: {$elemMatch: {type: "SelfProclaimedCredential", "subject.email": {$exists: true}}}}`, sameCredential},
		{`{"credential.type":"SelfProclaimedCredential","credential.subject.email":{"$exists":true}}`, anyCredentials},
		// Without an operator inside, an object is exact equality, as in the store.
		{`{"credential":{"type":["SelfProclaimedCredential"]}}`, none},
	}
	for _, tc := range tests {
		c, err := Compile(tc.cond)
		if err != nil {
			t.Fatalf("Compile(%s): %v", tc.cond, err)
		}
		found := 0
		for i, doc := range parsed {
			want := tc.want(doc)
			if got := c.Match(raw[i]); got != want {
				t.Errorf("%s on raw document %d = %v, want %v", tc.cond, i, got, want)
			}
			if got := c.MatchValue(doc); got != want {
				t.Errorf("%s on parsed document %d = %v, want %v", tc.cond, i, got, want)
			}
			if want {
				found++
			}
		}
		t.Logf("%s: %d of %d documents", tc.cond, found, len(parsed))
	}
	if n := countMatches(t, tests[0].cond, parsed); n == 0 || n == len(parsed) {
		t.Errorf("the spec's example matches %d of %d documents; the corpus does not tell matches apart", n, len(parsed))
	}
}

func countMatches(t *testing.T, cond string, docs []*Value) int {
	t.Helper()
	c, err := Compile(cond)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range docs {
		if c.MatchValue(d) {
			n++
		}
	}
	return n
}

func hasType(cred *Value, typ string) bool {
	t := cred.field("type")
	return t != nil && slices.ContainsFunc(t.items, func(v Value) bool { return v.str == typ })
}

func hasEmail(cred *Value) bool {
	s := cred.field("subject")
	return s != nil && s.kind == kindObject && s.field("email") != nil
}

func TestShapeConditions(t *testing.T) {
	const twoCredentials = `{"credential": [
		{"type": ["VerifiableCredential", "SelfProclaimedCredential"], "issuer": "did:elastos:a", "subject": {"name": "Ann"}},
		{"type": ["VerifiableCredential", "EmailCredential"], "issuer": "did:elastos:b", "subject": {"email": "ann@example.com"}}]}`
	checkMatches(t, []matchCase{
		// The members of a shape hold for one and the same credential...
		{`{credential: {type: ["SelfProclaimedCredential"], subject: {email: {$exists: true}}}}`, twoCredentials, false},
		{`{credential: {type: ["EmailCredential"], subject: {email: {$exists: true}}}}`, twoCredentials, true},
		// ...while dotted paths may be met by different ones, as in the store.
		{`{"credential.type": "SelfProclaimedCredential", "credential.subject.email": {$exists: true}}`, twoCredentials, true},
		// An array literal in a shape means "contains all".
		{`{credential: {type: ["VerifiableCredential", "EmailCredential"], issuer: {$ne: null}}}`, twoCredentials, true},
		{`{credential: {type: ["SelfProclaimedCredential", "EmailCredential"], issuer: {$ne: null}}}`, twoCredentials, false},
		{`{credential: {type: [/^Email/], subject: {email: /@example\.com$/}}}`, twoCredentials, true},
		{`{credential: {type: [{$regex: "^Self"}], issuer: "did:elastos:b"}}`, twoCredentials, false},
		{`{credential: {issuer: "did:elastos:b", subject: {email: /@example\.com$/}}}`, twoCredentials, true},
		{`{credential: {issuer: "did:elastos:a", subject: {email: /@example\.com$/}}}`, twoCredentials, false},
		// Dotted paths inside a shape go on from the member they start
		// with, through an array as outside a shape.
		{`{credential: {"subject.email": {$exists: true}, type: "EmailCredential"}}`, twoCredentials, true},
		{`{credential: {"subject.name": {$eq: "Ann"}, "type.1": "SelfProclaimedCredential"}}`, twoCredentials, true},
		{`{credential: {"subject.name": {$eq: "Ann"}, "type.1": "EmailCredential"}}`, twoCredentials, false},
		{`{credential: {"type.0": "VerifiableCredential", "subject.email": /^ann@/}}`, twoCredentials, true},
		{`{credential: {type: {$size: 2}, "subject.email": {$exists: false}}}`, twoCredentials, true},
		// Logical operators inside a shape read the same object.
		{`{credential: {$or: [{type: ["KYCCredential"]}, {subject: {name: "Ann"}}], issuer: "did:elastos:a"}}`, twoCredentials, true},
		{`{credential: {$and: [{issuer: "did:elastos:a"}, {"subject.email": {$exists: true}}]}}`, twoCredentials, false},
		// A shape holds for a single embedded object too, never for a scalar.
		{`{subject: {email: {$exists: true}}}`, `{"subject": {"email": "a"}}`, true},
		{`{subject: {email: {$exists: true}}}`, `{"subject": [{"name": "a"}, {"email": "a"}]}`, true},
		{`{subject: {email: {$exists: true}}}`, `{"subject": "a"}`, false},
		{`{subject: {email: {$exists: false}}}`, `{}`, false},
		{`{subject: {email: {$exists: false}}}`, `{"subject": {}}`, true},
		// Nested objects without operators stay exact equality.
		{`{c: {s: {name: "Ann"}, t: {$exists: true}}}`, `{"c": {"s": {"name": "Ann"}, "t": 1}}`, true},
		{`{c: {s: {name: "Ann"}, t: {$exists: true}}}`, `{"c": {"s": {"name": "Ann", "x": 1}, "t": 1}}`, false},
		// Arrays inside a contains-all list are elements to find whole; an
		// empty literal is an empty array.
		{`{c: {t: [["A", "B"]], x: {$exists: true}}}`, `{"c": {"t": [["A", "B"], "C"], "x": 1}}`, true},
		{`{c: {t: [["A", "B"]], x: {$exists: true}}}`, `{"c": {"t": ["A", "B"], "x": 1}}`, true},
		{`{c: {t: [["A", "B"]], x: {$exists: true}}}`, `{"c": {"t": ["B", "A"], "x": 1}}`, false},
		{`{c: {t: [], x: {$exists: true}}}`, `{"c": {"t": [], "x": 1}}`, true},
		{`{c: {t: [], x: {$exists: true}}}`, `{"c": {"t": ["A"], "x": 1}}`, false},
		// A top-level array literal with an operator inside is a contains-all list too.
		{`{credential: [{type: ["EmailCredential"], subject: {email: {$exists: true}}}]}`, twoCredentials, true},
		{`{tags: [/^a/, "b"]}`, `{"tags": ["b", "ax"]}`, true},
		{`{tags: [/^a/, "b"]}`, `{"tags": ["b"]}`, false},
	})
}
