package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// genSpec is what loadbench asks of its generator process: the load, and
// the requests to send to addr.
type genSpec struct {
	Addr     string   `json:"addr"`
	Requests []string `json:"requests"` // raw HTTP/1.1 requests, sent in turn
	Load     openLoad `json:"load"`
}

// runGen is the generator's process (`loadbench gen SPEC`): it runs the
// load that the JSON file SPEC describes and prints what it measured as
// JSON on stdout. Its own process, so that its work and the collector's
// are not the server's, nor loadbench's.
func runGen(ctx context.Context, specFile string) error {
	raw, err := os.ReadFile(specFile)
	if err != nil {
		return err
	}
	var spec genSpec
	if err := json.Unmarshal(raw, &spec); err != nil {
		return fmt.Errorf("%s: %v", specFile, err)
	}
	if len(spec.Requests) == 0 || spec.Load.Rate <= 0 || spec.Load.Duration <= 0 || spec.Load.Connections < 1 {
		return fmt.Errorf("%s: want requests, a rate, a duration and connections: %+v", specFile, spec.Load)
	}
	reqs := make([][]byte, len(spec.Requests))
	for i, r := range spec.Requests {
		reqs[i] = []byte(r)
	}
	res, err := generate(ctx, spec.Addr, reqs, spec.Load)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// rawRequests are kind k's requests to target as the generator sends them:
// HTTP/1.1 with the headers wrk's script sends.
func rawRequests(k kind, target *url.URL) ([]string, error) {
	var out []string
	for _, r := range k.requests(target.String()) {
		u, err := url.Parse(r.url)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", k.method, u.RequestURI(), u.Host)
		if r.body != "" {
			fmt.Fprintf(&b, "Content-Type: application/json\r\nContent-Length: %d\r\n", len(r.body))
		}
		if k.refSize > 0 {
			fmt.Fprintf(&b, "%s: %d\r\n", sizeHeader, k.refSize)
		}
		for i := 0; i+1 < len(r.headers); i += 2 {
			fmt.Fprintf(&b, "%s: %s\r\n", r.headers[i], r.headers[i+1])
		}
		b.WriteString("\r\n")
		b.WriteString(r.body)
		out = append(out, b.String())
	}
	return out, nil
}

// openMeasurement is one open-loop run against one server.
type openMeasurement struct {
	Round  int    `json:"round"`
	Kind   string `json:"kind"`
	Server string `json:"server"`
	openResult
	CPUPerReq time.Duration `json:"server_cpu_per_req_ns"`
	Invalid   string        `json:"invalid,omitempty"` // why the generator's schedule did not hold
}

// measureOpen runs the generator, in a process of its own, with kind k
// against s at target under l, and reads s's CPU time around it.
func measureOpen(ctx context.Context, dir string, s *server, target *url.URL, k kind, l openLoad) (openMeasurement, error) {
	reqs, err := rawRequests(k, target)
	if err != nil {
		return openMeasurement{}, err
	}
	spec, err := json.Marshal(genSpec{Addr: target.Host, Requests: reqs, Load: l})
	if err != nil {
		return openMeasurement{}, err
	}
	path := filepath.Join(dir, "gen.json")
	if err := os.WriteFile(path, spec, 0o644); err != nil {
		return openMeasurement{}, err
	}
	self, err := os.Executable()
	if err != nil {
		return openMeasurement{}, err
	}
	before, err := cpuTime(s.pid)
	if err != nil {
		return openMeasurement{}, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, self, "gen", path)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return openMeasurement{}, fmt.Errorf("generator against %s: %v\n%s", target, err, stderr.Bytes())
	}
	after, err := cpuTime(s.pid)
	if err != nil {
		return openMeasurement{}, err
	}
	var r openResult
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return openMeasurement{}, fmt.Errorf("the generator's report %.200q: %v", stdout.Bytes(), err)
	}
	if r.Errors > 0 || r.Requests == 0 {
		return openMeasurement{}, fmt.Errorf("%s %s: %d failed requests of %d (last: %s)", s.name, k.name, r.Errors, r.Errors+r.Requests, r.LastError)
	}
	m := openMeasurement{Kind: k.name, Server: s.role(), openResult: r, CPUPerReq: (after - before) / time.Duration(r.Requests)}
	if err := r.valid(); err != nil {
		m.Invalid = err.Error()
	}
	return m, nil
}
