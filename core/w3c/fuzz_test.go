package w3c_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/w3c"
)

// FuzzRequest answers any request from a fixed history: the answer is one
// the binding allows, its body JSON (or empty for a 303), and an error's
// detail quotes little of the input.
func FuzzRequest(f *testing.F) {
	u := newUser(f, "fuzz")
	h := standard(f, u, 2, false, 365*24*time.Hour)
	d := u.subject.String()
	for _, s := range []string{d, d + "#primary", d + "?service=hive&relativeRef=%2Fa%3Fb#c", d + "?versionId=" + h.entries[0].Txid,
		d + "?versionTime=2026-03-02T12:00:00Z", "did:web:x", "did:elastos:", "did:elastos:x/y?z#w", d + "?serviceType=LinkedDomains"} {
		f.Add(s, "", "")
		f.Add(s, "versionTime=2026-03-01T12%3A00%3A00Z", "application/did+json;q=0.5, */*;q=0.1")
		f.Add(s, "expandRelativeUrls=true", `application/ld+json;profile="https://w3id.org/did-resolution"`)
	}
	statuses := map[int]bool{200: true, 303: true, 400: true, 404: true, 406: true, 410: true, 501: true}
	tip := w3c.Tip{Height: 120, Time: t0.AddDate(0, 0, 20).Unix()}
	f.Fuzz(func(t *testing.T, id, options, accept string) {
		resp, err := w3c.Resolve(w3c.ParseRequest(id, options, accept), h.w3c(), tip)
		if err != nil || !statuses[resp.Status] {
			t.Fatalf("%q %q %q: %v, status %d", id, options, accept, err, resp.Status)
		}
		if resp.Status == 303 {
			if resp.Location == "" || len(resp.Body) != 0 || strings.ContainsAny(resp.Location, " \r\n\x00") {
				t.Fatalf("303 to %q with %q", resp.Location, resp.Body)
			}
			return
		}
		var body map[string]any
		if err := json.Unmarshal(resp.Body, &body); err != nil || resp.ContentType == "" {
			t.Fatalf("%q: body %q (%v), Content-Type %q", id, resp.Body, err, resp.ContentType)
		}
		if resp.Status < 400 || resp.Status == 410 {
			return
		}
		for _, meta := range []string{"didResolutionMetadata", "dereferencingMetadata"} {
			if m, ok := body[meta].(map[string]any); ok {
				e, _ := m["error"].(map[string]any)
				detail, _ := e["detail"].(string)
				typ, _ := e["type"].(string)
				if w3c.ErrorType(typ).Status() != resp.Status || len(detail) > 600 {
					t.Fatalf("error %q (%d bytes of detail) with status %d", typ, len(detail), resp.Status)
				}
				return
			}
		}
		t.Fatalf("an error answer without an error object: %s", resp.Body)
	})
}
