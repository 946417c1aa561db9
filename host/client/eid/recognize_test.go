package eid_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/clienttest"
	"github.com/didlight/didlight/host/client/eid"
)

// TestRecognize checks the rule that tells an EID node from a didlight
// node, against the imitation of EID and a real didlight node in process.
func TestRecognize(t *testing.T) {
	dl := clienttest.Start(t)
	restBase := strings.TrimSuffix(dl.REST, "/api/v1")
	eidNode := newNode(t, eid.MainnetChainID, 100)
	noDID := newNode(t, eid.TestnetChainID, 100)
	noDID.noDID = true
	html := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("<html>hello</html>"))
	}))
	t.Cleanup(html.Close)
	nothing := newNode(t, 1, 1) // a JSON-RPC server that knows no method
	nothing.fail = func(method string, _ int) fault {
		return body(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"the method ` + method + ` does not exist/is not available"}}`)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()

	for _, tc := range []struct {
		name string
		url  string
		want eid.Upstream
		err  string
	}{
		{"EID", eidNode.URL, eid.Upstream{Kind: eid.EID, ChainID: 22}, ""},
		{"EID without the did API", noDID.URL, eid.Upstream{}, "without did_resolveDID: an EID node must enable the did API (--rpcapi eth,net,web3,did)"},
		{"didlight JSON-RPC", dl.RPC, eid.Upstream{Kind: eid.Didlight}, ""},
		{"didlight REST", restBase, eid.Upstream{Kind: eid.Didlight, REST: true}, ""},
		{"didlight REST /api/v1", dl.REST, eid.Upstream{Kind: eid.Didlight, REST: true}, ""},
		{"didlight REST /api/v1/", dl.REST + "/", eid.Upstream{Kind: eid.Didlight, REST: true}, ""},
		{"a web page", html.URL, eid.Upstream{}, "answers neither JSON-RPC (not a JSON-RPC 2.0 answer: \"<html>hello</html>\") nor a node's REST API"},
		{"JSON-RPC of neither", nothing.URL, eid.Upstream{}, "has no resolvedid, and eth_chainId failed: neither a didlight nor an EID node"},
		{"nothing listening", closed, eid.Upstream{}, "connection refused"},
		{"not a URL", "localhost:20336", eid.Upstream{}, "scheme"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := eid.Recognize(context.Background(), tc.url, nil)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("Recognize = %+v, %v; want error %q", got, err, tc.err)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Errorf("Recognize = %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
	if got := eidNode.count(""); got != 3 {
		t.Errorf("recognizing EID took %d requests, want 3", got)
	}
	var ue *client.UnreachableError
	if _, err := eid.Recognize(context.Background(), closed, nil); !errors.As(err, &ue) {
		t.Errorf("nothing listening: %v, want a *client.UnreachableError", err)
	}
}

// TestDidlightUpstream checks that a Client works with a didlight node
// too: it serves the SDKs' names and the EID probes.
func TestDidlightUpstream(t *testing.T) {
	dl := clienttest.Start(t)
	c, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{dl.RPC}}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	raw, err := c.ResolveDID(ctx, mustDID(t, "did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U"), true)
	var r struct {
		DID    string `json:"did"`
		Status int    `json:"status"`
	}
	if err != nil || json.Unmarshal(raw, &r) != nil || r.Status != 3 || r.DID != "did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U" {
		t.Errorf("ResolveDID = %s, %v; want status 3", raw, err)
	}
	if h, err := c.BlockNumber(ctx); err != nil || h != 0 {
		t.Errorf("BlockNumber = %d, %v; want 0", h, err)
	}
	if id, err := c.ChainID(ctx); err != nil || id != 20 {
		t.Errorf("ChainID = %d, %v; want a devnet's 20", id, err)
	}
}
