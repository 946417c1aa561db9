package api

import (
	"encoding/json"
	"net/url"
	"testing"
)

// FuzzBodyOptions sends arbitrary bodies and queries to the POST form's
// options decoder: it refuses with a reason, or gives a query that parses
// and holds every option of the body the query does not give, with the
// query's own options kept as they were.
func FuzzBodyOptions(f *testing.F) {
	f.Add("", []byte(`{"versionId":"ab","expandRelativeUrls":true}`))
	f.Add("versionTime=2026-01-01T00%3A00%3A00Z", []byte(`{"versionTime":"x","n":1.5e3}`))
	f.Add("a=1", []byte(`[{"a":null}]`))
	f.Fuzz(func(t *testing.T, query string, body []byte) {
		merged, detail := mergeBodyOptions(query, body)
		if detail != "" {
			return
		}
		got, err := url.ParseQuery(merged)
		given, gerr := url.ParseQuery(query)
		if err != nil && gerr == nil {
			t.Fatalf("merged %q does not parse: %v", merged, err)
		}
		var opts map[string]json.RawMessage
		json.Unmarshal(body, &opts)
		for name, raw := range opts {
			want, ok := optionValue(raw)
			if !ok {
				t.Fatalf("%s=%s was not refused", name, raw)
			}
			if given.Has(name) {
				want = given.Get(name)
			}
			if got.Get(name) != want {
				t.Errorf("%s: %q in %q, want %q", name, got.Get(name), merged, want)
			}
		}
	})
}
