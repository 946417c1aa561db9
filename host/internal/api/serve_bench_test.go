package api

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// BenchmarkServeRPC runs the JSON-RPC listener's handler in process, with
// no connection: what the node's own code costs a request (routing, the
// browser policy, the envelope, the params, the chain's kept answer,
// writing the headers and the body), without net/http's connection work
// and the kernel's, which loadbench measures. The DID is unknown and the
// query finds nothing, so that the answers are short and kept.
func BenchmarkServeRPC(b *testing.B) {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	h := New(c, Options{}).rpcHandler()
	for _, bench := range []struct{ name, body string }{
		{"resolvedid", `{"jsonrpc":"2.0","id":1,"method":"resolvedid","params":{"did":"did:elastos:iop7hwsiP3uDuf5TjvZxGB44tUTvuj2vQS","all":false}}`},
		{"query", `{"jsonrpc":"2.0","id":1,"method":"query","params":{"query":"{\"credential.type\":{\"$exists\":true}}","skip":0,"limit":10}}`},
	} {
		b.Run(bench.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, "/", strings.NewReader(bench.body))
				r.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK || !strings.Contains(w.Body.String(), `"result"`) {
					b.Fatalf("HTTP %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
