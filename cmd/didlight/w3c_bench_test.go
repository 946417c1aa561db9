package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// w3cBenchDIDs is how many distinct DIDs each load resolves in turn, each
// with a create and an update, as a resolver serving many clients reads
// many DIDs.
const w3cBenchDIDs = 256

// BenchmarkW3COverHTTP measures W3C DID resolution (GET
// /1.0/identifiers/{did}, the resolution result) against resolvedid
// (all=false) over HTTP, on the same DIDs of one `didlight node --mem`
// process, loaded by Debian's wrk in a process of its own (one thread, 8
// connections). Each iteration runs wrk for DIDLIGHT_BENCH_SECONDS (default
// 3) on resolvedid, then as long on W3C resolution, so that both are
// measured under the same conditions, interleaved.
//
// Reported: resolvedid-req/s and w3c-req/s, wrk's count of answers over
// wall time; resolvedid-cpu-us/req and w3c-cpu-us/req, the node process's
// own CPU time (user and system, from /proc/<pid>/stat) per answer; ratio,
// W3C throughput as a fraction of resolvedid's; cpu-ratio, the same from
// the server's CPU time (the fraction when the server's cores limit both).
// `make w3cbench` runs it with wrk installed.
func BenchmarkW3COverHTTP(b *testing.B) {
	wrk, err := exec.LookPath("wrk")
	if err != nil {
		b.Fatalf("wrk is needed to load the node from its own process (`make w3cbench` installs Debian's): %v", err)
	}
	seconds := 3
	if s := os.Getenv("DIDLIGHT_BENCH_SECONDS"); s != "" {
		if seconds, err = strconv.Atoi(s); err != nil || seconds < 1 || seconds > 60 {
			b.Fatalf("DIDLIGHT_BENCH_SECONDS=%q: want 1 to 60", s)
		}
	}
	n := startNodeProcess(b, "--mem")
	dids := seedBenchDIDs(b, n)
	dir := b.TempDir()
	var bodies, paths []string
	for _, d := range dids {
		bodies = append(bodies, fmt.Sprintf(`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":%q,"all":false},"id":1}`, d))
		paths = append(paths, "/1.0/identifiers/"+d)
	}
	rpcScript := writeWrkScript(b, dir, "resolvedid.lua", bodies, `wrk.format("POST", "/", {["Content-Type"] = "application/json"}, items[i])`)
	w3cScript := writeWrkScript(b, dir, "w3c.lua", paths, `wrk.format("GET", items[i])`)
	restRoot := strings.TrimSuffix(n.rest, "/api/v1")
	// Both answer what they should before anything is timed.
	checkBenchAnswer(b, "POST", n.rpc, bodies[0], `"status":0`)
	checkBenchAnswer(b, "GET", restRoot+paths[0], "", `"didResolutionMetadata":{"contentType"`)

	pid := n.cmd.Process.Pid
	var rpc, w3c loadRun
	for b.Loop() {
		rpc.add(runWrk(b, wrk, pid, seconds, rpcScript, n.rpc))
		w3c.add(runWrk(b, wrk, pid, seconds, w3cScript, restRoot+"/"))
	}
	b.ReportMetric(rpc.perSecond(), "resolvedid-req/s")
	b.ReportMetric(w3c.perSecond(), "w3c-req/s")
	b.ReportMetric(rpc.cpuPerRequest(), "resolvedid-cpu-us/req")
	b.ReportMetric(w3c.cpuPerRequest(), "w3c-cpu-us/req")
	b.ReportMetric(w3c.perSecond()/rpc.perSecond(), "ratio")
	b.ReportMetric(rpc.cpuPerRequest()/w3c.cpuPerRequest(), "cpu-ratio")
}

// loadRun sums wrk runs: answers, wall time and the server's CPU time.
type loadRun struct {
	requests  int
	wall, cpu time.Duration
}

func (r *loadRun) add(o loadRun) {
	r.requests += o.requests
	r.wall += o.wall
	r.cpu += o.cpu
}

func (r *loadRun) perSecond() float64 { return float64(r.requests) / r.wall.Seconds() }

func (r *loadRun) cpuPerRequest() float64 {
	return float64(r.cpu.Microseconds()) / float64(r.requests)
}

// wrkSummary finds wrk's count of answers and its duration.
var wrkSummary = regexp.MustCompile(`(\d+) requests in ([0-9.]+)(us|ms|s|m)`)

// runWrk loads url with script for the given seconds and returns what wrk
// counted and the CPU time the process pid used meanwhile. Any answer that
// is not 2xx, any socket error, fails the benchmark.
func runWrk(b *testing.B, wrk string, pid, seconds int, script, url string) loadRun {
	b.Helper()
	before := processCPU(b, pid)
	out, err := exec.Command(wrk, "-t1", "-c8", fmt.Sprintf("-d%ds", seconds), "--timeout", "10s", "-s", script, url).CombinedOutput()
	cpu := processCPU(b, pid) - before
	if err != nil {
		b.Fatalf("wrk: %v\n%s", err, out)
	}
	if bytes.Contains(out, []byte("Non-2xx")) || bytes.Contains(out, []byte("Socket errors")) {
		b.Fatalf("wrk saw failures:\n%s", out)
	}
	m := wrkSummary.FindSubmatch(out)
	if m == nil {
		b.Fatalf("wrk printed no summary:\n%s", out)
	}
	requests, _ := strconv.Atoi(string(m[1]))
	wall, err := time.ParseDuration(string(m[2]) + string(m[3]))
	if err != nil || requests == 0 {
		b.Fatalf("wrk summary %q: %v", m[0], err)
	}
	return loadRun{requests: requests, wall: wall, cpu: cpu}
}

// clockTicks is the unit of /proc/<pid>/stat's CPU times: USER_HZ, 100 on
// Linux (the kernel's ABI fixes it for userspace).
const clockTicks = 100

// processCPU is the CPU time, user and system, of every thread of process
// pid so far, as the kernel accounts it (/proc/<pid>/stat, fields 14 and
// 15).
func processCPU(b *testing.B, pid int) time.Duration {
	b.Helper()
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatalf("the server's CPU time: %v (this benchmark reads Linux's /proc)", err)
	}
	// The command name (field 2) is in parentheses and may hold spaces.
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+2:]))
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		b.Fatalf("/proc/%d/stat: %q", pid, stat)
	}
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// writeWrkScript writes a wrk script whose requests cycle through items,
// each made by the Lua expression request.
func writeWrkScript(b *testing.B, dir, name string, items []string, request string) string {
	b.Helper()
	var lua strings.Builder
	lua.WriteString("-- written by BenchmarkW3COverHTTP\nlocal items = {\n")
	for _, it := range items {
		q, _ := json.Marshal(it) // a JSON string is a Lua string literal for these bytes
		lua.WriteString("  " + string(q) + ",\n")
	}
	lua.WriteString("}\nlocal i = 0\nrequest = function()\n  i = i % #items + 1\n  return " + request + "\nend\n")
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(lua.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// checkBenchAnswer sends one request and requires a 200 whose body holds want.
func checkBenchAnswer(b *testing.B, method, url, body, want string) {
	b.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	var got bytes.Buffer
	got.ReadFrom(resp.Body)
	if resp.StatusCode != 200 || !strings.Contains(got.String(), want) {
		b.Fatalf("%s %s: %d %.300s, want %q", method, url, resp.StatusCode, got.String(), want)
	}
}

// seedBenchDIDs publishes w3cBenchDIDs DIDs through the node's /idtx, each
// created then updated (two services), and returns them.
func seedBenchDIDs(b *testing.B, n *child) []string {
	b.Helper()
	dids := make([]string, w3cBenchDIDs)
	errs := make(chan error, w3cBenchDIDs)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := range dids {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			d, err := publishBenchDID(n, i)
			dids[i] = d
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			b.Fatal(err)
		}
	}
	return dids
}

// publishBenchDID creates and updates DID i of the benchmark.
func publishBenchDID(n *child, i int) (string, error) {
	seed := sha256.Sum256(fmt.Appendf(nil, "w3c bench %d", i))
	priv, err := keys.NewPrivateKey(seed[:])
	if err != nil {
		return "", err
	}
	subject := did.FromKey(priv.Public())
	primary := did.URL{DID: subject, Fragment: did.PrimaryKey}
	publish := func(previous string, services ...did.Service) error {
		doc, err := did.NewDocument(priv.Public(), time.Now().AddDate(1, 0, 0), services...)
		if err == nil {
			doc, err = doc.Sign(priv, primary, time.Now())
		}
		var r idop.Request
		if err == nil && previous == "" {
			r, err = idop.NewCreate(doc, primary, priv)
		} else if err == nil {
			r, err = idop.NewUpdate(doc, previous, primary, priv)
		}
		if err != nil {
			return err
		}
		body, _ := json.Marshal(r)
		resp, err := http.Post(n.rpc+"idtx", "application/json", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusAccepted {
			return fmt.Errorf("/idtx for %s: %s", subject, resp.Status)
		}
		return nil
	}
	hive := did.NewService(did.URL{DID: subject, Fragment: "hive"}, "HiveVault", "https://hive.example.org/"+subject.ID())
	if err := publish("", hive); err != nil {
		return "", err
	}
	resp, err := http.Post(n.rpc, "application/json", strings.NewReader(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"resolvedid","params":{"did":%q}}`, subject)))
	if err != nil {
		return "", err
	}
	var r struct {
		Result struct{ Transaction []struct{ Txid string } }
	}
	err = json.NewDecoder(resp.Body).Decode(&r)
	resp.Body.Close()
	if err != nil || len(r.Result.Transaction) != 1 {
		return "", fmt.Errorf("%s is not resolvable after its create (%v)", subject, err)
	}
	web := did.NewService(did.URL{DID: subject, Fragment: "web"}, "LinkedDomains", "https://example.org/"+subject.ID())
	return subject.String(), publish(r.Result.Transaction[0].Txid, hive, web)
}
