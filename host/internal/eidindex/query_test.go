package eidindex

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// published is what the node's final answers say a live DID's latest
// document holds.
type published struct {
	did         string
	services    []string
	credentials []string // credential types
}

// latestDocuments reads, from the node's final all=false answers, the
// latest document of each DID that is live (status 0).
func latestDocuments(t *testing.T, r *recorded) []published {
	t.Helper()
	var out []published
	for _, a := range resolves(t, r.checkpoints["final"]) {
		if a.all || !strings.HasSuffix(a.note, "all false") {
			continue
		}
		var res struct {
			DID         string
			Status      int
			Transaction []struct{ Operation struct{ Payload string } }
		}
		if err := json.Unmarshal(a.result, &res); err != nil {
			t.Fatal(err)
		}
		if res.Status != 0 || len(res.Transaction) == 0 {
			continue
		}
		payload, err := base64.RawURLEncoding.DecodeString(res.Transaction[0].Operation.Payload)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Service              []struct{ Type string }
			VerifiableCredential []struct{ Type []string }
		}
		if err := json.Unmarshal(payload, &doc); err != nil {
			t.Fatal(err)
		}
		p := published{did: res.DID}
		for _, s := range doc.Service {
			p.services = append(p.services, s.Type)
		}
		for _, c := range doc.VerifiableCredential {
			p.credentials = append(p.credentials, c.Type...)
		}
		out = append(out, p)
	}
	if len(out) < 4 {
		t.Fatalf("only %d live DIDs in the final answers", len(out))
	}
	return out
}

// query returns the ids of the documents of the page q answers.
func query(t *testing.T, ix *Index, q didindex.Query) []string {
	t.Helper()
	page, err := ix.Query(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Total    int
		Document []struct{ ID string }
	}
	if err := json.Unmarshal(page, &res); err != nil {
		t.Fatalf("%v: %s", err, page)
	}
	var ids []string
	for _, d := range res.Document {
		ids = append(ids, d.ID)
	}
	if res.Total != len(ids) {
		t.Errorf("total %d, %d on a page of %d", res.Total, len(ids), q.Limit)
	}
	return ids
}

// query finds by service type, credential type and condition the DIDs
// whose latest documents, as the node answered them, publish them.
func TestQuery(t *testing.T) {
	r := loadRecorded(t)
	ix := open(t, r, mem.New(), 0)
	feed(t, ix, r, r.checkpoint(t, "final"), 32)
	docs := latestDocuments(t, r)
	byService, byCredential := map[string][]string{}, map[string][]string{}
	for _, d := range docs {
		for _, s := range d.services {
			byService[s] = append(byService[s], d.did)
		}
		for _, c := range d.credentials {
			byCredential[c] = append(byCredential[c], d.did)
		}
	}
	if len(byService) == 0 {
		t.Fatal("no service published")
	}
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return slices.Compact(s) }
	for typ, want := range byService {
		t.Run("service "+typ, func(t *testing.T) {
			if got := query(t, ix, didindex.Query{Service: typ, Limit: 256}); !slices.Equal(sorted(got), sorted(want)) {
				t.Errorf("found %v, want %v", got, want)
			}
		})
	}
	for typ, want := range byCredential {
		t.Run("credential "+typ, func(t *testing.T) {
			if got := query(t, ix, didindex.Query{Credential: typ, Limit: 256}); !slices.Equal(sorted(got), sorted(want)) {
				t.Errorf("found %v, want %v", got, want)
			}
		})
	}
	t.Run("condition", func(t *testing.T) {
		cond, err := find.Compile(`{id: "` + docs[0].did + `"}`)
		if err != nil {
			t.Fatal(err)
		}
		if got := query(t, ix, didindex.Query{Condition: cond, Limit: 256}); !slices.Equal(got, []string{docs[0].did}) {
			t.Errorf("found %v, want %s", got, docs[0].did)
		}
	})
}
