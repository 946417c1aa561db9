package resolve

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/internal/vectors"
)

func parseVector(t *testing.T, name string) *did.Document {
	t.Helper()
	doc, err := did.ParseDocument(vectors.Read("elastos-did-sdk/v2.2/" + name))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestView(t *testing.T) {
	doc := parseVector(t, "foobar.id.json")
	raw := View(doc)
	if !strings.HasPrefix(string(raw), `{"credential":[{"id":`) {
		t.Errorf("the credential member is not first: %.40s…", raw)
	}
	var view map[string]any
	if err := json.Unmarshal(raw, &view); err != nil {
		t.Fatal(err)
	}
	var norm map[string]any
	if err := json.Unmarshal(doc.Normalized(), &norm); err != nil {
		t.Fatal(err)
	}
	creds := view["credential"].([]any)
	delete(view, "credential")
	if got, want := mustJSON(t, view), mustJSON(t, norm); got != want {
		t.Errorf("the view changes the document:\n%s\n%s", got, want)
	}
	if len(creds) != 2 {
		t.Fatalf("%d credential entries, want 2", len(creds))
	}
	email, profile := creds[0].(map[string]any), creds[1].(map[string]any)
	want := `{"expirationDate":"2026-11-20T09:55:45Z","id":"did:elastos:foobar#email","issuanceDate":"2021-11-20T09:55:45Z","issuer":"did:elastos:example","subject":{"email":"foobar@example.com","id":"did:elastos:foobar"},"type":["EmailCredential","VerifiableCredential"]}`
	if got := mustJSON(t, email); got != want {
		t.Errorf("email entry\n got %s\nwant %s", got, want)
	}
	// A self-proclaimed credential names no issuer; the view says who.
	if profile["issuer"] != "did:elastos:foobar" || profile["subject"].(map[string]any)["name"] != "Foo Bar Inc" {
		t.Errorf("profile entry %v", profile)
	}
	bare := View(parseVector(t, "user4.id.json"))
	if !strings.HasPrefix(string(bare), `{"credential":[],`) || !json.Valid(bare) {
		t.Errorf("view of a document without credentials: %s", bare)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v) // sorts map keys
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestQueryResult(t *testing.T) {
	a, b := parseVector(t, "user3.id.json"), parseVector(t, "user4.id.json")
	got := string(QueryResult(7, 20, [][]byte{a.Normalized(), b.Normalized()}))
	want := `{"total":7,"start":20,"count":2,"document":[` + string(a.Normalized()) + `,` + string(b.Normalized()) + `]}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	if got := string(QueryResult(0, 0, nil)); got != `{"total":0,"start":0,"count":0,"document":[]}` {
		t.Errorf("empty result %s", got)
	}
}

func TestQueryPage(t *testing.T) {
	tests := []struct {
		skip, limit         int
		wantSkip, wantLimit int
		wantErr             string
	}{
		{0, 0, 0, DefaultQueryLimit, ""},
		{5, 1, 5, 1, ""},
		{0, MaxQueryLimit, 0, MaxQueryLimit, ""},
		{0, MaxQueryLimit + 1, 0, MaxQueryLimit, ""},
		{3, 1 << 40, 3, MaxQueryLimit, ""},
		{-1, 10, 0, 0, "skip -1 is negative"},
		{0, -5, 0, 0, "limit -5 is negative"},
	}
	for i, tc := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			skip, limit, err := QueryPage(tc.skip, tc.limit)
			switch {
			case tc.wantErr != "":
				if err == nil || err.Error() != tc.wantErr {
					t.Errorf("QueryPage(%d, %d): %v, want %q", tc.skip, tc.limit, err, tc.wantErr)
				}
			case err != nil || skip != tc.wantSkip || limit != tc.wantLimit:
				t.Errorf("QueryPage(%d, %d) = %d, %d, %v; want %d, %d", tc.skip, tc.limit, skip, limit, err, tc.wantSkip, tc.wantLimit)
			}
		})
	}
}
