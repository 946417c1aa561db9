package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/w3c"
)

// w3cAnswer is an answer of GET /1.0/identifiers/….
type w3cAnswer struct {
	status int
	header http.Header
	body   []byte
	m      map[string]any // the body read as a JSON object, when it is one
}

// get reads a member of the body by path.
func (a w3cAnswer) get(path ...string) any {
	var v any = a.m
	for _, p := range path {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[p]
	}
	return v
}

// identifiersURL is the node's W3C resolution endpoint.
func (n *node) identifiersURL() string {
	return strings.TrimSuffix(n.rest, "/api/v1") + "/1.0/identifiers/"
}

// w3c sends GET /1.0/identifiers/<path> with the Accept header, if any,
// and does not follow redirects.
func (n *node) w3c(path string, accept ...string) w3cAnswer {
	n.t.Helper()
	req, err := http.NewRequest("GET", n.identifiersURL()+path, nil)
	if err != nil {
		n.t.Fatal(err)
	}
	if len(accept) > 0 {
		req.Header.Set("Accept", accept[0])
	}
	c := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		n.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		n.t.Fatal(err)
	}
	a := w3cAnswer{status: resp.StatusCode, header: resp.Header, body: b}
	if len(b) > 0 {
		if err := json.Unmarshal(b, &a.m); err != nil {
			n.t.Fatalf("GET %s: %d, body %s is not a JSON object: %v", path, a.status, b, err)
		}
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != "*" {
		n.t.Errorf("GET %s: Access-Control-Allow-Origin %q, want * (a read is open to every origin)", path, got)
	}
	if resp.Header.Get("Vary") != "Accept" {
		n.t.Errorf("GET %s: Vary %q", path, resp.Header.Get("Vary"))
	}
	return a
}

// customizedDoc is the document of the customized DID name controlled by
// ctrls, signed by the first m of them (multisig m:n when n > 1), with a
// service #shop.
func customizedDoc(t testing.TB, name string, m int, expires time.Time, ctrls ...identity) *did.Document {
	t.Helper()
	ids := make([]string, len(ctrls))
	for i, c := range ctrls {
		ids[i] = c.did.String()
	}
	members := map[string]any{"id": "did:elastos:" + name, "controller": ids, "expires": did.FormatTime(expires),
		"service": []any{map[string]any{"id": "#shop", "type": "Shop", "serviceEndpoint": "https://shop.example.org/" + name}}}
	if len(ctrls) > 1 {
		members["multisig"] = fmt.Sprintf("%d:%d", m, len(ctrls))
	}
	text, _ := json.Marshal(members)
	doc, err := did.ParseDocument(text)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ctrls[:m] {
		if doc, err = doc.Sign(c.key, c.primary, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	return doc
}

// heightsRE finds the block heights a light client's answer cannot give.
var heightsRE = regexp.MustCompile(`,"height":\d+,"confirmations":\d+`)

// checkVerified requires that a light client, resolving d with all=true
// and verifying the answer, builds the node's W3C answer to path (d with
// its DID URL parts, percent-encoded as sent) byte for byte, but for the
// block heights, which a resolve result does not give.
func (n *node) checkVerified(d did.DID, path, accept string, docs did.Lookup) {
	n.t.Helper()
	got := n.w3c(path, accept)
	var result json.RawMessage
	n.result("resolvedid", map[string]any{"did": d.String(), "all": true}, &result)
	height := n.height()
	var block struct{ Time int64 }
	n.ok("/block/details/height/"+itoa(height), &block)
	rawPath, query, hasQuery := strings.Cut(path, "?")
	id, _ := url.PathUnescape(rawPath)
	var options string
	switch {
	case w3c.QueryIsOptions(query):
		options = query // as the binding reads them (identifierOf)
	case hasQuery:
		id += "?" + query
	}
	resp, err := w3c.ResolveVerified(w3c.ParseRequest(id, options, accept), result, docs, keys.Native{}, time.Unix(block.Time, 0))
	if err != nil {
		n.t.Errorf("%s: the light client refuses the node's history: %v", path, err)
		return
	}
	want := heightsRE.ReplaceAll(got.body, nil)
	if resp.Status != got.status || !bytes.Equal(resp.Body, want) || resp.Location != got.header.Get("Location") {
		n.t.Errorf("%s, Accept %q:\n node     %d %s\n verified %d %s", path, accept, got.status, want, resp.Status, resp.Body)
	}
}

// Every case of the binding against a node: valid, updated, historical by
// id and by time, fragments, service redirects, each media type, invalid
// and unknown DIDs, customized and transferred DIDs, deactivated and
// expired ones; and the light client's answer from the verified history
// matches the node's.
func TestW3CResolution(t *testing.T) {
	n := startNode(t, 0)
	far := time.Now().AddDate(3, 0, 0)

	alice := newIdentity(t, "w3c alice")
	a := alice.did.String()
	create := n.publish(alice, alice.create(far, alice.service("hive", "HiveVault")))
	n.devIncreaseTime(100)
	update := n.publish(alice, alice.update(create, far, alice.service("hive", "HiveVault"), alice.service("web", "LinkedDomains")))
	var all resolved
	n.result("resolvedid", map[string]any{"did": a, "all": true}, &all)
	createdAt, updatedAt := all.Transaction[1].Timestamp, all.Transaction[0].Timestamp

	got := n.w3c(a)
	var tx struct {
		Confirmations uint32
		BlockHash     string
	}
	n.ok("/transaction/"+update, &tx)
	if got.status != 200 || got.header.Get("Content-Type") != w3c.MediaResolution || got.get("didDocument", "id") != a ||
		got.get("didResolutionMetadata", "contentType") != w3c.MediaDIDJSON || got.get("didDocumentMetadata", "created") != createdAt ||
		got.get("didDocumentMetadata", "updated") != updatedAt || got.get("didDocumentMetadata", "versionId") != update ||
		got.get("didDocumentMetadata", "method", "confirmations") != float64(tx.Confirmations) ||
		got.get("didDocumentMetadata", "method", "transactionCount") != 2.0 || got.get("didDocumentMetadata", "nextVersionId") != nil {
		t.Errorf("alice: %d %v %s", got.status, got.header, got.body)
	}
	if h := got.get("didDocumentMetadata", "method", "height"); h != float64(n.height()-tx.Confirmations+1) {
		t.Errorf("alice: height %v, confirmations %d at tip %d", h, tx.Confirmations, n.height())
	}
	// The document is the one the chain holds, in full form: what the
	// update published (without a JSON-LD context, as it was published).
	published, err := idop.Decode(all.Transaction[0].op(t))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct{ DIDDocument json.RawMessage }
	json.Unmarshal(got.body, &raw)
	if doc, want := []byte(raw.DIDDocument), published.Document.Normalized(); !bytes.Equal(doc, want) {
		t.Errorf("the document:\n %s\nwant\n %s", doc, want)
	}

	// Historical versions, by txid and by time: as resolution options in
	// the HTTP query, after the DID as it is (as clients send them) or
	// percent-encoded (as the binding writes it), a resolution result; as
	// the DID parameters of a DID URL, its query percent-encoded, a
	// dereferencing result.
	encoded := strings.ReplaceAll(a, ":", "%3A")
	for i, tc := range []struct{ path, version, next string }{
		{a + "?versionId=" + create, create, update},
		{a + "?versionId=" + strings.ToUpper(update), update, ""},
		{encoded + "?versionId=" + create, create, update},
		{a + "?versionTime=" + url.QueryEscape(createdAt), create, update},
		{a + "?versionTime=" + url.QueryEscape(updatedAt), update, ""},
		{encoded + "?versionTime=" + url.QueryEscape(updatedAt), update, ""},
		{a + "%3FversionId%3D" + create, create, update},
		{url.PathEscape(a + "?versionTime=" + createdAt), create, update},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := n.w3c(tc.path)
			meta, contentType := "didDocumentMetadata", w3c.MediaResolution // the options of a DID
			if strings.Contains(tc.path, "%3F") {
				meta, contentType = "contentMetadata", w3c.MediaDereferencing // the parameters of a DID URL
			}
			if got.header.Get("Content-Type") != contentType {
				t.Errorf("%s: Content-Type %s, want %s", tc.path, got.header.Get("Content-Type"), contentType)
			}
			var next any
			if tc.next != "" {
				next = tc.next
			}
			if got.status != 200 || got.get(meta, "versionId") != tc.version || got.get(meta, "nextVersionId") != next {
				t.Errorf("%s: %d %s", tc.path, got.status, got.body)
			}
		})
	}

	// Fragments (sent as %23) and service selection.
	for i, tc := range []struct{ path, member, want string }{
		{a + "%23primary", "publicKeyBase58", alice.key.Public().Base58()},
		{a + "%23web", "serviceEndpoint", "https://example.org/web"},
		{url.PathEscape(a + "#hive"), "type", "HiveVault"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := n.w3c(tc.path)
			if got.status != 200 || got.header.Get("Content-Type") != w3c.MediaDereferencing || got.get("contentStream", tc.member) != tc.want ||
				got.get("contentStream", "@context") != nil {
				t.Errorf("%s: %d %s", tc.path, got.status, got.body)
			}
		})
	}
	for i, tc := range []struct{ path, location string }{
		{a + "?service=hive", "https://example.org/hive"},
		{a + "?service=web&relativeRef=%2Fabout%2Fme.json%3Flang%3Den%23bio", "https://example.org/web/about/me.json?lang=en#bio"},
		{a + "?serviceType=LinkedDomains&relativeRef=%2Fx%23y", "https://example.org/web/x#y"},
		{url.PathEscape(a + "?service=hive&relativeRef=%2Fv#top"), "https://example.org/hive/v#top"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := n.w3c(tc.path)
			if got.status != http.StatusSeeOther || got.header.Get("Location") != tc.location || len(got.body) != 0 {
				t.Errorf("%s: %d %q %s, want 303 to %s", tc.path, got.status, got.header.Get("Location"), got.body, tc.location)
			}
		})
	}

	// Each media type.
	for i, tc := range []struct{ accept, contentType, id string }{
		{"", w3c.MediaResolution, "didDocument"},
		{"*/*", w3c.MediaResolution, "didDocument"},
		{w3c.MediaResolution, w3c.MediaResolution, "didDocument"},
		{w3c.MediaResolutionLD, w3c.MediaResolutionLD, "didDocument"},
		{w3c.MediaDereferencing, w3c.MediaDereferencing, "contentStream"},
		{w3c.MediaDIDLD, w3c.MediaDIDLD, ""},
		{w3c.MediaDID, w3c.MediaDID, ""},
		{w3c.MediaDIDJSON, w3c.MediaDIDJSON, ""},
		{"application/did-resolution, application/did+json", w3c.MediaResolution, "didDocument"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := n.w3c(a, tc.accept)
			id := got.get("id")
			if tc.id != "" {
				id = got.get(tc.id, "id")
			}
			if got.status != 200 || got.header.Get("Content-Type") != tc.contentType || id != a {
				t.Errorf("Accept %q: %d %s %.200s", tc.accept, got.status, got.header.Get("Content-Type"), got.body)
			}
			if ld := got.get("@context") != nil || got.get(tc.id, "@context") != nil; ld != (tc.accept == w3c.MediaDIDLD || tc.accept == w3c.MediaDID) {
				t.Errorf("Accept %q: @context present %v", tc.accept, ld)
			}
		})
	}

	// Errors: invalid, unknown, unsupported. Those of a DID (with options
	// or not) are in a resolution result, those of a DID URL in a
	// dereferencing result: one whose query is percent-encoded, or holds
	// more than options.
	bogus := newIdentity(t, "w3c never published").did.String()
	for i, tc := range []struct {
		path   string
		accept string
		status int
		typ    w3c.ErrorType
	}{
		{a + "?versionTime=notatime", "", 400, w3c.InvalidOptions},
		{a + "%3FversionTime%3Dnotatime", "", 400, w3c.InvalidDIDURL},
		{a + "%3FversionId%3D" + strings.Repeat("0", 64), "", 404, w3c.NotFound},
		{a + "?versionId=" + strings.Repeat("0", 64) + "&service=hive", "", 404, w3c.NotFound},
		{bogus, "", 404, w3c.NotFound},
		{"did:elastos:nosuchcorp", "", 404, w3c.NotFound},
		{"did:elastos:", "", 400, w3c.InvalidDID},
		{"did:elastos:a%20b", "", 400, w3c.InvalidDID},
		{"elastos:" + alice.did.ID(), "", 400, w3c.InvalidDID},
		{"", "", 400, w3c.InvalidDID},
		{"did:elastos:" + strings.Repeat("z", 5000), "", 400, w3c.InvalidDID},
		{a + "?versionId=nothex", "", 400, w3c.InvalidOptions},
		{a + "?versionTime=yesterday", "", 400, w3c.InvalidOptions},
		{a + "?versionTime=" + url.QueryEscape(createdAt) + "&versionId=" + create, "", 400, w3c.InvalidOptions},
		{a + "?versionId=" + strings.Repeat("0", 64), "", 404, w3c.NotFound},
		{a + "?versionTime=2000-01-01T00:00:00Z", "", 404, w3c.NotFound},
		{a + "?unknown=1", "", 400, w3c.InvalidDIDURL},
		{encoded + "?unknown=1", "", 400, w3c.InvalidOptions},
		{a + "%23nope", "", 404, w3c.NotFound},
		{a + "?service=nope", "", 404, w3c.NotFound},
		{a + "?service=hive&relativeRef=..%2F..%2Fadmin", "", 400, w3c.InvalidDIDURL},
		{a + "/some/path", "", 404, w3c.NotFound},
		{"did:web:example.org", "", 501, w3c.MethodNotSupported},
		{"did:key:z6Mk%23x", "", 501, w3c.MethodNotSupported},
		{a, "text/html", 406, w3c.RepresentationNotSupported},
		{a + "%23primary", w3c.MediaResolution, 406, w3c.RepresentationNotSupported},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := n.w3c(tc.path, tc.accept)
			meta, contentType := "didResolutionMetadata", w3c.MediaResolution
			_, query, _ := strings.Cut(tc.path, "?")
			if !strings.HasPrefix(tc.path, "did%3A") && (strings.Contains(query, "service") || strings.Contains(query, "unknown")) ||
				strings.Contains(tc.path, "%3F") || strings.Contains(tc.path, "%23") || strings.Contains(tc.path, "/") {
				meta, contentType = "dereferencingMetadata", w3c.MediaDereferencing
			}
			detail, _ := got.get(meta, "error", "detail").(string)
			if got.status != tc.status || got.get(meta, "error", "type") != string(tc.typ) || detail == "" || len(detail) > 500 {
				t.Errorf("%.80s, Accept %q: %d %.300s, want %d %s", tc.path, tc.accept, got.status, got.body, tc.status, tc.typ)
			}
			if tc.status != 406 && got.header.Get("Content-Type") != contentType {
				t.Errorf("%.80s: Content-Type %s, want %s", tc.path, got.header.Get("Content-Type"), contentType)
			}
		})
	}

	// Customized DIDs: 2 of 3 controllers, looked up whatever the case;
	// then transferred to a new owner.
	ctrl := []identity{newIdentity(t, "w3c ctrl a"), newIdentity(t, "w3c ctrl b"), newIdentity(t, "w3c ctrl c"), newIdentity(t, "w3c new owner")}
	var ctrlDocs []*did.Document
	for _, c := range ctrl {
		n.publish(c, c.create(far))
		ctrlDocs = append(ctrlDocs, c.document(far))
	}
	docs := did.NewDocuments(ctrlDocs...)
	multi := customizedDoc(t, "W3CCorp", 2, far, ctrl[0], ctrl[1], ctrl[2])
	r, err := idop.NewCreate(multi, ctrl[0].primary, ctrl[0].key)
	if err != nil {
		t.Fatal(err)
	}
	corpCreate := n.publishFor(multi.Subject(), r)
	for _, id := range []string{"did:elastos:W3CCorp", "did:elastos:w3ccorp"} {
		got := n.w3c(id)
		var canonical any
		if id != "did:elastos:W3CCorp" {
			canonical = "did:elastos:W3CCorp"
		}
		if got.status != 200 || got.get("didDocument", "multisig") != "2:3" || len(got.get("didDocument", "proof").([]any)) != 2 ||
			got.get("didDocumentMetadata", "canonicalId") != canonical {
			t.Errorf("%s: %d %s", id, got.status, got.body)
		}
	}
	ticket := did.NewTransferTicket(multi.Subject(), ctrl[3].did, corpCreate).Sign(ctrl[0].key, ctrl[0].primary, time.Now()).Sign(ctrl[2].key, ctrl[2].primary, time.Now())
	r, err = idop.NewTransfer(customizedDoc(t, "W3CCorp", 1, far, ctrl[3]), ticket, ctrl[3].primary, ctrl[3].key)
	if err != nil {
		t.Fatal(err)
	}
	corpTransfer := n.publishFor(multi.Subject(), r)
	got = n.w3c("did:elastos:w3ccorp")
	if got.status != 200 || got.get("didDocument", "controller") != ctrl[3].did.String() || got.get("didDocumentMetadata", "versionId") != corpTransfer ||
		got.get("didDocumentMetadata", "method", "operation") != "transfer" {
		t.Errorf("transferred: %d %s", got.status, got.body)
	}
	if got := n.w3c("did:elastos:W3CCORP?service=shop"); got.status != 303 || got.header.Get("Location") != "https://shop.example.org/W3CCorp" {
		t.Errorf("the transferred DID's service: %d %v", got.status, got.header)
	}
	if got := n.w3c("did:elastos:W3CCorp?versionId=" + corpCreate); got.status != 200 || len(got.get("didDocument", "controller").([]any)) != 3 {
		t.Errorf("the version before the transfer: %d %s", got.status, got.body)
	}

	// Deactivated: 410 with the last document.
	carol := newIdentity(t, "w3c carol")
	carolCreate := n.publish(carol, carol.create(far, carol.service("inbox", "DIDCommMessaging")))
	n.publish(carol, carol.deactivate())
	for _, accept := range []string{"", w3c.MediaDIDJSON} {
		got := n.w3c(carol.did.String(), accept)
		if got.status != http.StatusGone || (got.get("didDocument", "id") != carol.did.String() && got.get("id") != carol.did.String()) {
			t.Errorf("deactivated, Accept %q: %d %s", accept, got.status, got.body)
		}
	}
	got = n.w3c(carol.did.String())
	if got.get("didDocumentMetadata", "deactivated") != true || got.get("didDocumentMetadata", "versionId") != carolCreate ||
		got.get("didDocumentMetadata", "method", "status") != 2.0 {
		t.Errorf("deactivated: %s", got.body)
	}

	// The light client builds the same answers from the verified history.
	for _, c := range []struct {
		d     did.DID
		paths []string
	}{
		{alice.did, []string{a, a + "%23primary", a + "?versionId=" + create, a + "?service=web&relativeRef=%2Fx", a + "?serviceType=HiveVault"}},
		{carol.did, []string{carol.did.String(), carol.did.String() + "%23inbox"}},
		{multi.Subject(), []string{"did:elastos:w3ccorp", "did:elastos:W3CCorp?versionId=" + corpCreate, "did:elastos:W3CCorp%23shop"}},
	} {
		for _, p := range c.paths {
			for _, accept := range []string{"", w3c.MediaDIDJSON, w3c.MediaDereferencing} {
				n.checkVerified(c.d, p, accept, docs)
			}
		}
	}

	// Expired: the chain's time passes the document's expires; the answer
	// is still 200, with the expiry in the method metadata.
	dan := newIdentity(t, "w3c dan")
	soon := time.Now().Add(time.Hour)
	n.publish(dan, dan.create(soon))
	n.devIncreaseTime(2 * 3600)
	got = n.w3c(dan.did.String())
	if got.status != 200 || got.get("didDocumentMetadata", "method", "status") != 1.0 || got.get("didDocumentMetadata", "method", "statusName") != "expired" ||
		got.get("didDocumentMetadata", "method", "expires") != did.FormatTime(soon) || got.get("didDocument", "id") != dan.did.String() {
		t.Errorf("expired: %d %s", got.status, got.body)
	}
	n.checkVerified(dan.did, dan.did.String(), "", docs)
}

// A store that fails makes INTERNAL_ERROR (500), and nothing of the cause
// is sent; a HEAD gets the GET's status and headers; CORS preflights pass.
func TestW3CFailuresAndHTTP(t *testing.T) {
	n := startNode(t, 0)
	alice := newIdentity(t, "w3c http")
	n.publish(alice, alice.create(yearFromNow()))
	n.db.fail.Store(true)
	got := n.w3c(alice.did.String())
	n.db.fail.Store(false)
	if got.status != 500 || got.get("didResolutionMetadata", "error", "type") != string(w3c.InternalError) || strings.Contains(string(got.body), "test") {
		t.Errorf("store down: %d %s", got.status, got.body)
	}
	status, header, body := n.do("HEAD", n.identifiersURL()+alice.did.String(), "", nil)
	if status != 200 || len(body) != 0 || header.Get("Content-Type") != w3c.MediaResolution {
		t.Errorf("HEAD: %d %v %q", status, header, body)
	}
	status, header, _ = n.do("OPTIONS", n.identifiersURL()+alice.did.String(), "", nil,
		"Origin", "https://app.example", "Access-Control-Request-Method", "GET", "Access-Control-Request-Headers", "accept")
	if status != 204 || header.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(header.Get("Access-Control-Allow-Headers"), "Accept") {
		t.Errorf("preflight: %d %v", status, header)
	}
	if status, _, body := n.do("POST", n.identifiersURL()+alice.did.String(), "application/json", []byte("{}")); status != 200 || !strings.Contains(string(body), `"didResolutionMetadata"`) {
		t.Errorf("POST: %d %s", status, body)
	}
}
