package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseWrk(t *testing.T) {
	// What wrk 4.1 prints with the script's done() hook, around its own report.
	out := `Running 2s test @ http://127.0.0.1:41377/
  2 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.87ms    3.51ms  46.22ms   91.36%
    Req/Sec     5.70k   827.09     7.57k    70.00%
  22700 requests in 2.00s, 49.84MB read
Requests/sec:  11336.91
Transfer/sec:     24.89MB
loadbench requests=22700 bytes=52262300 duration_us=2002302 p50_us=2250 p99_us=32931 sock_errors=0 status_errors=3
`
	got, err := parseWrk(out)
	if err != nil {
		t.Fatal(err)
	}
	want := wrkResult{requests: 22700, bytes: 52262300, elapsed: 2002302 * time.Microsecond, p50: 2250 * time.Microsecond, p99: 32931 * time.Microsecond, statusErrors: 3}
	if got != want {
		t.Errorf("parseWrk = %+v, want %+v", got, want)
	}
	if r := got.rate(); r < 11336 || r > 11338 {
		t.Errorf("rate %v, want 11337 (wrk's own Requests/sec)", r)
	}
	for name, bad := range map[string]string{
		"no summary":  "Running 2s test\n",
		"malformed":   "loadbench requests=x\n",
		"no requests": "loadbench requests=0 bytes=0 duration_us=2000000 p50_us=0 p99_us=0 sock_errors=0 status_errors=0\n",
	} {
		if _, err := parseWrk(bad); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestParseStat(t *testing.T) {
	// Fields 14 and 15 (utime, stime) are 250 and 37 ticks; the name holds
	// spaces and a parenthesis.
	stat := "4242 (didlight (x) y) S 1 4242 4242 0 -1 4194560 5130 0 0 0 250 37 0 0 20 0 7 0 123 1234567 890 18446744073709551615"
	got, err := parseStat(stat)
	if err != nil {
		t.Fatal(err)
	}
	if want := 2870 * time.Millisecond; got != want {
		t.Errorf("parseStat = %v, want %v", got, want)
	}
	for _, bad := range []string{"", "4242 didlight S 1", "4242 (d) S 1 2 3 4 5 6 7 8 9 10 x 37 0"} {
		if _, err := parseStat(bad); err == nil {
			t.Errorf("parseStat(%q): no error", bad)
		}
	}
}

func TestCPUTimeOfThisProcess(t *testing.T) {
	// The process works until its CPU time shows 50ms more: on a loaded
	// machine that takes longer than 50ms of wall time, never less. A
	// count that does not move fails the test, as does one above what
	// the machine's cores could have run in the wall time (plus two of
	// the kernel's 10ms ticks).
	start := time.Now()
	before, err := cpuTime(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	for sum := 0; ; {
		for i := range 1_000_000 {
			sum += i ^ sum
		}
		now, err := cpuTime(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		used, wall := now-before, time.Since(start)
		if used >= 50*time.Millisecond {
			if most := wall*time.Duration(runtime.NumCPU()) + 20*time.Millisecond; used > most {
				t.Errorf("%v of CPU time counted in %v of wall time on %d cores", used, wall, runtime.NumCPU())
			}
			return
		}
		if wall > time.Minute {
			t.Fatalf("a minute of busy work counted %v of CPU time", used)
		}
	}
}

func TestWrkScript(t *testing.T) {
	k := kind{name: "resolvedid", method: "POST", bodies: []string{`{"a":1}`, `{"b":"]]"}`}}
	s, err := wrkScript(k, "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`local method, path, size = "POST", "/", "0"`, "[==[{\"a\":1}]==],", "[==[{\"b\":\"]]\"}]==],", "init = function", "done = function"} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	k.bodies = []string{`{"x":"]==]"}`}
	if _, err := wrkScript(k, "/"); err == nil {
		t.Error("a body with ]==] was written into the script")
	}
}

func TestSummarize(t *testing.T) {
	ks := []kind{{name: "a"}, {name: "b"}}
	runs := []measurement{
		{Kind: "a", Server: "node", Requests: 1000, Size: 3000, P50: 2 * time.Millisecond, P99: 8 * time.Millisecond, cpu: 100 * time.Millisecond, elapsed: time.Second},
		{Kind: "a", Server: "ref", Requests: 4000, P50: 1 * time.Millisecond, P99: 2 * time.Millisecond, cpu: 100 * time.Millisecond, elapsed: time.Second},
		{Kind: "a", Server: "node", Requests: 3000, Size: 1000, P50: 4 * time.Millisecond, P99: 8 * time.Millisecond, cpu: 300 * time.Millisecond, elapsed: time.Second},
		{Kind: "a", Server: "ref", Requests: 4000, P50: 1 * time.Millisecond, P99: 2 * time.Millisecond, cpu: 100 * time.Millisecond, elapsed: time.Second},
	}
	got := summarize(runs, ks)
	want := []ratio{{Kind: "a", NodeRate: 2000, NodeP50: 3 * time.Millisecond, NodeP99: 8 * time.Millisecond, NodeCPUPerReq: 100 * time.Microsecond, NodeSize: 1500,
		Rate: 0.5, P50: 3, P99: 4, CPUPerReq: 4}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("summarize (-want +got):\n%s", diff)
	}
}

// The w3c kind GETs each DID's W3C resolution in turn, under the REST
// listener's root.
func TestW3CKind(t *testing.T) {
	all := kinds([]string{"did:elastos:iA", "did:elastos:iB"})
	w, err := selectKinds(all, "w3c")
	if err != nil || len(w) != 1 {
		t.Fatalf("selectKinds w3c: %v, %v", w, err)
	}
	k := w[0]
	want := []request{{url: "http://n/1.0/identifiers/did:elastos:iA"}, {url: "http://n/1.0/identifiers/did:elastos:iB"}}
	if diff := cmp.Diff(want, k.requests("http://n/1.0/identifiers/"), cmp.AllowUnexported(request{})); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
	s, err := wrkScript(k, "/1.0/identifiers/")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`local method, path, size = "GET", "/1.0/identifiers/", "0"`, "[==[did:elastos:iA]==],", "[==[did:elastos:iB]==],", "wrk.format(method, path .. p, headers(false, each[n]))"} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
	node := &server{urls: map[string]string{"REST API": "http://127.0.0.1:1/api/v1", "JSON-RPC": "http://127.0.0.1:2/"}}
	ref := &server{urls: map[string]string{"ref": "http://127.0.0.1:3"}}
	n, r, err := targets(node, ref, k)
	if err != nil || n.String() != "http://127.0.0.1:1/1.0/identifiers/" || r.String() != "http://127.0.0.1:3/1.0/identifiers/" {
		t.Errorf("targets %v %v %v", n, r, err)
	}
}

func TestVersus(t *testing.T) {
	sum := []ratio{{Kind: "resolvedid", NodeRate: 1000, NodeCPUPerReq: 100 * time.Microsecond}, {Kind: "w3c", NodeRate: 900, NodeCPUPerReq: 120 * time.Microsecond}}
	want := []relative{{Kind: "w3c", Versus: "resolvedid", Rate: 0.9, CPUPerReq: 1.2}}
	if diff := cmp.Diff(want, versus(sum, "resolvedid")); diff != "" {
		t.Errorf("versus (-want +got):\n%s", diff)
	}
	if got := versus(sum, ""); got != nil {
		t.Errorf("versus nothing: %v", got)
	}
}

func TestSelectKinds(t *testing.T) {
	all := kinds([]string{"did:elastos:iA"})
	got, err := selectKinds(all, "query,resolvedid")
	if err != nil || len(got) != 2 || got[0].name != "query" || got[1].name != "resolvedid" {
		t.Errorf("selectKinds = %v, %v", got, err)
	}
	if _, err := selectKinds(all, "resolve"); err == nil || !strings.Contains(err.Error(), `"resolve"`) {
		t.Errorf("unknown kind: %v", err)
	}
	if !strings.Contains(all[0].bodies[0], `"did":"did:elastos:iA","all":false`) || !strings.Contains(all[1].bodies[0], `"all":true`) {
		t.Errorf("resolve bodies %q %q", all[0].bodies[0], all[1].bodies[0])
	}
}

// query-pages runs only when named, with a page per DID listed, skip 0,
// 1, 2…; query asks for the first page.
func TestQueryPagesKind(t *testing.T) {
	all := kinds([]string{"did:elastos:iA", "did:elastos:iB", "did:elastos:iC"})
	def, err := selectKinds(all, "")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, k := range def {
		names = append(names, k.name)
	}
	if want := []string{"resolvedid", "resolvedid-all", "query", "height", "w3c"}; !slices.Equal(names, want) {
		t.Errorf("default kinds %v, want %v", names, want)
	}
	pages, err := selectKinds(all, "query-pages,query")
	if err != nil || len(pages) != 2 {
		t.Fatalf("selectKinds: %v, %v", pages, err)
	}
	const condition = `"query":"{\"credential.type\":{\"$exists\":true}}"`
	for i, body := range pages[0].bodies {
		if want := fmt.Sprintf(`%s,"skip":%d,"limit":10}`, condition, i); !strings.Contains(body, want) {
			t.Errorf("page %d: body %s lacks %s", i, body, want)
		}
	}
	if len(pages[0].bodies) != 3 || !slices.Equal(pages[1].bodies, pages[0].bodies[:1]) {
		t.Errorf("query-pages bodies %q, query bodies %q", pages[0].bodies, pages[1].bodies)
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags(nil, io.Discard)
	if err != nil || o.load != (load{threads: 2, connections: 32, duration: 10 * time.Second}) || o.rounds != 2 || o.dids != 256 {
		t.Errorf("defaults %+v, %v", o, err)
	}
	if l := o.openLoad(40000); err != nil || l != (openLoad{Rate: 10000, Duration: 10 * time.Second, Connections: 256}) {
		t.Errorf("default open load %+v", l)
	}
	if o, err = parseFlags([]string{"-open-rate", "5000", "-open-conns", "64"}, io.Discard); err != nil || o.openLoad(40000) != (openLoad{Rate: 5000, Duration: 10 * time.Second, Connections: 64}) {
		t.Errorf("-open-rate 5000: %+v, %v", o.openLoad(40000), err)
	}
	if o, err = parseFlags([]string{"-open-share", "0"}, io.Discard); err != nil || o.openLoad(40000).Rate != 0 {
		t.Errorf("-open-share 0: %+v, %v", o.openLoad(40000), err)
	}
	for _, bad := range [][]string{{"-duration", "500ms"}, {"-rounds", "0"}, {"-dids", "0"}, {"-threads", "4", "-connections", "2"}, {"extra"},
		{"-open-share", "1.5"}, {"-open-share", "-0.1"}, {"-open-rate", "-1"}, {"-open-conns", "0"}, {"-eid-follow"}} {
		if _, err := parseFlags(bad, io.Discard); err == nil {
			t.Errorf("parseFlags(%q): no error", bad)
		}
	}
}

// The reference answers refBody, or, asked for a size (with -sized-ref),
// a JSON-RPC result of that many bytes.
func TestRefHandler(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(refHandler))
	defer srv.Close()
	sized := `{"jsonrpc":"2.0","id":1,"result":"` + strings.Repeat("x", 3000-len(sizedStart)-len(sizedEnd)) + `"}`
	for i, c := range []struct {
		size string // "" for no sizeHeader
		want string
	}{{"", refBody}, {"3", refBody}, {"junk", refBody}, {"3000", sized}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+"/any/path", strings.NewReader(`{"method":"x"}`))
			if c.size != "" {
				req.Header.Set(sizeHeader, c.size)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || string(body) != c.want || resp.Header.Get("Content-Type") != "application/json" || resp.ContentLength != int64(len(c.want)) {
				t.Errorf("size %q: ref answered %d %q, length %d: %.60q", c.size, resp.StatusCode, resp.Header.Get("Content-Type"), resp.ContentLength, body)
			}
		})
	}
	if !json.Valid([]byte(sized)) {
		t.Errorf("a sized answer is not JSON")
	}
}

// With -sized-ref, every request names the size of the node's answer.
func TestWrkScriptSized(t *testing.T) {
	k := kind{name: "query", method: "POST", bodies: []string{`{"a":1}`}, refSize: 19095}
	s, err := wrkScript(k, "/")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`local method, path, size = "POST", "/", "19095"`, `h["X-Loadbench-Size"] = size`} {
		if !strings.Contains(s, want) {
			t.Errorf("script lacks %q:\n%s", want, s)
		}
	}
}

// check sends every request of a kind, refuses a wrong answer and returns
// the answers' mean size.
func TestCheck(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		io.WriteString(w, map[string]string{"a": `{"status":0}`, "b": `{"status":1,"x":"1234"}`, "bad": `{"error":{"code":1}}`}[string(body)])
	}))
	defer srv.Close()
	k := kind{name: "k", method: "POST", bodies: []string{"a", "b"}, want: `"status":`}
	if size, err := check(context.Background(), srv.URL, k); err != nil || size != (12+23)/2 {
		t.Errorf("check = %d, %v; want %d", size, err, (12+23)/2)
	}
	k.bodies = append(k.bodies, "bad")
	if _, err := check(context.Background(), srv.URL, k); err == nil || !strings.Contains(err.Error(), `"error"`) {
		t.Errorf("a wrong answer: %v", err)
	}
}

// listDIDs pages through the node's DIDs until it has n or there are no
// more.
func TestListDIDs(t *testing.T) {
	var all []string
	for i := range 600 {
		all = append(all, fmt.Sprint("did:elastos:i", i))
	}
	held := all
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Params struct{ Skip, Limit int } `json:"params"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		var docs []map[string]string
		for _, d := range held[min(req.Params.Skip, len(held)):min(req.Params.Skip+req.Params.Limit, len(held))] {
			docs = append(docs, map[string]string{"id": d})
		}
		json.NewEncoder(w).Encode(map[string]any{"result": map[string]any{"document": docs}})
	}))
	defer srv.Close()
	for i, c := range []struct{ n, want int }{{1, 1}, {256, 256}, {500, 500}, {1000, 600}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, err := listDIDs(context.Background(), srv.URL, c.n)
			if err != nil || !slices.Equal(got, all[:c.want]) {
				t.Errorf("listDIDs(%d): %d DIDs, %v; want the first %d", c.n, len(got), err, c.want)
			}
		})
	}
	held = nil
	if _, err := listDIDs(context.Background(), srv.URL, 10); err == nil || !strings.Contains(err.Error(), "no DIDs") {
		t.Errorf("a chain without DIDs: %v", err)
	}
}
