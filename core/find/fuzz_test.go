package find

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/didlight/didlight/core/internal/vectors"

	"github.com/google/go-cmp/cmp"
)

// seedConditions are conditions for the fuzz corpus: every form the
// parser reads and every operator.
var seedConditions = []string{
	`{}`,
	`{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`,
	`{"credential.type":"X","credential.subject.email":{"$exists":true}}`,
	`{'service.type': {$in: ['HiveVault', /^carrier/i]}, expires: {$gt: '2025'}}`,
	`{a: {$ne: null, $nin: [1, 2.5e-3]}, b: {$type: ["string", 10]}, c: {$size: 2}}`,
	`{a: {$all: [{$elemMatch: {b: 1}}]}, d: {$elemMatch: {$gte: 80, $lt: 85}}, e: {$mod: [4, 0]}}`,
	`{a: {$not: /^x\/y[/]/imsxu}, b: {$regex: "a b", $options: "x"}, $comment: "c"}`,
	`{$or: [{a: 1}, {$nor: [{b: {$exists: false}}]}], $and: [{"c.0.d": [1, [2], {e: null}]}]}`,
	`{"\u00e9\"\\": "\ud83d\ude00", "a.b": {"$lte": {"x": [true, false]}}}`,
	`{a: {$where: 1}}`, `{$gt: 1}`, `{a: {$regex: "("}}`, `{a:`, `[1]`,
}

// FuzzCompile checks that Compile never panics, fails only with the two
// error types, and that what it accepts re-renders to text that compiles
// to an equal condition.
func FuzzCompile(f *testing.F) {
	for _, s := range seedConditions {
		f.Add(s)
	}
	for _, name := range vectors.Glob("elastos-did-sdk/*/*.id.json") {
		f.Add(string(vectors.Read(name))) // a document is a condition too: exact equality on every member
	}
	f.Fuzz(func(t *testing.T, text string) {
		c, err := Compile(text)
		if err != nil {
			var se *SyntaxError
			var ce *ConditionError
			if !errors.As(err, &se) && !errors.As(err, &ce) {
				t.Fatalf("Compile(%q) failed with %T: %v", text, err, err)
			}
			if len(err.Error()) > 1500 {
				t.Fatalf("Compile of %d bytes: error of %d bytes: %.200s", len(text), len(err.Error()), err)
			}
			return
		}
		again, err := Compile(c.String())
		if err != nil {
			t.Fatalf("Compile(%q) renders to %q, which fails: %v", text, c.String(), err)
		}
		if !cmp.Equal(c.src, again.src, cmp.AllowUnexported(Value{})) {
			t.Fatalf("Compile(%q) renders to %q, which compiles to a different condition", text, c.String())
		}
	})
}

// FuzzParseJSON checks that ParseJSON never panics, accepts only what
// encoding/json accepts and decodes it alike, and accepts all UTF-8 JSON
// that encoding/json decodes, short of the nesting limit.
func FuzzParseJSON(f *testing.F) {
	for _, text := range strictTexts() {
		f.Add([]byte(text))
	}
	f.Add([]byte(`{"a":1e400}`))
	f.Add([]byte("\"\xff\""))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseJSON(data)
		var want any
		wantErr := json.Unmarshal(data, &want)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("ParseJSON(%q) failed with %T: %v", data, err, err)
			}
			if wantErr == nil && utf8.Valid(data) && !strings.Contains(se.Expected, "levels of nesting") {
				t.Fatalf("ParseJSON(%q) = %v, but encoding/json decodes it", data, err)
			}
			return
		}
		if wantErr != nil {
			t.Fatalf("ParseJSON(%q) accepts what encoding/json rejects: %v", data, wantErr)
		}
		if diff := cmp.Diff(want, toAny(&v)); diff != "" {
			t.Fatalf("ParseJSON(%q) differs from encoding/json (-want +got):\n%s", data, diff)
		}
	})
}

// FuzzMatch checks that matching never panics, on any bytes, and that the
// raw and the parsed form of a document give the same answer.
func FuzzMatch(f *testing.F) {
	docs := []string{`{}`, `{"a": [1, {"b": null}, [2]], "c": {"d": "x"}}`, `{"a":`, `[{"a":1}]`, `  {"a":"\u00e9"}`}
	for _, name := range vectors.Glob("elastos-did-sdk/v2.2/*.id.json") {
		docs = append(docs, string(vectors.Read(name)))
	}
	for i, c := range seedConditions {
		f.Add(c, docs[i%len(docs)])
	}
	f.Fuzz(func(t *testing.T, cond, doc string) {
		c, err := Compile(cond)
		if err != nil {
			return
		}
		got := c.Match([]byte(doc))
		v, err := ParseJSON([]byte(doc))
		if err != nil {
			return // Match promises no particular answer for invalid JSON, only no panic
		}
		if want := c.MatchValue(&v); got != want {
			t.Fatalf("%s on %s: raw %v, parsed %v", cond, doc, got, want)
		}
	})
}

// FuzzMatchEncoded checks that matching bytes as an encoded form never
// panics nor reads outside them, whatever they hold; that bytes which
// decode to a document answer as the decoded document; and that the
// encoded form of a JSON document decodes to the parsed document and
// answers as it, and that Encode rejects text with ParseJSON's error.
func FuzzMatchEncoded(f *testing.F) {
	docs := []string{`{"a": [1, {"b": null}, [2]], "c": {"d": "x"}, "id": "i"}`, `{"id":"did:x","c":["did:x#k","did:"]}`, `[{"a":1}]`, `{"a":{"b":1},"a":2}`}
	for _, name := range vectors.Glob("elastos-did-sdk/v2.2/*.id.json") {
		docs = append(docs, string(vectors.Read(name)))
	}
	for i, c := range seedConditions {
		doc := docs[i%len(docs)]
		form, err := Encode([]byte(doc))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(c, doc, form)
		f.Add(c, doc, form[:len(form)/2])
		f.Add(c, doc, []byte{1, 'x', tagArray, 5, tagIDMore, 1, 'y', tagNumber, 0})
	}
	f.Add(seedConditions[0], `{"b":["x\\\"]",{"id":1}],"id":"d:a","c":[1,}`, []byte{})
	f.Fuzz(func(t *testing.T, cond, doc string, form []byte) {
		c, err := Compile(cond)
		if err != nil {
			return
		}
		got := c.MatchEncoded(form)
		if v, err := decodeEncoded(form); err == nil {
			if want := c.MatchValue(&v); got != want {
				t.Fatalf("%s on %x: encoded %v, decoded %s %v", cond, form, got, v, want)
			}
		}
		v, perr := ParseJSON([]byte(doc))
		form, err = Encode([]byte(doc))
		if !cmp.Equal(err, perr) {
			t.Fatalf("Encode(%q): %v; ParseJSON: %v", doc, err, perr)
		}
		if err != nil {
			return
		}
		back, err := decodeEncoded(form)
		if err != nil || !sameMembers(back, v) {
			t.Fatalf("Encode(%s) = %x, which decodes to %s (%v)", doc, form, back, err)
		}
		if got, want := c.MatchEncoded(form), c.MatchValue(&v); got != want {
			t.Fatalf("%s on %s: encoded %v, parsed %v", cond, doc, got, want)
		}
	})
}
