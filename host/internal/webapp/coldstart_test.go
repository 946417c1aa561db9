package webapp_test

import (
	"fmt"
	"testing"

	"github.com/didlight/didlight/host/internal/browsertest"
)

// coldStart is the parts of a cold start a page measures, in milliseconds.
type coldStart struct {
	Fetch, Compile, Instantiate, Resolve, Total float64
	Status                                      int
}

// BenchmarkColdStart measures what a page pays before its first verified
// answer, in Chromium, each time in a fresh tab of the app (for its origin
// and import map) with the module at a URL not fetched before, so that
// neither the HTTP cache nor Chromium's compiled-code cache holds it:
// fetching the module, compiling it from its bytes, instantiating it (the
// WASI shim and the loader's set-up included), and the
// first verified resolve of a demo DID (did_resolveDID from the node, the
// history verified in the module). Each part is reported in ms, as the
// page's performance.now() counts it.
//
//	go test ./host/internal/webapp -run '^$' -bench ColdStart -benchtime 5x
func BenchmarkColdStart(b *testing.B) {
	f := env(b)
	var sum coldStart
	for i := range b.N {
		tb := browsertest.NewTab(b)
		tb.Open(f.app) // the origin, with the import map that names the WASI shim
		c := browsertest.Eval[coldStart](tb, fmt.Sprintf(`(async () => {
  const t0 = performance.now();
  const resp = await fetch('/wasm/didlight.wasm?cold=%d-' + Date.now());
  const bytes = await resp.arrayBuffer();
  const t1 = performance.now();
  const module = await WebAssembly.compile(bytes);
  const t2 = performance.now();
  const { load } = await import('/wasm/browser.js');
  const d = await load({ wasm: module });
  const t3 = performance.now();
  const v = await d.resolveVerified(%q, { endpoint: %q });
  const t4 = performance.now();
  return { Fetch: t1 - t0, Compile: t2 - t1, Instantiate: t3 - t2, Resolve: t4 - t3, Total: t4 - t0, Status: v.status };
})()`, i, f.bob, f.rpc))
		if c.Status != 0 {
			b.Fatalf("the demo DID %s resolved with status %d, want 0 (valid)", f.bob, c.Status)
		}
		sum.Fetch += c.Fetch
		sum.Compile += c.Compile
		sum.Instantiate += c.Instantiate
		sum.Resolve += c.Resolve
		sum.Total += c.Total
	}
	n := float64(b.N)
	b.ReportMetric(sum.Fetch/n, "fetch-ms")
	b.ReportMetric(sum.Compile/n, "compile-ms")
	b.ReportMetric(sum.Instantiate/n, "instantiate-ms")
	b.ReportMetric(sum.Resolve/n, "resolve-ms")
	b.ReportMetric(sum.Total/n, "total-ms")
}
