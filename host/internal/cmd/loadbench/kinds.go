package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"

	"github.com/andybalholm/brotli"
)

// kind is one kind of request the benchmark sends: to the node's REST or
// JSON-RPC listener, with bodies taken in turn (one for a GET) or GETs of
// paths taken in turn, and a string that a correct answer holds.
type kind struct {
	name     string
	server   string // the node it is sent to: "" the didlight node, "light" the light node, "eid" the EID node
	listener string // "rest", "rpc" or "root" (the REST listener's root): whose URL the path is under
	method   string
	path     string // under the listener's base URL
	bodies   []string
	paths    []string // when set, GETs of path+paths[i] taken in turn, without bodies
	want     string   // held by every correct answer
	refSize  int      // with -sized-ref, the size of the node's answer, which the reference's matches
	optIn    bool     // run only when -kinds names it
	// headers are sent with every request, in pairs (Accept-Encoding,
	// gzip); pathHeaders with the GET of each path (If-None-Match and its
	// ETag), when set.
	headers     []string
	pathHeaders [][]string
	status      int // the status of a correct answer; 0 for any 2xx
}

// request is one request of a kind: its URL, body and headers, in pairs.
type request struct {
	url, body string
	headers   []string
}

// requests are the kind's requests sent to target, in the order wrk
// sends them.
func (k kind) requests(target string) []request {
	var out []request
	for i, p := range k.paths {
		h := k.headers
		if i < len(k.pathHeaders) {
			h = append(slices.Clip(h), k.pathHeaders[i]...)
		}
		out = append(out, request{target + p, "", h})
	}
	for _, b := range k.bodies {
		out = append(out, request{target, b, k.headers})
	}
	return out
}

// queryCondition is the find condition of the query kinds: documents with
// an embedded credential, a page of 10 (the demo's answer is ~19 KB).
const queryCondition = `{"credential.type":{"$exists":true}}`

// queryBody is the body of a query for the page of queryCondition that
// skips skip documents.
func queryBody(skip int) string {
	q, _ := json.Marshal(queryCondition)
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"query","params":{"query":%s,"skip":%d,"limit":10}}`, q, skip)
}

// kinds builds the request kinds from the DIDs the node holds. The node
// keeps the answers it builds for the chain's tip (32 MB of resolve
// answers, as many of query pages), and every request is sent once before
// the load: query sends one page, kept, and query-pages (opt-in) one page
// per DID listed, skip 0, 1, 2…, which are kept unless they outgrow the
// node's 32 MB (on a large chain with -dids in the thousands), when most
// are built anew: the cost of pages not asked before.
func kinds(dids []string) []kind {
	resolve := func(all bool) []string { return resolveBodies(dids, all) }
	pages := make([]string, len(dids))
	for i := range pages {
		pages[i] = queryBody(i)
	}
	return []kind{
		{name: "resolvedid", listener: "rpc", method: "POST", path: "", bodies: resolve(false), want: `"status":`},
		{name: "resolvedid-all", listener: "rpc", method: "POST", path: "", bodies: resolve(true), want: `"status":`},
		{name: "query", listener: "rpc", method: "POST", path: "", bodies: pages[:1], want: `"total":`},
		{name: "height", listener: "rest", method: "GET", path: "/block/height", bodies: []string{""}, want: `"Error":0`},
		{name: "w3c", listener: "root", method: "GET", path: "/1.0/identifiers/", paths: dids, want: `"didResolutionMetadata":{"contentType"`},
		{name: "query-pages", listener: "rpc", method: "POST", path: "", bodies: pages, want: `"total":`, optIn: true},
	}
}

// resolveBodies are resolvedid requests for dids.
func resolveBodies(dids []string, all bool) []string {
	b := make([]string, len(dids))
	for i, d := range dids {
		b[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"resolvedid","params":{"did":%q,"all":%t}}`, d, all)
	}
	return b
}

// pageDIDs is how many DIDs listDIDs asks for at once: a query page's most.
const pageDIDs = 256

// listDIDs asks the node's JSON-RPC API (a query that every document
// matches, page after page) for up to n of its DIDs, in creation order.
func listDIDs(ctx context.Context, rpc string, n int) ([]string, error) {
	var dids []string
	for len(dids) < n {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"query","params":{"query":"{\"id\":{\"$exists\":true}}","skip":%d,"limit":%d}}`,
			len(dids), min(n-len(dids), pageDIDs))
		raw, err := post(ctx, rpc, body)
		if err != nil {
			return nil, err
		}
		var resp struct {
			Result struct {
				Document []struct {
					ID string `json:"id"`
				} `json:"document"`
			} `json:"result"`
		}
		if err := json.Unmarshal(raw, &resp); err != nil {
			return nil, fmt.Errorf("query for DIDs: %v: %.200s", err, raw)
		}
		page := resp.Result.Document
		if len(page) == 0 && len(dids) == 0 {
			return nil, fmt.Errorf("the node holds no DIDs to resolve (answer %.200s); use a chain with DIDs (the demo, or devnet generate)", raw)
		}
		for _, d := range page {
			dids = append(dids, d.ID)
		}
		if len(page) < pageDIDs {
			break
		}
	}
	return dids, nil
}

// check sends each request of k to target once and verifies the answers,
// so that the load measures correct answers, not fast errors: a compressed
// one once decompressed, a 304 empty. It returns the answers' mean size as
// sent.
func check(ctx context.Context, target string, k kind) (int, error) {
	reqs := k.requests(target)
	size := 0
	for _, r := range reqs {
		req, err := http.NewRequestWithContext(ctx, k.method, r.url, strings.NewReader(r.body))
		if err != nil {
			return 0, err
		}
		req.Header.Set("Content-Type", "application/json")
		for i := 0; i+1 < len(r.headers); i += 2 {
			req.Header.Set(r.headers[i], r.headers[i+1])
		}
		status, coding, raw, err := exchange(req)
		if err != nil {
			return 0, fmt.Errorf("%s: %v", k.name, err)
		}
		size += len(raw)
		if k.status != 0 && status != k.status || k.status == 0 && status/100 != 2 {
			return 0, fmt.Errorf("%s: %s %s: HTTP %d, want %d: %.200s", k.name, req.Method, req.URL, status, max(k.status, 200), raw)
		}
		if status == http.StatusNotModified {
			continue
		}
		if raw, err = decode(coding, raw); err != nil {
			return 0, fmt.Errorf("%s: Content-Encoding %s: %v", k.name, coding, err)
		}
		if !bytes.Contains(raw, []byte(k.want)) || bytes.Contains(raw, []byte(`"error":{`)) {
			return 0, fmt.Errorf("%s: the node answered %.300s", k.name, raw)
		}
	}
	return size / len(reqs), nil
}

// decode decompresses an answer sent with Content-Encoding coding.
func decode(coding string, raw []byte) ([]byte, error) {
	switch coding {
	case "":
		return raw, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	case "br":
		return io.ReadAll(brotli.NewReader(bytes.NewReader(raw)))
	}
	return nil, fmt.Errorf("an unknown coding")
}

// post sends a JSON body to url and returns the answer's body.
func post(ctx context.Context, url, body string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, "POST", url, strings.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return do(req)
}

// do sends req and returns the body of a 2xx answer.
func do(req *http.Request) ([]byte, error) {
	status, _, raw, err := exchange(req)
	if err != nil {
		return nil, err
	}
	if status/100 != 2 {
		return nil, fmt.Errorf("%s %s: HTTP %d: %.200s", req.Method, req.URL, status, raw)
	}
	return raw, nil
}

// exchange sends req and returns the answer's status, Content-Encoding
// and body as sent.
func exchange(req *http.Request) (status int, coding string, body []byte, err error) {
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, "", nil, err
	}
	return resp.StatusCode, resp.Header.Get("Content-Encoding"), raw, nil
}
