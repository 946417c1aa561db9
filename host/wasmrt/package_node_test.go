package wasmrt_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/client/clienttest"
	"github.com/didlight/didlight/host/internal/browsertest"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/testenv"
)

// consumerPackages are what a fresh project installs beside the packed
// didlight package, from the npm registry: the published did-resolver,
// Veramo's resolver plugin (which brings did-resolver 4) and TypeScript.
var consumerPackages = []string{"did-resolver@6.0.0", "@veramo/did-resolver@7.0.1", "typescript@5.9.3"}

// packResult is what resolve.mjs writes for one DID: the result of
// did-resolver's Resolver and of Veramo's plugin.
type packResult struct {
	Resolver packResolution
	Veramo   *packResolution // not in Chromium
}

type packResolution struct {
	DIDResolutionMetadata struct {
		Error        string
		ContentType  string
		Verification struct {
			Outcome, Rule, Endpoint string
			Checked, Trusted        []string
		}
	}
	DIDDocument *struct {
		ID string
	}
	DIDDocumentMetadata struct {
		VersionID, NextVersionID string
		Deactivated              bool
	}
}

// TestPackage packs wasm/js with npm as it would be published, installs
// the tarball in a fresh project beside the published did-resolver and
// Veramo's plugin, type-checks a TypeScript user of it, and resolves
// through it the recorded EID node's DIDs, a tampered answer, and a
// didlight devnet node's demo DIDs: in Node (did-resolver and Veramo) and
// in Chromium (a page importing the installed packages by an import map).
func TestPackage(t *testing.T) {
	node := loaderNode(t)
	npm, err := testenv.LookPath("npm", "install Node.js 20 or later with npm")
	testenv.Check(t, err)
	project := installPackage(t, npm)
	if b, err := exec.Command(node, filepath.Join(project, "node_modules/typescript/bin/tsc"), "-p", project).CombinedOutput(); err != nil {
		t.Fatalf("tsc --noEmit on consumer.ts: %v\n%s", err, b)
	}

	u := eidtest.NewUpstream(t, eidtest.Options{})
	m := u.Manifest
	long := longest(m)
	tampered := eidtest.NewUpstream(t, eidtest.Options{Tamper: func(method string, params json.RawMessage, answer []byte) []byte {
		if method == "did_resolveDID" && bytes.Contains(params, []byte(long)) {
			return tamper(t, answer, tampering[0].change)
		}
		return answer
	}})
	n, stop, err := clienttest.RunWith(clienttest.Options{Demo: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop() })
	var page struct{ Document []struct{ ID string } }
	eidResult(t, eidAsk(t, n.RPC, "query", map[string]any{"query": "{}", "limit": 3}), &page)

	// Endpoints by name: the URLs Node asks; the page asks the same
	// through its own origin (see servePage).
	upstreams := map[string]string{"eid": u.URL, "tampered": tampered.URL, "node": n.RPC}
	type check func(t *testing.T, r packResolution, endpoint string)
	type pcase struct {
		endpoint, did string
		check         check
	}
	var cases []pcase
	for _, d := range m.DIDs {
		want := decidedOf(t, m, d.DID)
		cases = append(cases, pcase{"eid", d.DID, func(t *testing.T, r packResolution, endpoint string) {
			meta := r.DIDResolutionMetadata
			if want.status == int(resolve.NotFound) {
				if meta.Error != "notFound" || r.DIDDocument != nil {
					t.Errorf("a DID the node does not know: error %q", meta.Error)
				}
				return
			}
			if meta.Error != "" || r.DIDDocument == nil || r.DIDDocument.ID != d.DID {
				t.Fatalf("error %q, document %+v", meta.Error, r.DIDDocument)
			}
			if meta.Verification.Outcome != "verified" || meta.Verification.Endpoint != endpoint || len(meta.Verification.Trusted) == 0 {
				t.Errorf("verification %+v, asked of %s", meta.Verification, endpoint)
			}
			if want.txids[0] != r.DIDDocumentMetadata.VersionID && !r.DIDDocumentMetadata.Deactivated {
				t.Errorf("versionId %s, the node's latest %s", r.DIDDocumentMetadata.VersionID, want.txids[0])
			}
			if r.DIDDocumentMetadata.Deactivated != (want.status == int(resolve.Deactivated)) {
				t.Errorf("deactivated %v, status %d", r.DIDDocumentMetadata.Deactivated, want.status)
			}
		}})
	}
	if txids := decidedOf(t, m, long).txids; len(txids) > 1 {
		cases = append(cases, pcase{"eid", long + "?versionId=" + txids[1], func(t *testing.T, r packResolution, _ string) {
			if md := r.DIDDocumentMetadata; r.DIDResolutionMetadata.Error != "" || md.VersionID != txids[1] || md.NextVersionID != txids[0] {
				t.Errorf("the version before the latest: error %q, versionId %s, nextVersionId %s; want %s then %s", r.DIDResolutionMetadata.Error, md.VersionID, md.NextVersionID, txids[1], txids[0])
			}
		}})
	} else {
		t.Fatalf("the recording's longest history, %s, has %d operations", long, len(txids))
	}
	cases = append(cases, pcase{"tampered", long, func(t *testing.T, r packResolution, _ string) {
		meta := r.DIDResolutionMetadata
		if meta.Error != "notVerified" || r.DIDDocument != nil || meta.Verification.Outcome != "refused" || meta.Verification.Rule != string(tampering[0].rule) {
			t.Errorf("a tampered answer: error %q, verification %+v", meta.Error, meta.Verification)
		}
	}})
	for _, d := range page.Document {
		cases = append(cases, pcase{"node", d.ID, func(t *testing.T, r packResolution, _ string) {
			if r.DIDResolutionMetadata.Error != "" || r.DIDDocument == nil || r.DIDDocument.ID != d.ID || r.DIDResolutionMetadata.Verification.Outcome != "verified" {
				t.Errorf("a didlight node's demo DID: %+v", r)
			}
		}})
	}
	cases = append(cases, pcase{"node", "did:elastos:", func(t *testing.T, r packResolution, _ string) {
		if r.DIDResolutionMetadata.Error != "invalidDid" {
			t.Errorf("an invalid DID: error %q", r.DIDResolutionMetadata.Error)
		}
	}})
	if len(page.Document) == 0 || len(cases) < 5 {
		t.Fatalf("%d cases, %d demo DIDs", len(cases), len(page.Document))
	}

	// checkAll runs each case's check on the results, the endpoints
	// named by at.
	checkAll := func(t *testing.T, results []packResult, at map[string]string) {
		if len(results) != len(cases) {
			t.Fatalf("%d results of %d cases", len(results), len(cases))
		}
		for i, c := range cases {
			t.Run(c.endpoint+"/"+c.did, func(t *testing.T) {
				c.check(t, results[i].Resolver, at[c.endpoint])
				if results[i].Veramo != nil {
					c.check(t, *results[i].Veramo, at[c.endpoint])
				}
			})
		}
	}
	in := func(at map[string]string) []map[string]string {
		out := make([]map[string]string, len(cases))
		for i, c := range cases {
			out[i] = map[string]string{"endpoint": at[c.endpoint], "did": c.did}
		}
		return out
	}
	t.Run("node", func(t *testing.T) {
		results := runInProject(t, node, project, in(upstreams))
		for _, r := range results {
			if r.Veramo == nil {
				t.Fatal("resolve.mjs gave no Veramo result")
			}
		}
		checkAll(t, results, upstreams)
	})
	t.Run("chromium", func(t *testing.T) {
		site, at := servePage(t, project, upstreams)
		tab := browsertest.NewTab(t)
		tab.Do(chromedp.Navigate(site))
		tab.Wait(`document.body.dataset.ready === 'true'`)
		casesJSON, err := json.Marshal(in(at))
		if err != nil {
			t.Fatal(err)
		}
		checkAll(t, browsertest.Eval[[]packResult](tab, "resolveAll("+string(casesJSON)+")"), at)
	})
}

// servePage serves the project's folder (index.html and node_modules) and
// fronts each upstream at /<name> on the same origin, so that the page
// needs no CORS. It returns the page's URL and the endpoints' URLs.
func servePage(t *testing.T, project string, upstreams map[string]string) (string, map[string]string) {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", http.FileServer(http.Dir(project)))
	for name, up := range upstreams {
		target, err := url.Parse(up)
		if err != nil {
			t.Fatal(err)
		}
		p := httputil.NewSingleHostReverseProxy(target)
		mux.Handle("/"+name, http.StripPrefix("/"+name, p))
	}
	s := httptest.NewServer(mux)
	t.Cleanup(s.Close)
	at := map[string]string{}
	for name := range upstreams {
		at[name] = s.URL + "/" + name
	}
	return s.URL + "/index.html", at
}

// installPackage packs wasm/js with the module this test built and
// installs it in a fresh project with consumerPackages, returning the
// project's folder.
func installPackage(t *testing.T, npm string) string {
	t.Helper()
	src, pkg, project := "../../wasm/js", t.TempDir(), t.TempDir()
	var manifest struct{ Files []string }
	b, err := os.ReadFile(filepath.Join(src, "package.json"))
	if err != nil || json.Unmarshal(b, &manifest) != nil {
		t.Fatalf("wasm/js/package.json: %v", err)
	}
	for _, f := range append(manifest.Files, "package.json", "README.md") {
		if f == "didlight.wasm" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(pkg, "didlight.wasm"), module(t), 0o644); err != nil {
		t.Fatal(err)
	}
	runIn(t, pkg, npm, "pack", "--pack-destination", project)
	for _, f := range []string{"consumer.ts", "resolve.mjs", "tsconfig.json", "index.html"} {
		b, err := os.ReadFile(filepath.Join("testdata/package", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(project, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(project, "package.json"), []byte(`{"name": "consumer", "private": true, "type": "module"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	tarballs, err := filepath.Glob(filepath.Join(project, "didlight-*.tgz"))
	if err != nil || len(tarballs) != 1 {
		t.Fatalf("npm pack wrote %v", tarballs)
	}
	if fi, err := os.Stat(tarballs[0]); err == nil {
		t.Logf("%s: %d bytes", filepath.Base(tarballs[0]), fi.Size())
	}
	install := exec.Command(npm, append([]string{"install", "--no-audit", "--no-fund", "--ignore-scripts", tarballs[0]}, consumerPackages...)...)
	install.Dir = project
	if b, err := install.CombinedOutput(); err != nil {
		// Most likely the npm registry cannot be reached from here.
		testenv.Check(t, fmt.Errorf("%w: npm install %v: %v\n%s", testenv.ErrMissing, consumerPackages, err, b))
	}
	return project
}

// runInProject runs resolve.mjs in the project on the cases.
func runInProject(t *testing.T, node, project string, cases []map[string]string) []packResult {
	t.Helper()
	in, out := filepath.Join(project, "cases.json"), filepath.Join(project, "results.json")
	b, err := json.Marshal(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	runIn(t, project, node, "--no-warnings", "resolve.mjs", in, out)
	b, err = os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var results []packResult
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatalf("results.json: %v", err)
	}
	return results
}

// runIn runs a command in dir, failing the test with its output.
func runIn(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", filepath.Base(name), args, err, b)
	}
}
