package node_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/node"
)

// fetch sends GET url with the headers given in pairs, and returns the
// answer with its body as sent (not decompressed).
func fetch(t *testing.T, url string, headers ...string) (*http.Response, []byte) {
	t.Helper()
	resp, body := send(t, "GET", url, "", headers...)
	return resp, []byte(body)
}

// The answers that depend on the request and the head only (a DID
// resolution by GET, a block) carry an ETag of both and the operator's
// Cache-Control; If-None-Match naming it is answered 304, until a new block
// changes it or the request asks for a fresh answer. Answers that change
// without a block carry none.
func TestHTTPCaching(t *testing.T) {
	c := openChain(t)
	n, err := node.Start(c, node.Config{API: api.Options{CacheMaxAge: 30 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	root := strings.TrimSuffix(n.RESTURL(), "/api/v1")
	did := root + "/1.0/identifiers/did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"
	block := n.RESTURL() + "/block/details/height/0"

	first, body := fetch(t, did)
	tag := first.Header.Get("ETag")
	if !strings.HasPrefix(tag, `W/"`) || first.Header.Get("Cache-Control") != "public, max-age=30" || first.Header.Get("Vary") != "Accept" {
		t.Fatalf("headers of a resolution: %v", first.Header)
	}
	blockResp, _ := fetch(t, block)
	blockTag := blockResp.Header.Get("ETag")
	if blockTag == "" || blockTag == tag {
		t.Fatalf("a block's ETag %q, the resolution's %q", blockTag, tag)
	}

	for _, tc := range []struct {
		name    string
		url     string
		headers []string
		status  int
	}{
		{"the same answer", did, []string{"If-None-Match", tag}, http.StatusNotModified},
		{"among others", did, []string{"If-None-Match", `"other", ` + tag}, http.StatusNotModified},
		{"any", did, []string{"If-None-Match", "*"}, http.StatusNotModified},
		{"strong form", did, []string{"If-None-Match", strings.TrimPrefix(tag, "W/")}, http.StatusNotModified},
		{"another answer", did, []string{"If-None-Match", `W/"0123"`}, first.StatusCode},
		{"a fresh answer asked for", did, []string{"Cache-Control", "no-cache", "If-None-Match", tag}, first.StatusCode},
		{"a fresh answer asked for, HTTP/1.0", did, []string{"Pragma", "no-cache", "If-None-Match", tag}, first.StatusCode},
		{"another representation", did, []string{"If-None-Match", tag, "Accept", "application/did-resolution"}, first.StatusCode},
		{"a block", block, []string{"If-None-Match", blockTag}, http.StatusNotModified},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := fetch(t, tc.url, tc.headers...)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %.200s", resp.StatusCode, tc.status, b)
			}
			if tc.status == http.StatusNotModified && (len(b) != 0 || resp.Header.Get("ETag") == "" || resp.Header.Get("Cache-Control") == "") {
				t.Errorf("a 304 with %d bytes, headers %v", len(b), resp.Header)
			}
			if tc.status == first.StatusCode && tc.url == did && len(tc.headers) == 2 && !bytes.Equal(b, body) {
				t.Errorf("answer %.200s, want %.200s", b, body)
			}
		})
	}

	for _, path := range []string{"/transaction/" + strings.Repeat("ab", 32), "/node/state", "/transactionpool"} {
		if resp, _ := fetch(t, n.RESTURL()+path); resp.Header.Get("ETag") != "" {
			t.Errorf("%s changes without a block, yet has ETag %s", path, resp.Header.Get("ETag"))
		}
	}

	if _, err := c.Mine(context.Background()); err != nil {
		t.Fatal(err)
	}
	for url, old := range map[string]string{did: tag, block: blockTag} {
		resp, _ := fetch(t, url, "If-None-Match", old)
		if resp.StatusCode == http.StatusNotModified || resp.Header.Get("ETag") == old {
			t.Errorf("%s after a block: %d with ETag %s, the old one", url, resp.StatusCode, resp.Header.Get("ETag"))
		}
	}
}

// The default Cache-Control has caches ask each time.
func TestHTTPCachingAskEachTime(t *testing.T) {
	n, err := node.Start(openChain(t), node.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	if resp, _ := fetch(t, n.RESTURL()+"/block/hash/0"); resp.Header.Get("Cache-Control") != "no-cache" || resp.Header.Get("ETag") == "" {
		t.Errorf("headers: %v", resp.Header)
	}
}

// JSON answers of a kilobyte or more go compressed to clients that accept
// brotli or gzip, and decompress to the answer sent uncompressed; shorter
// ones, and answers to clients that accept neither, go as they are.
func TestCompression(t *testing.T) {
	n, err := node.Start(openChain(t), node.Config{API: api.Options{Compress: true}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	big := n.RESTURL() + "/block/details/height/0"
	_, plain := fetch(t, big)
	if len(plain) < 1024 {
		t.Fatalf("the genesis block's answer is %d bytes: too short to test with", len(plain))
	}
	decoders := map[string]func(io.Reader) (io.Reader, error){
		"":     func(r io.Reader) (io.Reader, error) { return r, nil },
		"gzip": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		"br":   func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	}
	for _, tc := range []struct {
		accept, url, want string
	}{
		{"gzip", big, "gzip"},
		{"br", big, "br"},
		{"gzip, deflate, br", big, "br"},
		{"br;q=0, gzip", big, "gzip"},
		{"deflate", big, ""},
		{"identity", big, ""},
		{"gzip", n.RESTURL() + "/block/height", ""},
	} {
		t.Run(tc.accept+" "+tc.url[strings.Index(tc.url, "/api"):], func(t *testing.T) {
			resp, b := fetch(t, tc.url, "Accept-Encoding", tc.accept)
			if got := resp.Header.Get("Content-Encoding"); got != tc.want {
				t.Fatalf("Content-Encoding %q, want %q", got, tc.want)
			}
			if tc.want != "" && (resp.Header.Get("Vary") != "Accept-Encoding" || len(b) >= len(plain) || resp.ContentLength != int64(len(b))) {
				t.Errorf("%d bytes of %d, Content-Length %d, Vary %q", len(b), len(plain), resp.ContentLength, resp.Header.Get("Vary"))
			}
			r, err := decoders[tc.want](bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			if tc.url == big && !bytes.Equal(got, plain) {
				t.Errorf("decompressed to %.100s…, want %.100s…", got, plain)
			}
		})
	}
	// A JSON-RPC answer leaves compressed as well, gathered in one write.
	req, _ := http.NewRequest("POST", n.RPCURL(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"getblockbyheight","params":{"height":0}}`))
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatalf("Content-Encoding %q: %v", resp.Header.Get("Content-Encoding"), err)
	}
	if b, err := io.ReadAll(zr); err != nil || !strings.Contains(string(b), `"result":{`) {
		t.Errorf("%v: %.200s", err, b)
	}
}
