package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// load is how wrk drives a server: its threads, connections and duration.
type load struct {
	threads, connections int
	duration             time.Duration
}

// wrkResult is what one wrk run measured, as its done() hook reports it.
type wrkResult struct {
	requests     int64
	bytes        int64 // read from the server: answers with their headers
	elapsed      time.Duration
	p50, p99     time.Duration
	sockErrors   int64 // connect, read, write and timeout errors
	statusErrors int64 // answers with an HTTP status of 400 or more
}

// rate is the run's requests per second.
func (r wrkResult) rate() float64 { return float64(r.requests) / r.elapsed.Seconds() }

// wrkScript is the Lua script wrk runs for a request kind: it sends the
// kind's requests (its bodies, or GETs of its paths) in turn (each wrk
// thread from its own position) and, when the run is done, prints one line
// that parseWrk reads, so that nothing depends on the layout of wrk's
// report for people. Bodies and paths are Lua long strings, which need no
// escaping.
func wrkScript(k kind, path string) (string, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "local method, path, size = %q, %q, %q\n", k.method, path, fmt.Sprint(k.refSize))
	for _, list := range []struct {
		name  string
		items []string
	}{{"bodies", k.bodies}, {"paths", k.paths}} {
		fmt.Fprintf(&b, "local %s = {\n", list.name)
		for _, it := range list.items {
			if strings.Contains(it, "]==]") {
				return "", fmt.Errorf("%s: a request holds the Lua string end ]==]", k.name)
			}
			fmt.Fprintf(&b, "  [==[%s]==],\n", it)
		}
		b.WriteString("}\n")
	}
	// The kind's headers, and each path's (in pairs).
	b.WriteString("local common = {")
	for _, h := range k.headers {
		fmt.Fprintf(&b, "[==[%s]==], ", h)
	}
	b.WriteString("}\nlocal each = {\n")
	for _, hs := range k.pathHeaders {
		b.WriteString("  {")
		for _, h := range hs {
			fmt.Fprintf(&b, "[==[%s]==], ", h)
		}
		b.WriteString("},\n")
	}
	b.WriteString("}\n")
	// Requests are formatted in init, once wrk has set the Host header.
	b.WriteString(`local reqs, i = {}, 0
local function headers(json, extra)
  local h = {}
  if json then h["Content-Type"] = "application/json" end
  if size ~= "0" then h["` + sizeHeader + `"] = size end
  for j = 1, #common, 2 do h[common[j]] = common[j + 1] end
  if extra then
    for j = 1, #extra, 2 do h[extra[j]] = extra[j + 1] end
  end
  return h
end
init = function(args)
  for n, p in ipairs(paths) do
    reqs[n] = wrk.format(method, path .. p, headers(false, each[n]))
  end
  for n, body in ipairs(bodies) do
    if body == "" then
      reqs[n] = wrk.format(method, path, headers(false))
    else
      reqs[n] = wrk.format(method, path, headers(true), body)
    end
  end
end
request = function()
  i = i % #reqs + 1
  return reqs[i]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("loadbench requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d sock_errors=%d status_errors=%d\n",
    summary.requests, summary.bytes, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
end
`)
	return b.String(), nil
}

// runWrk drives target (a server's URL) with kind k under l, sending its
// requests to target's path; the script is written to dir. It returns
// what wrk measured.
func runWrk(ctx context.Context, dir string, target *url.URL, k kind, l load) (wrkResult, error) {
	script, err := wrkScript(k, target.Path)
	if err != nil {
		return wrkResult{}, err
	}
	path := filepath.Join(dir, k.name+".lua")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		return wrkResult{}, err
	}
	cmd := exec.CommandContext(ctx, "wrk", "-t", fmt.Sprint(l.threads), "-c", fmt.Sprint(l.connections),
		"-d", fmt.Sprintf("%ds", int(l.duration.Seconds())), "--timeout", "10s", "-s", path, target.String())
	out, err := cmd.CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk %s: %v\n%s", target, err, out)
	}
	return parseWrk(string(out))
}

// parseWrk reads the line the script's done() hook prints from wrk's output.
func parseWrk(out string) (wrkResult, error) {
	for line := range strings.Lines(out) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "loadbench ")
		if !ok {
			continue
		}
		var r wrkResult
		var dur, p50, p99 int64
		_, err := fmt.Sscanf(rest, "requests=%d bytes=%d duration_us=%d p50_us=%d p99_us=%d sock_errors=%d status_errors=%d",
			&r.requests, &r.bytes, &dur, &p50, &p99, &r.sockErrors, &r.statusErrors)
		if err != nil {
			return wrkResult{}, fmt.Errorf("wrk's summary %q: %v", rest, err)
		}
		if r.requests <= 0 || dur <= 0 {
			return wrkResult{}, fmt.Errorf("wrk's summary %q: no requests measured", rest)
		}
		r.elapsed, r.p50, r.p99 = time.Duration(dur)*time.Microsecond, time.Duration(p50)*time.Microsecond, time.Duration(p99)*time.Microsecond
		return r, nil
	}
	return wrkResult{}, fmt.Errorf("wrk printed no summary line:\n%s", out)
}
