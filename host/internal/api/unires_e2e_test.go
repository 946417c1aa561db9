package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/google/go-cmp/cmp"
)

// send makes a request to url with body (none when empty) and the Accept
// header, if any, and returns the status, the Content-Type and the body.
func send(t *testing.T, method, url, body string, accept ...string) (int, string, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if len(accept) > 0 {
		req.Header.Set("Accept", accept[0])
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), b
}

// The Universal Resolver's companion endpoints answer its shapes
// (universal-resolver openapi/openapi.yaml): a list of methods, and maps
// keyed by method of traits, properties and test identifiers: here the
// DIDs on the chain that are not deactivated, in creation order, each of
// which resolves, read again when the chain moves.
func TestUniversalResolverCompanions(t *testing.T) {
	n := startNode(t, 0)
	base := strings.TrimSuffix(n.rest, "/api/v1")
	far := time.Now().AddDate(3, 0, 0)
	var ids []string
	for _, name := range []string{"ur alice", "ur bob", "ur carol"} {
		id := newIdentity(t, name)
		n.publish(id, id.create(far))
		ids = append(ids, id.did.String())
	}
	// Listed, then deactivated: the list read again once the chain moved.
	if _, _, body := send(t, "GET", base+"/1.0/testIdentifiers", ""); string(body) != fmt.Sprintf(`{"elastos":[%q,%q,%q]}`, ids[0], ids[1], ids[2]) {
		t.Errorf("before bob's deactivate: %s", body)
	}
	bob := newIdentity(t, "ur bob")
	n.publish(bob, bob.deactivate())

	for _, tc := range []struct {
		path string
		want string
	}{
		{"/1.0/methods", `["elastos"]`},
		{"/1.0/traits", `{"elastos":{"deactivatable":true,"enumerable":true,"historyAvailable":true,"humanReadable":true,"updatable":true}}`},
		{"/1.0/testIdentifiers", fmt.Sprintf(`{"elastos":[%q,%q]}`, ids[0], ids[2])},
		{"/1.0/properties", fmt.Sprintf(`{"elastos":{"height":%d,"node":"devnet","version":"test"}}`, n.height())},
	} {
		t.Run(tc.path, func(t *testing.T) {
			status, ctype, body := send(t, "GET", base+tc.path, "")
			if status != 200 || ctype != "application/json; charset=utf-8" {
				t.Errorf("%d %s %s", status, ctype, body)
			}
			var got, want any
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			json.Unmarshal([]byte(tc.want), &want)
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s (-want +got):\n%s", tc.path, d)
			}
		})
	}
	t.Run("each test identifier resolves", func(t *testing.T) {
		for _, id := range []string{ids[0], ids[2]} {
			if got := n.w3c(id); got.status != 200 || got.get("didDocument", "id") != id {
				t.Errorf("%s: %d %s", id, got.status, got.body)
			}
		}
	})
	t.Run("a chain without DIDs lists none", func(t *testing.T) {
		empty := startNode(t, 0)
		_, _, body := send(t, "GET", strings.TrimSuffix(empty.rest, "/api/v1")+"/1.0/testIdentifiers", "")
		if string(body) != `{"elastos":[]}` {
			t.Errorf("%s", body)
		}
	})
}

// A light node keeps no index: it lists no test identifiers, and its
// properties say what it is, with its resolver's status.
func TestUniversalResolverLight(t *testing.T) {
	srv := api.NewLight(&stubLight{}, api.Options{Version: "v"})
	if err := srv.Listen("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- srv.Serve(ctx) }()
	defer func() { stop(); <-done }()
	base := strings.TrimSuffix(srv.RESTURL(), "/api/v1")
	for _, tc := range []struct{ path, want string }{
		{"/1.0/testIdentifiers", `{"elastos":[]}`},
		{"/1.0/properties", `{"elastos":{"height":4000000123,"light":{"Mode":"light"},"node":"light","version":"v"}}`},
		{"/1.0/methods", `["elastos"]`},
	} {
		t.Run(tc.path, func(t *testing.T) {
			if status, _, body := send(t, "GET", base+tc.path, ""); status != 200 || string(body) != tc.want {
				t.Errorf("%d %s, want %s", status, body, tc.want)
			}
		})
	}
}

// POST /1.0/identifiers/{DID} takes the options as a JSON object in its
// body (the Universal Resolver's resolvePost); options in the HTTP query
// win over the body's. A body that is not an object of scalars is
// INVALID_OPTIONS; a malformed DID is refused as GET refuses it.
func TestPostIdentifiers(t *testing.T) {
	n := startNode(t, 0)
	far := time.Now().AddDate(3, 0, 0)
	alice := newIdentity(t, "ur post alice")
	a := alice.did.String()
	create := n.publish(alice, alice.create(far))
	n.devIncreaseTime(100)
	update := n.publish(alice, alice.update(create, far, alice.service("hive", "HiveVault")))
	var all resolved
	n.result("resolvedid", map[string]any{"did": a, "all": true}, &all)
	createdAt := all.Transaction[1].Timestamp

	for _, tc := range []struct {
		name, path, body, accept string
		status                   int
		ctype                    string
		check                    string // the versionId of the document, or a substring of the error's detail
	}{
		{"no body", a, "", "", 200, w3c.MediaResolution, update},
		{"empty object", a, "{}", "", 200, w3c.MediaResolution, update},
		{"versionId", a, `{"versionId":"` + create + `"}`, "", 200, w3c.MediaResolution, create},
		{"versionTime", a, `{"versionTime":"` + createdAt + `"}`, "", 200, w3c.MediaResolution, create},
		{"a boolean", a, `{"expandRelativeUrls":true}`, "", 200, w3c.MediaResolution, update},
		{"null is no option", a, `{"versionId":null}`, "", 400, w3c.MediaResolution, "give a string"},
		{"the query wins", a + "?versionId=" + update, `{"versionId":"` + create + `"}`, "", 200, w3c.MediaResolution, update},
		{"encoded DID, query and body", url.PathEscape(a) + "?versionTime=" + url.QueryEscape(createdAt), `{"expandRelativeUrls":false}`, "", 200, w3c.MediaResolution, create},
		{"the document alone", a, `{"versionId":"` + create + `"}`, w3c.MediaDIDJSON, 200, w3c.MediaDIDJSON, ""},
		{"a number", a, `{"versionId":5}`, "", 400, w3c.MediaResolution, "versionId"},
		{"an object", a, `{"versionId":{"a":1}}`, "", 400, w3c.MediaResolution, "give a string"},
		{"not an object", a, `["versionId"]`, "", 400, w3c.MediaResolution, "not a JSON object"},
		{"not JSON", a, `versionId=x`, "", 400, w3c.MediaResolution, "not a JSON object"},
		{"an unknown option", a, `{"colour":"red"}`, "", 400, w3c.MediaResolution, "colour"},
		{"a DID URL", a + "%23primary", `{}`, "", 200, w3c.MediaDereferencing, ""},
		{"a DID URL, bad body", a + "%23primary", `[]`, "", 400, w3c.MediaDereferencing, "not a JSON object"},
		{"a malformed DID wins", "did:elastos:", `[]`, "", 400, w3c.MediaResolution, "did:elastos:"},
		{"another method", "did:web:example.com", `{}`, "", 501, w3c.MediaResolution, `"web"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, ctype, body := send(t, "POST", n.identifiersURL()+tc.path, tc.body, tc.accept)
			if status != tc.status || ctype != tc.ctype {
				t.Fatalf("%d %s %s, want %d %s", status, ctype, body, tc.status, tc.ctype)
			}
			var m struct {
				DIDDocumentMetadata   struct{ VersionID string }
				DIDResolutionMetadata struct{ Error struct{ Type, Detail string } }
				DereferencingMetadata struct{ Error struct{ Type, Detail string } }
				ID                    string
			}
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatalf("%s: %v", body, err)
			}
			detail := m.DIDResolutionMetadata.Error.Detail + m.DereferencingMetadata.Error.Detail
			switch {
			case tc.status == 200 && tc.ctype == w3c.MediaResolution && m.DIDDocumentMetadata.VersionID != tc.check:
				t.Errorf("versionId %s, want %s", m.DIDDocumentMetadata.VersionID, tc.check)
			case tc.ctype == w3c.MediaDIDJSON && m.ID != a:
				t.Errorf("the document alone: %s", body)
			case tc.status >= 400 && !strings.Contains(detail, tc.check):
				t.Errorf("detail %q, want it to say %q", detail, tc.check)
			}
		})
	}
	t.Run("POST without options is GET", func(t *testing.T) {
		_, _, post := send(t, "POST", n.identifiersURL()+a, "")
		if get := n.w3c(a); string(get.body) != string(post) {
			t.Errorf("GET %s\nPOST %s", get.body, post)
		}
	})
}
