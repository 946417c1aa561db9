package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// With -service the benchmark measures what running the node as a public
// service costs and saves (docs/service.md), in the same run: the node as
// it starts by default (metrics on, answers compressed for clients that
// accept it) against one started with --no-metrics (bare-*) and one whose
// rate limit counts every request, loopback's too, under a limit never
// reached (limited-*); W3C answers compressed with gzip and brotli; and
// W3C answers a client's cache holds, revalidated with If-None-Match (304s)
// or asked afresh (Cache-Control: no-cache).

// serviceNodes are the extra nodes -service starts, by server name, and
// the flags each is started with beside startNode's.
var serviceNodes = []struct {
	name  string
	flags []string
}{
	{"bare", []string{"--no-metrics"}},
	{"limited", []string{"--rate-limit-loopback", "--rate-limit", "1e9", "--rate-burst", "1000000000"}},
}

// serviceKinds are the kinds -service measures; etags are the ETags of
// the W3C answers for dids, in order.
func serviceKinds(dids, etags []string) []kind {
	const w3cWant = `"didResolutionMetadata":{"contentType"`
	resolve := resolveBodies(dids, false)
	w3c := func(name, server string, headers ...string) kind {
		return kind{name: name, server: server, listener: "root", method: "GET", path: "/1.0/identifiers/", paths: dids, want: w3cWant, headers: headers}
	}
	revalidate := make([][]string, len(etags))
	for i, tag := range etags {
		revalidate[i] = []string{"If-None-Match", tag}
	}
	ks := []kind{
		w3c("w3c-gzip", "", "Accept-Encoding", "gzip"),
		w3c("w3c-br", "", "Accept-Encoding", "br"),
		w3c("w3c-304", ""),
		w3c("w3c-fresh", "", "Cache-Control", "no-cache"),
		w3c("bare-w3c", "bare"),
		w3c("limited-w3c", "limited"),
		{name: "resolvedid-gzip", listener: "rpc", method: "POST", bodies: resolve, want: `"status":`, headers: []string{"Accept-Encoding", "gzip"}},
		{name: "bare-resolvedid", server: "bare", listener: "rpc", method: "POST", bodies: resolve, want: `"status":`},
		{name: "limited-resolvedid", server: "limited", listener: "rpc", method: "POST", bodies: resolve, want: `"status":`},
	}
	ks[2].pathHeaders, ks[2].status, ks[2].want = revalidate, http.StatusNotModified, ""
	ks[3].pathHeaders = revalidate
	return ks
}

// startServiceNodes starts the nodes -service compares the node with.
func startServiceNodes(ctx context.Context, bin, datadir string, logw io.Writer) (map[string]*server, error) {
	out := map[string]*server{}
	for _, n := range serviceNodes {
		s, err := startNode(ctx, bin, datadir, logw, n.flags...)
		if err != nil {
			for _, started := range out {
				started.stop()
			}
			return nil, fmt.Errorf("the %s node: %w", n.name, err)
		}
		s.name = n.name
		out[n.name] = s
	}
	return out, nil
}

// etagsOf returns the ETag of the W3C answer for each DID, as the node
// answers a client that sends no Accept: what a cache revalidates.
func etagsOf(ctx context.Context, node *server, dids []string) ([]string, error) {
	root := strings.TrimSuffix(node.urls["REST API"], "/api/v1")
	tags := make([]string, len(dids))
	for i, d := range dids {
		req, err := http.NewRequestWithContext(ctx, "GET", root+"/1.0/identifiers/"+d, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if tags[i] = resp.Header.Get("ETag"); tags[i] == "" {
			return nil, fmt.Errorf("the W3C answer for %s has no ETag", d)
		}
	}
	return tags, nil
}
