package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// With Options.Web, the REST listener's paths outside /api/ are the web
// app's, and every path under /api/ stays the API's, unknown ones included.
func TestWebMount(t *testing.T) {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	web := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "app "+r.Method+" "+r.URL.Path) })
	srv := api.New(c, api.Options{Web: web})
	if err := srv.Listen("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ctx) }()
	defer func() {
		cancel()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	base := strings.TrimSuffix(srv.RESTURL(), "/api/v1")
	get := func(path string) string {
		t.Helper()
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}
	for _, path := range []string{"/", "/app/main.js", "/wasm/didlight.wasm"} {
		if got := get(path); got != "app GET "+path {
			t.Errorf("GET %s: %q, want the web app's answer", path, got)
		}
	}
	for path, code := range map[string]int{"/api/v1/block/height": 0, "/api/v1/nope": 42001, "/api/": 42001} {
		var env struct{ Error int }
		if body := get(path); json.Unmarshal([]byte(body), &env) != nil || env.Error != code {
			t.Errorf("GET %s: %s; want the API's envelope with Error %d", path, body, code)
		}
	}
	resp, err := http.Post(srv.RPCURL()+"app/main.js", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Errorf("the JSON-RPC listener serves the app too (%s)", resp.Status)
	}
}
