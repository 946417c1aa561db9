package find

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// condGen writes random conditions over the paths and values of the
// corpus, in the relaxed syntax, as lists of members.
type condGen struct{ r *rand.Rand }

var (
	genPaths = []string{
		"id", "controller", "multisig", "expires", "service", "service.type", "service.id", "service.foo",
		"service.map.foo", "publicKey.type", "authentication", "credential", "credential.type",
		"credential.issuer", "credential.subject.email", "credential.subject.name", "credential.0.type",
		"service.1", "verifiableCredential.credentialSubject.nationality", "nope", "nope.deeper",
	}
	genValues = []string{
		`"HiveVault"`, `"CarrierAddress"`, `"SelfProclaimedCredential"`, `"EmailCredential"`,
		`"ECDSAsecp256r1"`, `"2026-11-20T09:55:44Z"`, `"Singapore"`, `"john@example.com"`, `"2:3"`, `""`,
		`0`, `123`, `678`, `true`, `false`, `null`, `[]`, `["VerifiableCredential", "EmailCredential"]`,
		`{foo: 123}`, `/^did:elastos:i/`, `/credential/i`,
	}
	// pathValues are values found at some paths of the corpus.
	pathValues = map[string][]string{
		"service.type":             {`"HiveVault"`, `"CarrierAddress"`, `"LinkedDomains"`, `"CredentialRepositoryService"`},
		"credential.type":          {`"SelfProclaimedCredential"`, `"EmailCredential"`, `"KYCCredential"`, `"DiplomaCredential"`},
		"credential.0.type":        {`"VerifiableCredential"`, `"BasicProfileCredential"`},
		"credential.subject.email": {`"john@example.com"`, `"contact@foobar.com"`},
		"credential.subject.name":  {`"John"`, `"Foo Bar Inc"`},
		"multisig":                 {`"2:3"`},
		"service.foo":              {`123`, `678`},
		"service.map.foo":          {`123`},
		"publicKey.type":           {`"ECDSAsecp256r1"`},
		"verifiableCredential.credentialSubject.nationality": {`"Singapore"`, `"China"`},
	}
	genTypes = []string{`"string"`, `"number"`, `"object"`, `"array"`, `"null"`, `"bool"`, `"date"`, `2`, `4`}
)

func (g condGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

// members returns 1 to 3 members of a condition object.
func (g condGen) members(depth int) []string {
	out := make([]string, 1+g.r.IntN(4)/3)
	for i := range out {
		if depth > 0 && g.r.IntN(5) == 0 {
			op := g.pick([]string{"$and", "$or", "$nor"})
			var subs []string
			for range 1 + g.r.IntN(3) {
				subs = append(subs, "{"+strings.Join(g.members(depth-1), ", ")+"}")
			}
			out[i] = op + ": [" + strings.Join(subs, ", ") + "]"
			continue
		}
		path := g.pick(genPaths)
		out[i] = fmt.Sprintf("%q: %s", path, g.value(path, depth))
	}
	return out
}

// value returns a field condition: a value or an operator object.
func (g condGen) value(path string, depth int) string {
	v := g.pick(genValues)
	if known := pathValues[path]; len(known) > 0 && g.r.IntN(5) > 0 {
		v = g.pick(known)
	}
	switch g.r.IntN(20) {
	case 0, 1, 15, 16, 17:
		return v
	case 18, 19:
		return fmt.Sprintf("{$exists: %v}", g.r.IntN(3) > 0)
	case 2:
		return fmt.Sprintf("{%s: %s}", g.pick([]string{"$eq", "$ne", "$gt", "$gte", "$lt", "$lte"}), v)
	case 3:
		return fmt.Sprintf("{%s: [%s, %s]}", g.pick([]string{"$in", "$nin"}), v, g.pick(genValues))
	case 4:
		return fmt.Sprintf("{$exists: %v}", g.r.IntN(2) == 0)
	case 5:
		return fmt.Sprintf("{$type: %s}", g.pick(genTypes))
	case 6:
		return fmt.Sprintf("{$regex: %q, $options: %q}", g.pick([]string{"^did", "Service$", "cred", "^$"}), g.pick([]string{"", "i"}))
	case 7:
		return fmt.Sprintf("{$size: %d}", g.r.IntN(4))
	case 8:
		return fmt.Sprintf("{$all: [%s]}", g.pick(genValues))
	case 9:
		return fmt.Sprintf("{$elemMatch: {$in: [%s, %s]}}", v, g.pick(genValues))
	case 10:
		return fmt.Sprintf("{$elemMatch: {type: %s}}", v)
	case 11:
		return fmt.Sprintf("{$not: {$type: %s}}", g.pick(genTypes))
	case 12:
		return fmt.Sprintf("{$gt: %s, $lte: %s}", v, g.pick(genValues))
	case 13:
		return fmt.Sprintf("{$mod: [%d, %d]}", 1+g.r.IntN(5), g.r.IntN(3))
	case 14:
		if depth > 0 {
			return "{type: [" + g.pick(genValues) + "], " + strings.Join(g.members(depth-1), ", ") + "}"
		}
	}
	return "null"
}

// A condition, its $and-wrapped form, its members split into an $and, and
// its rendering by String agree on every corpus document, in both document
// forms; {$nor: [c]} is its negation.
func TestConditionProperties(t *testing.T) {
	raw, parsed := corpus(t, 60)
	forms := make([][]byte, len(raw))
	for i, doc := range raw {
		forms[i] = mustEncode(t, doc)
	}
	g := condGen{rand.New(rand.NewPCG(4, 2))}
	matchedSome := 0
	for range 500 {
		members := g.members(2)
		text := "{" + strings.Join(members, ", ") + "}"
		c := mustCompile(t, text)
		split := make([]string, len(members))
		for i, m := range members {
			split[i] = "{" + m + "}"
		}
		variants := map[string]*Condition{
			"and-wrapped": mustCompile(t, "{$and: ["+text+"]}"),
			"split":       mustCompile(t, "{$and: ["+strings.Join(split, ", ")+"]}"),
			"String":      mustCompile(t, c.String()),
		}
		nor := mustCompile(t, "{$nor: ["+text+"]}")
		matches := 0
		for i, doc := range parsed {
			want := c.MatchValue(doc)
			if c.Match(raw[i]) != want {
				t.Errorf("%s: raw and parsed document %d disagree", text, i)
			}
			if c.MatchEncoded(forms[i]) != want {
				t.Errorf("%s: encoded and parsed document %d disagree", text, i)
			}
			for name, f := range variants {
				if f.MatchValue(doc) != want || f.Match(raw[i]) != want || f.MatchEncoded(forms[i]) != want {
					t.Errorf("%s: %s form disagrees on document %d", text, name, i)
				}
			}
			if nor.MatchValue(doc) == want {
				t.Errorf("%s: $nor does not negate on document %d", text, i)
			}
			if want {
				matches++
			}
		}
		if matches > 0 && matches < len(parsed) {
			matchedSome++
		}
	}
	t.Logf("%d of 500 conditions tell documents apart", matchedSome)
	if matchedSome < 100 {
		t.Errorf("only %d of 500 conditions tell documents apart; the generator is too weak", matchedSome)
	}
}

func mustCompile(t testing.TB, text string) *Condition {
	t.Helper()
	c, err := Compile(text)
	if err != nil {
		t.Fatalf("Compile(%s): %v", text, err)
	}
	return c
}
