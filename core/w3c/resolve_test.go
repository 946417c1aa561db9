package w3c_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/w3c"
)

// The answer to a DID with three operations, pinned byte for byte: member
// order, metadata and representation are the interface.
func TestResolveExact(t *testing.T) {
	u := newUser(t, "exact")
	h := standard(t, u, 1, false, 365*24*time.Hour)
	tip := w3c.Tip{Height: 110, Time: t0.AddDate(0, 0, 10).Unix()}
	resp := resolveRequest(t, h, tip, u.subject.String(), "", "")
	doc := string(h.docs[1].Normalized())
	want := `{"didDocument":` + doc + `,"didResolutionMetadata":{"contentType":"application/did+json"},` +
		`"didDocumentMetadata":{"created":"2026-03-01T12:00:00Z","updated":"2026-03-02T12:00:00Z","versionId":"` + h.entries[1].Txid + `",` +
		`"method":{"status":0,"statusName":"valid","expires":"2027-03-02T12:00:00Z","operation":"update","height":101,"confirmations":10,"transactionCount":2}}}`
	if resp.Status != 200 || resp.ContentType != w3c.MediaResolution || resp.Location != "" || string(resp.Body) != want {
		t.Errorf("got %d %s %q\n%s\nwant\n%s", resp.Status, resp.ContentType, resp.Location, resp.Body, want)
	}
	if !strings.HasPrefix(doc, `{"id":"did:elastos:`) || strings.Contains(doc, `"#`) {
		t.Errorf("the document is not in full form, as published (without a context): %s", doc)
	}
}

// Versions: the latest, one by versionId, one by versionTime, the create.
func TestResolveVersions(t *testing.T) {
	u := newUser(t, "versions")
	h := standard(t, u, 3, false, 365*24*time.Hour)
	tip := w3c.Tip{Height: 120, Time: t0.AddDate(0, 0, 20).Unix()}
	d := u.subject.String()
	for _, tc := range []struct {
		name, id, options string
		index             int // the operation whose document is answered
	}{
		{"latest", d, "", 3},
		{"versionId of the create", d + "?versionId=" + h.entries[0].Txid, "", 0},
		{"versionId in upper case", d + "?versionId=" + strings.ToUpper(h.entries[2].Txid), "", 2},
		{"versionId as an option", d, "versionId=" + h.entries[1].Txid, 1},
		{"versionTime at an update", d + "?versionTime=" + did.FormatTime(t0.AddDate(0, 0, 2)), "", 2},
		{"versionTime between", d + "?versionTime=2026-03-03T00:00:00Z", "", 1},
		{"versionTime with an offset", d, "versionTime=2026-03-02T21%3A00%3A00%2B08%3A00", 1},
		{"versionTime with a fraction", d, "versionTime=2026-03-02T12:00:00.9Z", 1},
		{"versionTime after the latest", d + "?versionTime=2030-01-01T00:00:00Z", "", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := resolveRequest(t, h, tip, tc.id, tc.options, w3c.MediaResolution)
			m := decode(t, resp)
			e := h.entries[tc.index]
			var next any
			if tc.index < 3 {
				next = h.entries[tc.index+1].Txid
			}
			if resp.Status != 200 || m.get("didDocumentMetadata", "versionId") != e.Txid || m.get("didDocumentMetadata", "nextVersionId") != next ||
				m.get("didDocument", "service") == nil || len(m.get("didDocument", "service").([]any)) != tc.index+1 {
				t.Errorf("%s: %d %s", tc.name, resp.Status, resp.Body)
			}
			updated := m.get("didDocumentMetadata", "updated")
			if (tc.index == 0) != (updated == nil) || tc.index > 0 && updated != did.FormatTime(time.Unix(e.Time, 0)) {
				t.Errorf("%s: updated %v, want the time of operation %d (none for the create)", tc.name, updated, tc.index)
			}
			if tc.index < 3 && m.get("didDocumentMetadata", "nextUpdate") != did.FormatTime(time.Unix(h.entries[tc.index+1].Time, 0)) {
				t.Errorf("%s: nextUpdate %v", tc.name, m.get("didDocumentMetadata", "nextUpdate"))
			}
			if m.get("didDocumentMetadata", "method", "transactionCount") != 4.0 || m.get("didDocumentMetadata", "method", "height") != float64(100+tc.index) {
				t.Errorf("%s: method metadata %v", tc.name, m.get("didDocumentMetadata", "method"))
			}
		})
	}
}

// A deactivated DID answers 410 with its last document; an older version
// of it is not deactivated. An expired one answers 200, its expiry in the
// method metadata.
func TestResolveStatuses(t *testing.T) {
	gone := newUser(t, "gone")
	h := standard(t, gone, 1, true, 365*24*time.Hour)
	tip := w3c.Tip{Height: 200, Time: t0.AddDate(0, 1, 0).Unix()}
	resp := resolveRequest(t, h, tip, gone.subject.String(), "", "")
	m := decode(t, resp)
	if resp.Status != 410 || m.get("didDocumentMetadata", "deactivated") != true || m.get("didDocument", "id") != gone.subject.String() ||
		m.get("didDocumentMetadata", "versionId") != h.entries[1].Txid || m.get("didDocumentMetadata", "method", "statusName") != "deactivated" ||
		m.get("didDocumentMetadata", "method", "deactivation", "txid") != h.entries[2].Txid {
		t.Errorf("deactivated: %d %s", resp.Status, resp.Body)
	}
	for _, accept := range []string{w3c.MediaDIDJSON, w3c.MediaDereferencing} {
		if resp := resolveRequest(t, h, tip, gone.subject.String(), "", accept); resp.Status != 410 {
			t.Errorf("deactivated, %s: %d %s", accept, resp.Status, resp.Body)
		}
	}
	resp = resolveRequest(t, h, tip, gone.subject.String()+"?versionId="+h.entries[0].Txid, "", "")
	m = decode(t, resp)
	if resp.Status != 200 || m.get("contentMetadata", "deactivated") != nil || m.get("contentMetadata", "method", "status") != 2.0 {
		t.Errorf("the create of a deactivated DID: %d %s", resp.Status, resp.Body)
	}
	resp = resolveRequest(t, h, tip, gone.subject.String()+"?versionId="+h.entries[2].Txid, "", "")
	if m = decode(t, resp); resp.Status != 410 || m.get("contentMetadata", "versionId") != h.entries[1].Txid {
		t.Errorf("the deactivate's version: %d %s", resp.Status, resp.Body)
	}

	late := newUser(t, "expired")
	h = standard(t, late, 0, false, time.Hour)
	resp = resolveRequest(t, h, tip, late.subject.String(), "", "")
	m = decode(t, resp)
	if resp.Status != 200 || m.get("didDocumentMetadata", "method", "status") != 1.0 || m.get("didDocumentMetadata", "method", "expires") != "2026-03-01T13:00:00Z" ||
		m.get("didDocument") == nil {
		t.Errorf("expired: %d %s", resp.Status, resp.Body)
	}

	resp = resolveRequest(t, &history{subject: late.subject}, tip, late.subject.String(), "", "")
	if m = decode(t, resp); resp.Status != 404 || m.get("didResolutionMetadata", "error", "type") != string(w3c.NotFound) || m.get("didDocument") != nil {
		t.Errorf("not found: %d %s", resp.Status, resp.Body)
	}
}

// Customized DIDs resolve whatever the case, naming the DID as written in
// canonicalId; a transfer's document is the new owner's.
func TestResolveCustomized(t *testing.T) {
	a, b, c, next := newUser(t, "a"), newUser(t, "b"), newUser(t, "c"), newUser(t, "next")
	h := transferred(t, a, b, c, next)
	tip := w3c.Tip{Height: 150, Time: t0.AddDate(0, 0, 5).Unix()}
	for _, id := range []string{"did:elastos:AcmeCorp", "did:elastos:acmecorp"} {
		resp := resolveRequest(t, h, tip, id, "", "")
		m := decode(t, resp)
		var canonical any
		if id != "did:elastos:AcmeCorp" {
			canonical = "did:elastos:AcmeCorp"
		}
		if resp.Status != 200 || m.get("didDocument", "controller") != next.subject.String() || m.get("didDocumentMetadata", "method", "operation") != "transfer" ||
			m.get("didDocumentMetadata", "canonicalId") != canonical || m.get("didDocumentMetadata", "updated") == nil {
			t.Errorf("%s: %d %s", id, resp.Status, resp.Body)
		}
	}
	resp := resolveRequest(t, h, tip, "did:elastos:acmecorp?versionId="+h.entries[0].Txid, "", w3c.MediaDIDLD)
	var doc map[string]any
	if err := json.Unmarshal(resp.Body, &doc); err != nil || resp.Status != 200 || doc["multisig"] != "2:3" || len(doc["controller"].([]any)) != 3 || len(doc["proof"].([]any)) != 2 {
		t.Errorf("the created multisig document: %d %s", resp.Status, resp.Body)
	}
	resp = resolveRequest(t, h, tip, "did:elastos:ACMECORP?service=shop", "", "")
	if resp.Status != 303 || resp.Location != "https://shop.example.org/AcmeCorp" {
		t.Errorf("the transferred DID's service: %d %q %s", resp.Status, resp.Location, resp.Body)
	}
}

// Each representation: the content type, and @context where JSON-LD is
// asked for (DefaultContext for a document published without one), in a
// result as the document was published, and never in application/did+json.
func TestRepresentations(t *testing.T) {
	u, v := newUser(t, "representations"), newUser(t, "representations ld")
	plain := standard(t, u, 0, false, 365*24*time.Hour)
	ld := &history{subject: v.subject}
	doc, err := v.document(t, t0.AddDate(1, 0, 0)).WithContext(w3c.DefaultContext).Sign(v.priv, v.primary, t0)
	if err != nil {
		t.Fatal(err)
	}
	create, err := idop.NewCreate(doc, v.primary, v.priv)
	if err != nil {
		t.Fatal(err)
	}
	ld.add(t, create)
	tip := w3c.Tip{Height: 101, Time: t0.Unix()}
	const asPublished = 2 // context: with the document's own, if any
	for i, tc := range []struct {
		accept, contentType string
		context             int // 0 none, 1 one, asPublished
		wrapped             bool
	}{
		{"", w3c.MediaResolution, asPublished, true},
		{"*/*", w3c.MediaResolution, asPublished, true},
		{"application/*", w3c.MediaResolution, asPublished, true},
		{w3c.MediaResolution, w3c.MediaResolution, asPublished, true},
		{w3c.MediaResolutionLD, w3c.MediaResolutionLD, asPublished, true},
		{`application/ld+json; profile="https://w3id.org/did-resolution"`, w3c.MediaResolutionLD, asPublished, true},
		{"application/ld+json", w3c.MediaResolutionLD, asPublished, true},
		{w3c.MediaDereferencing, w3c.MediaDereferencing, asPublished, true},
		{w3c.MediaDIDLD, w3c.MediaDIDLD, 1, false},
		{w3c.MediaDID, w3c.MediaDID, 1, false},
		{w3c.MediaDIDJSON, w3c.MediaDIDJSON, 0, false},
		{"application/did-resolution,application/did+json", w3c.MediaResolution, asPublished, true},
		{"application/did+json, application/did-resolution", w3c.MediaDIDJSON, 0, false},
		{"application/did-resolution;q=0.5, application/did+json", w3c.MediaDIDJSON, 0, false},
		{"*/*;q=0.1, application/did+ld+json", w3c.MediaDIDLD, 1, false},
		{"*/*, application/did+json", w3c.MediaDIDJSON, 0, false},
		{"application/did+json;q=0, */*", w3c.MediaResolution, asPublished, true},
		{"text/html, application/did+json;q=0.9", w3c.MediaDIDJSON, 0, false},
		{"APPLICATION/DID+JSON", w3c.MediaDIDJSON, 0, false},
		{"application/did+json; charset=utf-8", w3c.MediaDIDJSON, 0, false},
		{"garbage, application/did+json;q=x, application/did+ld+json;q=0.3", w3c.MediaDIDLD, 1, false},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, h := range []*history{plain, ld} {
				d := h.subject.String()
				published := h == ld
				resp := resolveRequest(t, h, tip, d, "", tc.accept)
				m := decode(t, resp)
				doc, meta := m, m
				if tc.wrapped {
					key, metaKey := "didDocument", "didResolutionMetadata"
					if strings.Contains(tc.contentType, "dereferencing") {
						key, metaKey = "contentStream", "dereferencingMetadata"
					}
					doc, _ = m[key].(map[string]any)
					meta, _ = m[metaKey].(map[string]any)
				}
				context := tc.context == 1 || tc.context == asPublished && published
				if resp.Status != 200 || resp.ContentType != tc.contentType || doc == nil || doc["id"] != d || (doc["@context"] != nil) != context {
					t.Errorf("Accept %q, published with a context %v: %d %s %s", tc.accept, published, resp.Status, resp.ContentType, resp.Body)
				}
				if tc.wrapped && meta["contentType"] != map[bool]string{true: w3c.MediaDIDLD, false: w3c.MediaDIDJSON}[context] {
					t.Errorf("Accept %q, published with a context %v: contentType %v", tc.accept, published, meta["contentType"])
				}
			}
		})
	}
	d := plain.subject.String()
	h := plain
	for _, accept := range []string{"text/html", "application/json", "application/did+json;q=0", "application/did-resolution;profile=x", "text/uri-list", "x"} {
		resp := resolveRequest(t, h, tip, d, "", accept)
		m := decode(t, resp)
		if resp.Status != 406 || resp.ContentType != w3c.MediaResolution || m.get("didResolutionMetadata", "error", "type") != string(w3c.RepresentationNotSupported) {
			t.Errorf("Accept %q: %d %s %s", accept, resp.Status, resp.ContentType, resp.Body)
		}
	}
}

// Fragments name a key, a service or a credential of the document.
func TestFragments(t *testing.T) {
	u := newUser(t, "fragments")
	h := standard(t, u, 1, false, 365*24*time.Hour)
	tip := w3c.Tip{Height: 105, Time: t0.AddDate(0, 0, 4).Unix()}
	d := u.subject.String()
	for i, tc := range []struct {
		fragment, member, value string
	}{
		{"primary", "publicKeyBase58", u.priv.Public().Base58()},
		{"hive", "serviceEndpoint", "https://hive.example.org/vault"},
		{"web0", "type", "LinkedDomains"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, accept := range []string{"", w3c.MediaDIDLD, w3c.MediaDIDJSON} {
				resp := resolveRequest(t, h, tip, d+"#"+tc.fragment, "", accept)
				m := decode(t, resp)
				entry := m
				if accept == "" {
					entry, _ = m["contentStream"].(map[string]any)
				}
				if resp.Status != 200 || entry == nil || entry["id"] != d+"#"+tc.fragment || entry[tc.member] != tc.value || (entry["@context"] != nil) != (accept == w3c.MediaDIDLD) {
					t.Errorf("#%s, Accept %q: %d %s", tc.fragment, accept, resp.Status, resp.Body)
				}
			}
		})
	}
	resp := resolveRequest(t, h, tip, d+"?versionId="+h.entries[0].Txid+"#web0", "", "")
	if m := decode(t, resp); resp.Status != 404 || m.get("dereferencingMetadata", "error", "type") != string(w3c.NotFound) || resp.ContentType != w3c.MediaDereferencing {
		t.Errorf("a service the older version lacks: %d %s", resp.Status, resp.Body)
	}
	resp = resolveRequest(t, h, tip, d+"#primary", "", w3c.MediaResolution)
	if resp.Status != 406 {
		t.Errorf("a fragment as a resolution result: %d %s", resp.Status, resp.Body)
	}
}

// Service selection: a 303 to the endpoint with relativeRef and the
// fragment, the endpoints as a dereferencing result, or the document with
// the selected services only.
func TestServices(t *testing.T) {
	u := newUser(t, "services")
	h := standard(t, u, 2, false, 365*24*time.Hour)
	tip := w3c.Tip{Height: 105, Time: t0.AddDate(0, 0, 4).Unix()}
	d := u.subject.String()
	for i, tc := range []struct{ id, location string }{
		{d + "?service=hive", "https://hive.example.org/vault"},
		{d + "?service=%23hive", "https://hive.example.org/vault"},
		{d + "?service=" + strings.ReplaceAll(d, ":", "%3A") + "%23hive", "https://hive.example.org/vault"},
		{d + "?service=hive&relativeRef=%2Fsome%2Fpath%3Fquery#frag", "https://hive.example.org/vault/some/path?query#frag"},
		{d + "?service=hive&relativeRef=/resume.pdf", "https://hive.example.org/vault/resume.pdf"},
		{d + "?service=web0&relativeRef=a%2Fb", "https://example.org/0/a/b"},
		{d + "?service=web1&relativeRef=%3Fx%3D1%23top", "https://example.org/1/?x=1#top"},
		{d + "?serviceType=HiveVault", "https://hive.example.org/vault"},
		{d + "?serviceType=LinkedDomains&relativeRef=%2Fx", "https://example.org/0/x"},
		{d + "?service=web1&serviceType=LinkedDomains", "https://example.org/1/"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			for _, accept := range []string{"", "*/*", w3c.MediaURIList} {
				resp := resolveRequest(t, h, tip, tc.id, "", accept)
				if resp.Status != 303 || resp.Location != tc.location || len(resp.Body) != 0 || resp.ContentType != "" {
					t.Errorf("%s, Accept %q: %d %q %q %s, want 303 to %s", tc.id, accept, resp.Status, resp.Location, resp.ContentType, resp.Body, tc.location)
				}
			}
		})
	}
	resp := resolveRequest(t, h, tip, d+"?serviceType=LinkedDomains", "", w3c.MediaDereferencing)
	m := decode(t, resp)
	if resp.Status != 200 || m["contentStream"] != "https://example.org/0/\r\nhttps://example.org/1/" || m.get("dereferencingMetadata", "contentType") != w3c.MediaURIList {
		t.Errorf("the endpoints as a result: %d %s", resp.Status, resp.Body)
	}
	resp = resolveRequest(t, h, tip, d+"?serviceType=LinkedDomains", "", w3c.MediaDIDJSON)
	var doc struct{ Service []struct{ ID string } }
	if err := json.Unmarshal(resp.Body, &doc); err != nil || resp.Status != 200 || len(doc.Service) != 2 || doc.Service[0].ID != d+"#web0" {
		t.Errorf("the document with the selected services: %d %s", resp.Status, resp.Body)
	}
	for i, tc := range []struct {
		id     string
		status int
		typ    w3c.ErrorType
	}{
		{d + "?service=nope", 404, w3c.NotFound},
		{d + "?serviceType=Nope", 404, w3c.NotFound},
		{d + "?service=hive&serviceType=LinkedDomains", 404, w3c.NotFound},
		{d + "?service=hive&relativeRef=..%2Fx", 400, w3c.InvalidDIDURL},
		{d + "?service=hive&relativeRef=%2Fa%2F%252E%252E%2Fb", 400, w3c.InvalidDIDURL},
		{d + "?service=hive&relativeRef=a%5C..%5Cb", 400, w3c.InvalidDIDURL},
		{d + "?service=hive&relativeRef=%2F%2Fevil.example%2Fx", 400, w3c.InvalidDIDURL},
		{d + "?service=hive&relativeRef=https%3A%2F%2Fevil.example", 400, w3c.InvalidDIDURL},
		{d + "?service=hive&relativeRef=%20x", 400, w3c.InvalidDIDURL},
		{d + "?relativeRef=%2Fx", 400, w3c.InvalidDIDURL},
		{d + "?service=", 400, w3c.InvalidDIDURL},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			resp := resolveRequest(t, h, tip, tc.id, "", "")
			m := decode(t, resp)
			if resp.Status != tc.status || m.get("dereferencingMetadata", "error", "type") != string(tc.typ) {
				t.Errorf("%s: %d %s, want %d %s", tc.id, resp.Status, resp.Body, tc.status, tc.typ)
			}
		})
	}
}

// Requests that cannot be answered get the error, its status and a detail
// that quotes at most about 100 bytes of the input.
func TestRequestErrors(t *testing.T) {
	u := newUser(t, "errors")
	h := standard(t, u, 0, false, 365*24*time.Hour)
	tip := w3c.Tip{Height: 101, Time: t0.Unix()}
	d := u.subject.String()
	long := strings.Repeat("x", 5000)
	for i, tc := range []struct {
		id, options string
		typ         w3c.ErrorType
		detail      string
	}{
		{"", "", w3c.InvalidDID, `does not start with "did:"`},
		{u.subject.ID(), "", w3c.InvalidDID, "does not start"},
		{"did:", "", w3c.InvalidDID, "method name"},
		{"did:elastos", "", w3c.InvalidDID, "method name"},
		{"did:Elastos:x", "", w3c.InvalidDID, "method name"},
		{"did:elastos:", "", w3c.InvalidDID, "is empty"},
		{"did:elastos:a b", "", w3c.InvalidDID, "' '"},
		{"did:elastos:abc:", "", w3c.InvalidDID, "ends with ':'"},
		{"did:elastos:%zz", "", w3c.InvalidDID, "'%'"},
		{"did:elastos:_abc", "", w3c.InvalidDID, "not a did:elastos DID"},
		{"did:elastos:a:b", "", w3c.InvalidDID, "not a did:elastos DID"},
		{"did:elastos:" + long, "", w3c.InvalidDID, "bytes long"},
		{"did:elastos:x#a b", "", w3c.InvalidDIDURL, "fragment"},
		{"did:elastos:x?a b", "", w3c.InvalidDIDURL, "query"},
		{"did:elastos:x/a b", "", w3c.InvalidDIDURL, "path"},
		{"did:web:example.org", "", w3c.MethodNotSupported, `"web"`},
		{"did:web:example.org#key", "", w3c.MethodNotSupported, "did:elastos only"},
		{d + "?foo=1", "", w3c.InvalidDIDURL, `unknown DID parameter "foo"`},
		{d + "?hl=zQm", "", w3c.FeatureNotSupported, "hl"},
		{d + "?versionId=1&versionId=2", "", w3c.InvalidDIDURL, "twice"},
		{d + "?versionId=%zz", "", w3c.InvalidDIDURL, "query has '%'"},
		{d + "?versionId=abc", "", w3c.InvalidDIDURL, "64 hex digits"}, // a DID parameter: the DID URL is invalid
		{d + "?versionTime=yesterday", "", w3c.InvalidDIDURL, "XML datetime"},
		{d + "?versionTime=2026-03-01T12:00:00", "", w3c.InvalidDIDURL, "XML datetime"},
		{d + "?versionId=" + h.entries[0].Txid + "&versionTime=2026-03-01T12:00:00Z", "", w3c.InvalidDIDURL, "exclude each other"},
		{d, "versionId=abc", w3c.InvalidOptions, "64 hex digits"}, // an option: the options are
		{d, "versionTime=yesterday", w3c.InvalidOptions, "XML datetime"},
		{d + "#primary", "versionTime=yesterday", w3c.InvalidOptions, "XML datetime"},
		{d, "versionId=" + h.entries[0].Txid + "&versionTime=2026-03-01T12:00:00Z", w3c.InvalidOptions, "exclude each other"},
		{d + "?versionId=" + h.entries[0].Txid, "versionId=" + h.entries[0].Txid, w3c.InvalidOptions, "twice"},
		{d, "foo=bar", w3c.InvalidOptions, `unknown option "foo"`},
		{d, "accept=application%2Fdid%2Bjson", w3c.InvalidOptions, "Accept header"},
		{d, "expandRelativeUrls=yes", w3c.InvalidOptions, "true or false"},
		{d, "verificationRelationship=authentication", w3c.FeatureNotSupported, "verificationRelationship"},
		{d, "versionId=%zz", w3c.InvalidOptions, "%-escape"},
		{d, "x=" + long, w3c.InvalidOptions, "longer than"},
		{d, long + "=1", w3c.InvalidOptions, "longer than"},
		{d + "?versionId=" + strings.Repeat("ab", 32), "", w3c.NotFound, "no operation"},
		{d + "?versionTime=2000-01-01T00:00:00Z", "", w3c.NotFound, "did not exist yet"},
		{d + "/path", "", w3c.NotFound, "no DID URL path"},
		{d + "#nope", "", w3c.NotFound, `"nope"`},
		{"did:elastos:" + strings.Repeat("q", 90) + "?foo=" + strings.Repeat("z", 500), "", w3c.InvalidDIDURL, "unknown DID parameter"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			resp := resolveRequest(t, h, tip, tc.id, tc.options, "")
			m := decode(t, resp)
			meta := "didResolutionMetadata"
			if strings.ContainsAny(tc.id, "/?#") {
				meta = "dereferencingMetadata"
			}
			detail, _ := m.get(meta, "error", "detail").(string)
			if resp.Status != tc.typ.Status() || m.get(meta, "error", "type") != string(tc.typ) || !strings.Contains(detail, tc.detail) || m.get(meta, "error", "title") == "" {
				t.Errorf("%.60q %.60q: %d %.400s, want %d %s with %q", tc.id, tc.options, resp.Status, resp.Body, tc.typ.Status(), tc.typ, tc.detail)
			}
			if len(detail) > 400 {
				t.Errorf("%.60q: a detail of %d bytes echoes too much: %.500s", tc.id, len(detail), detail)
			}
		})
	}
	if (&w3c.Error{Type: w3c.NotFound, Detail: "x"}).Error() == "" || w3c.ErrorType("https://example.org/other").Status() != 500 {
		t.Error("Error or Status")
	}
}

// A request answered from a broken history or a failing store is an
// INTERNAL_ERROR, and the cause is returned.
func TestResolveInternal(t *testing.T) {
	u := newUser(t, "internal")
	h := standard(t, u, 0, false, 365*24*time.Hour)
	broken := h.w3c()
	broken.Document = func(int) (*did.Document, error) { return nil, fmt.Errorf("disk on fire") }
	resp, err := w3c.Resolve(w3c.ParseRequest(u.subject.String(), "", ""), broken, w3c.Tip{Time: t0.Unix()})
	if err == nil || resp.Status != 500 || !strings.Contains(string(resp.Body), string(w3c.InternalError)) || strings.Contains(string(resp.Body), "fire") {
		t.Errorf("%v: %d %s", err, resp.Status, resp.Body)
	}
	req := w3c.ParseRequest(u.subject.String()+"#primary", "", "")
	if resp := req.InternalError(); resp.Status != 500 || resp.ContentType != w3c.MediaDereferencing {
		t.Errorf("InternalError: %d %s %s", resp.Status, resp.ContentType, resp.Body)
	}
	if resp := req.UpstreamFailure("the answer's signature 2 does not verify"); resp.Status != 502 || resp.ContentType != w3c.MediaDereferencing ||
		!strings.Contains(string(resp.Body), `"detail":"the answer's signature 2 does not verify"`) || !strings.Contains(string(resp.Body), string(w3c.InternalError)) {
		t.Errorf("UpstreamFailure: %d %s %s", resp.Status, resp.ContentType, resp.Body)
	}
	if d, ok := w3c.ParseRequest("did:web:x", "", "").DID(); ok || !d.IsZero() {
		t.Errorf("DID of a refused request: %v %v", d, ok)
	}
}
