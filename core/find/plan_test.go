package find

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// viewIndex is the index host/internal/chain keeps over query views.
var viewIndex = &Index{
	Paths:   []string{"id", "controller", "service.type", "credential.type", "credential.issuer"},
	Members: []string{"credential.subject"},
}

var long = strings.Repeat("x", MaxPostedValue+1)

// planDocs are views of every shape the plans must be right on: arrays of
// credentials, nested subjects, nulls, long values, -0, bools, names an
// index cannot post.
var planDocs = []string{
	`{"credential":[],"id":"did:elastos:a","service":[{"id":"#h","type":"Hub"}]}`,
	`{"credential":[{"type":["X","Self"],"issuer":"did:elastos:b","subject":{"email":"b@x","age":30,"tags":["t1","t2"]}}],"id":"did:elastos:b","service":[]}`,
	`{"credential":[{"type":["X"],"issuer":"did:elastos:i","subject":{"age":-0,"ok":true}},{"type":["Y"],"issuer":"did:elastos:c","subject":{"email":null,"address":{"city":"Berlin"}}}],"id":"did:elastos:c","controller":"did:elastos:a"}`,
	`{"credential":[{"type":["Y"],"issuer":"did:elastos:i","subject":{"bio":"` + long + `","a.b":1,"$x":2,"0":3}}],"id":"did:elastos:d","controller":["did:elastos:a","did:elastos:b"],"service":[{"type":"Hub"},{"type":"Vault"}]}`,
	`{"credential":[{"type":["X"],"issuer":"did:elastos:i","subject":{"email":"e@x","age":30.0,"ok":false}}],"id":"did:elastos:e"}`,
}

// finds reports whether plan p finds a document with postings ps.
func finds(p *Plan, ps []Posting) bool {
	switch p.Op {
	case PlanScan:
		return true
	case PlanLookup:
		if p.Values == nil {
			return slices.Contains(ps, Posting{Path: p.Path})
		}
		return slices.ContainsFunc(p.Values, func(v any) bool { return slices.Contains(ps, Posting{p.Path, v}) })
	case PlanAnd:
		for _, k := range p.Kids {
			if !finds(k, ps) {
				return false
			}
		}
		return true
	}
	return slices.ContainsFunc(p.Kids, func(k *Plan) bool { return finds(k, ps) })
}

// Each condition gets the plan it should; on every document, the plan finds
// every match, and exactly the matches when it says it is exact.
func TestPlan(t *testing.T) {
	for i, tc := range []struct{ cond, plan string }{
		{`{"service.type":"Hub"}`, `service.type in ["Hub"] exact`},
		{`{"service.type":{"$in":["Hub","Vault"]}}`, `service.type in ["Hub","Vault"] exact`},
		{`{"credential.issuer":"did:elastos:i","credential.type":"X"}`, `and(credential.issuer in ["did:elastos:i"], credential.type in ["X"]) exact`},
		{`{$or:[{"service.type":"Vault"},{"credential.subject.ok":true}]}`, `or(service.type in ["Vault"], credential.subject.ok in [true]) exact`},
		{`{$or:[{"service.type":"Vault"},{"expires":"x"}]}`, `scan`},
		{`{"credential.subject.email":{$exists:true}}`, `present(credential.subject.email) exact`},
		{`{"credential.subject.email":{$exists:false}}`, `scan`},
		{`{"credential.subject.age":30}`, `credential.subject.age in [30] exact`},
		{`{"credential.subject.age":{"$gt":18}}`, `present(credential.subject.age)`},
		{`{"credential.subject.age":0}`, `credential.subject.age in [0] exact`},
		{`{"credential.subject.tags":"t2"}`, `credential.subject.tags in ["t2"] exact`},
		{`{"credential.subject.address.city":"Berlin"}`, `present(credential.subject.address)`},
		{`{"credential.subject.bio":"` + long + `"}`, `present(credential.subject.bio)`},
		{`{"credential.subject.email":null}`, `scan`},
		{`{"credential.subject.a.b":1}`, `present(credential.subject.a)`},
		{`{"controller":"did:elastos:a"}`, `controller in ["did:elastos:a"] exact`},
		{`{"controller":{$exists:true},"id":{$ne:"did:elastos:c"}}`, `present(controller)`},
		{`{"credential":{"type":["X"],"subject":{"email":{$exists:true}}}}`, `and(credential.type in ["X"], present(credential.subject.email))`},
		{`{"credential":{$elemMatch:{"issuer":"did:elastos:i","subject.ok":true}}}`, `and(credential.issuer in ["did:elastos:i"], credential.subject.ok in [true])`},
		{`{"id":"did:elastos:c","$comment":"x"}`, `id in ["did:elastos:c"] exact`},
		{`{"credential.0.type":"X"}`, `scan`},
		{`{}`, `scan`},
		{`{$nor:[{"service.type":"Hub"}]}`, `scan`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			c, err := Compile(tc.cond)
			if err != nil {
				t.Fatalf("%s: %v", tc.cond, err)
			}
			p := c.Plan(viewIndex)
			if got := p.String(); got != tc.plan {
				t.Errorf("%s: plan %s, want %s", tc.cond, got, tc.plan)
			}
			for _, doc := range planDocs {
				match, found := c.Match([]byte(doc)), finds(p, viewIndex.Postings([]byte(doc)))
				if match && !found || p.Exact && found != match {
					t.Errorf("%s on %s: matches %v, the plan %s finds it %v", tc.cond, doc, match, p, found)
				}
			}
		})
	}
}

// A document's postings: each reached scalar once, presence, short values
// only, and member names a path can spell.
func TestPostings(t *testing.T) {
	got := viewIndex.Postings([]byte(planDocs[3]))
	want := []Posting{
		{"id", "did:elastos:d"}, {Path: "id"},
		{"controller", "did:elastos:a"}, {"controller", "did:elastos:b"}, {Path: "controller"},
		{"service.type", "Hub"}, {"service.type", "Vault"}, {Path: "service.type"},
		{"credential.type", "Y"}, {Path: "credential.type"},
		{"credential.issuer", "did:elastos:i"}, {Path: "credential.issuer"},
		{Path: "credential.subject.bio"},
	}
	if !slices.Equal(got, want) {
		t.Errorf("postings\n got %v\nwant %v", got, want)
	}
	for _, doc := range planDocs {
		if got, want := viewIndex.EncodedPostings(mustEncode(t, []byte(doc))), viewIndex.Postings([]byte(doc)); !slices.Equal(got, want) {
			t.Errorf("postings of the encoded form of %s\n got %v\nwant %v", doc, got, want)
		}
	}
	if got := viewIndex.EncodedPostings([]byte{9}); got != nil {
		t.Errorf("postings of bytes that are no encoded form: %v", got)
	}
}

// FuzzPlan checks, for any condition, that its plan over planDocs finds
// every document the condition matches, and only those when exact.
func FuzzPlan(f *testing.F) {
	for _, s := range seedConditions {
		f.Add(s)
	}
	f.Add(`{"credential":{"type":["X"],"subject":{"age":{$in:[30,-0]}}},"service.type":"Hub"}`)
	f.Fuzz(func(t *testing.T, text string) {
		c, err := Compile(text)
		if err != nil {
			return
		}
		p := c.Plan(viewIndex)
		for _, doc := range planDocs {
			match, found := c.Match([]byte(doc)), finds(p, viewIndex.Postings([]byte(doc)))
			if match && !found || p.Exact && found != match {
				t.Fatalf("%s on %s: matches %v, the plan %s finds it %v", text, doc, match, p, found)
			}
		}
	})
}
