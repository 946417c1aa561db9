package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// wrkScript sends GETs of paths in turn and records when each failed
// answer (HTTP status 400 or more) came, in milliseconds of the wall clock
// (gettimeofday through LuaJIT's FFI: the clock this program reads too).
// Its done() hook prints one summary line and one line per failure, which
// parseWrk reads.
const wrkScript = `local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_usec; } clustertest_timeval;
int gettimeofday(clustertest_timeval *tv, void *tz);
]]
local tv = ffi.new("clustertest_timeval")
local function now_ms()
  ffi.C.gettimeofday(tv, nil)
  return tonumber(tv.tv_sec) * 1000 + math.floor(tonumber(tv.tv_usec) / 1000)
end
local paths = {}
for p in string.gmatch(os.getenv("CLUSTERTEST_PATHS"), "%S+") do paths[#paths + 1] = p end
local i = 0
failed = ""
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
response = function(status, headers, body)
  if status >= 400 then failed = failed .. " " .. now_ms() .. ":" .. status end
end
local threads = {}
setup = function(thread) threads[#threads + 1] = thread end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("clustertest requests=%d duration_us=%d p50_us=%d p99_us=%d sock_errors=%d status_errors=%d\n",
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status))
  for _, t in ipairs(threads) do
    for f in string.gmatch(t:get("failed"), "%S+") do io.write("clustertest failed " .. f .. "\n") end
  end
end
`

// wrkResult is what a wrk run measured.
type wrkResult struct {
	Requests     int64
	Elapsed      time.Duration
	P50, P99     time.Duration
	SockErrors   int64 // connections that failed: no time is known for them
	StatusErrors int64
	Failed       []failure // each answer with a status of 400 or more
}

// failure is a failed answer: when it came, and its status.
type failure struct {
	At     time.Time
	Status int
}

func (r wrkResult) rate() float64 { return float64(r.Requests) / r.Elapsed.Seconds() }

// runWrk drives base (http://host:port) for d with GETs of paths, from
// conns connections on two threads.
func runWrk(ctx context.Context, dir, base string, paths []string, conns int, d time.Duration) (wrkResult, error) {
	script := filepath.Join(dir, "clustertest.lua")
	if err := os.WriteFile(script, []byte(wrkScript), 0o644); err != nil {
		return wrkResult{}, err
	}
	cmd := exec.CommandContext(ctx, "wrk", "-t", "2", "-c", strconv.Itoa(conns), "-d", fmt.Sprintf("%ds", int(d.Seconds())),
		"--timeout", "10s", "-s", script, base)
	cmd.Env = append(os.Environ(), "CLUSTERTEST_PATHS="+strings.Join(paths, " "))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return wrkResult{}, fmt.Errorf("wrk %s: %v\n%s", base, err, out)
	}
	return parseWrk(string(out))
}

// parseWrk reads the lines the script's done() hook prints.
func parseWrk(out string) (wrkResult, error) {
	var r wrkResult
	summary := false
	for line := range strings.Lines(out) {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "clustertest ")
		if !ok {
			continue
		}
		if f, ok := strings.CutPrefix(rest, "failed "); ok {
			ms, status, _ := strings.Cut(f, ":")
			at, err1 := strconv.ParseInt(ms, 10, 64)
			code, err2 := strconv.Atoi(status)
			if err1 != nil || err2 != nil {
				return wrkResult{}, fmt.Errorf("wrk's failure line %q", line)
			}
			r.Failed = append(r.Failed, failure{time.UnixMilli(at), code})
			continue
		}
		var dur, p50, p99 int64
		if _, err := fmt.Sscanf(rest, "requests=%d duration_us=%d p50_us=%d p99_us=%d sock_errors=%d status_errors=%d",
			&r.Requests, &dur, &p50, &p99, &r.SockErrors, &r.StatusErrors); err != nil {
			return wrkResult{}, fmt.Errorf("wrk's summary %q: %v", rest, err)
		}
		r.Elapsed, r.P50, r.P99 = time.Duration(dur)*time.Microsecond, time.Duration(p50)*time.Microsecond, time.Duration(p99)*time.Microsecond
		summary = true
	}
	if !summary || r.Requests <= 0 || r.Elapsed <= 0 {
		return wrkResult{}, fmt.Errorf("wrk printed no summary with requests:\n%s", out)
	}
	return r, nil
}
