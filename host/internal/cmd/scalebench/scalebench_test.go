package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/chaingen"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// The smoke run: a chain of a thousand DIDs generated and measured as
// `make scalebench` measures, in this process; every measurement is made,
// each query is answered as its name says, and the table shows them.
func TestSmoke(t *testing.T) {
	dir := t.TempDir()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = chaingen.Generate(context.Background(), db, chaingen.Options{Seed: "smoke", DIDs: 1000})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := measureChild(context.Background(), dir, []string{"-seed", "smoke", "-dids", "1000", "-requests", "500"}, &out); err != nil {
		t.Fatal(err)
	}
	var r result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.DIDs != 1000 || r.Height == 0 || r.Resolve <= 0 || r.ResolveAll <= 0 || r.ResolveBuilt <= 0 || r.ResolveAllBuilt <= 0 || r.ResolveCold <= 0 || r.ResolveAllCold <= 0 || r.RSSOpen.Anon <= 0 || r.RSSMixed.Anon <= 0 || r.RSSTrimmed.File >= r.RSSMixed.File {
		t.Errorf("measurements missing: %+v", r)
	}
	if r.Follow.Blocks != int(r.Height) || r.Follow.Seconds <= 0 {
		t.Errorf("the follower applied %d blocks in %v s, the chain has %d", r.Follow.Blocks, r.Follow.Seconds, r.Height)
	}
	for _, q := range r.Queries {
		how := "index"
		if strings.Contains(q.Name, "scan") {
			how = "scan: "
		}
		if !strings.HasPrefix(q.Plan, how) || q.Micros <= 0 {
			t.Errorf("query %s: plan %q, %v µs; want a plan starting %q", q.Name, q.Plan, q.Micros, how)
		}
	}
	var table bytes.Buffer
	if err := writeTable(&table, []*result{&r}); err != nil {
		t.Fatal(err)
	}
	for _, q := range r.Queries {
		if !strings.Contains(table.String(), "| query "+q.Name+": ") || !strings.Contains(table.String(), "- "+q.Name+": "+q.Plan) {
			t.Errorf("the table lacks query %s:\n%s", q.Name, table.String())
		}
	}
}

func TestParseFlags(t *testing.T) {
	o, err := parseFlags([]string{"-sizes", "10, 200", "-requests", "7"}, io.Discard)
	if err != nil || len(o.sizes) != 2 || o.sizes[0] != 10 || o.sizes[1] != 200 || o.requests != 7 {
		t.Errorf("parseFlags: %+v, %v", o, err)
	}
	for _, bad := range [][]string{{"-sizes", "10,x"}, {"-sizes", "0"}, {"-requests", "0"}} {
		if _, err := parseFlags(bad, io.Discard); err == nil {
			t.Errorf("parseFlags(%q): no error", bad)
		}
	}
}
