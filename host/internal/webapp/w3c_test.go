package webapp_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/didlight/didlight/web"
)

// w3cPage is the W3C section of the resolve view, read from the page.
type w3cPage struct {
	Source string // verified, node or none
	Status string
	Text   string
	JSON   string
	Link   string
}

const readW3C = `(() => {
  const s = document.querySelector('section.w3c');
  return s && {source: s.dataset.source, status: s.dataset.status ?? '', text: s.innerText,
    json: s.querySelector('pre.w3c-json')?.textContent ?? '', link: s.querySelector('a')?.href ?? ''};
})()`

// heights finds the block heights the module's answer cannot give.
var heights = regexp.MustCompile(`,"height":\d+,"confirmations":\d+`)

// nodeW3C is the node's own W3C answer for d, without block heights.
func nodeW3C(t *testing.T, f *fixture, d string) (int, any) {
	t.Helper()
	req, _ := http.NewRequest("GET", f.app+"1.0/identifiers/"+d, nil)
	req.Header.Set("Accept", "application/did-resolution")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v any
	if err := json.Unmarshal(heights.ReplaceAll(b, nil), &v); err != nil {
		t.Fatalf("%s: %s: %v", d, b, err)
	}
	return resp.StatusCode, v
}

// The resolve view shows the W3C DID Resolution result the module built
// from the history it verified: the node's own answer but for block
// heights, with the HTTP status of the binding.
func TestResolveW3C(t *testing.T) {
	f := env(t)
	for _, tc := range []struct {
		name, did, status, text string
	}{
		{"valid", f.bob, "200", "200 OK"},
		{"customized", f.acme, "200", "200 OK"},
		{"expired", f.expired, "200", "200 OK"},
		{"deactivated", f.gone, "410", "410 Gone"},
		{"missing", f.missing, "404", "404 Not Found"},
		{"ten operations", f.long, "200", "200 OK"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tb := newTab(t)
			resolveIn(tb, f.app, "", tc.did)
			p := eval[w3cPage](tb, readW3C)
			if p.Source != "verified" || p.Status != tc.status || !strings.Contains(p.Text, tc.text) || !strings.Contains(p.Text, "Built in this browser") {
				t.Errorf("W3C section: %+v", p)
			}
			if p.Link != f.app+"1.0/identifiers/"+tc.did {
				t.Errorf("link %q", p.Link)
			}
			var got any
			if err := json.Unmarshal([]byte(p.JSON), &got); err != nil {
				t.Fatalf("the shown result %q: %v", p.JSON, err)
			}
			status, want := nodeW3C(t, f, tc.did)
			if !reflect.DeepEqual(got, want) || p.Status != strconv.Itoa(status) {
				t.Errorf("the page shows %d:\n%s\nthe node answers %d:\n%v", status, p.JSON, status, want)
			}
		})
	}
	_, v := nodeW3C(t, f, f.expired)
	if meta := v.(map[string]any)["didDocumentMetadata"].(map[string]any)["method"].(map[string]any); meta["status"] != 1.0 {
		t.Errorf("the expired DID's method metadata: %v", meta)
	}
}

// Without the module the section shows the node's answer, marked as not
// verified.
func TestW3CWithoutModule(t *testing.T) {
	f := env(t)
	s := appServer(t, web.Options{Missing: "no module (test)"})
	tb := newTab(t)
	resolveIn(tb, s.URL+"/", "?rest="+url.QueryEscape(f.rest)+"&rpc="+url.QueryEscape(f.rpc), f.gone)
	p := eval[w3cPage](tb, readW3C)
	if p.Source != "node" || p.Status != "410" || !strings.Contains(p.Text, "not verified") || !strings.Contains(p.JSON, `"deactivated": true`) {
		t.Errorf("W3C section without the module: %+v", p)
	}
}
