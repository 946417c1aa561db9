package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/chaingen"
	"github.com/didlight/didlight/host/internal/cputime"
	"github.com/didlight/didlight/host/internal/rss"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/synth"
)

// result is what scalebench measured on one chain.
type result struct {
	DIDs             int        `json:"dids"`
	Height           uint32     `json:"height"`
	Generation       generation `json:"generation"`
	NodeStartSeconds float64    `json:"nodeStartSeconds"`
	NodeRSS          rss.Usage  `json:"nodeRSS"`
	OpenSeconds      float64    `json:"openSeconds"`
	RSSOpen          rss.Usage  `json:"rssOpen"`
	RSSMixed         rss.Usage  `json:"rssMixed"`              // nothing trimmed: every store page the calls read stays mapped
	RSSTrimmed       rss.Usage  `json:"rssTrimmed"`            // then trimmed, as the node does over its --map-budget
	Resolve          float64    `json:"resolveMicros"`         // CPU per resolvedid, all false, asked again (its answer kept)
	ResolveAll       float64    `json:"resolveAllMicros"`      // all true
	ResolveCold      float64    `json:"resolveColdMicros"`     // all false, asked once: built from store pages this process never read
	ResolveAllCold   float64    `json:"resolveAllColdMicros"`  // all true
	ResolveBuilt     float64    `json:"resolveBuiltMicros"`    // all false, asked once, its pages read by the other form: built from the store
	ResolveAllBuilt  float64    `json:"resolveAllBuiltMicros"` // all true
	Queries          []query    `json:"queries"`
	Follow           follow     `json:"follow"`
}

// query is one query's cost per page of 10.
type query struct {
	Name   string  `json:"name"`
	Plan   string  `json:"plan"`
	Total  int     `json:"total"`
	Micros float64 `json:"micros"`
}

// follow is a follower's catch-up on the chain.
type follow struct {
	Seconds    float64 `json:"seconds"`
	CPUSeconds float64 `json:"cpuSeconds"`
	Blocks     int     `json:"blocks"`
}

// measureChild measures the chain in dir from this process, which holds
// nothing else, and writes the result as JSON.
func measureChild(ctx context.Context, dir string, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("scalebench measure", flag.ContinueOnError)
	seed := fs.String("seed", "didlight", "")
	n := fs.Int("dids", 0, "")
	requests := fs.Int("requests", 0, "")
	follow := fs.Bool("follow", true, "")
	if err := fs.Parse(args); err != nil {
		return err
	}
	plan, err := synth.NewPlan(*seed, *n, chain.GenesisTime, chaingen.Interval)
	if err != nil {
		return err
	}
	r := &result{DIDs: *n}
	begin := time.Now()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		return err
	}
	defer db.Close()
	c, err := chain.Open(chain.Config{DB: db})
	if err != nil {
		return err
	}
	defer c.Close()
	r.OpenSeconds = time.Since(begin).Seconds()
	r.Height, _, _ = c.Tip()
	if r.RSSOpen, err = rss.Self(); err != nil {
		return err
	}
	spread, err := sample(plan, 3000)
	if err != nil {
		return err
	}
	// Three samples spread over the chain: two resolved once in each form,
	// so that every answer is built from the store, the first form's on
	// store pages the process never read (a fault maps each) and the
	// second's on pages read before; and one resolved again and again, as
	// a node answering the same DIDs does from the answers it keeps for
	// the tip.
	var subjects, fresh, freshAll []did.DID
	for i, d := range spread {
		switch i % 3 {
		case 0:
			subjects = append(subjects, d)
		case 1:
			fresh = append(fresh, d)
		default:
			freshAll = append(freshAll, d)
		}
	}
	resolve := func(dids []did.DID, all bool, rounds int) (float64, error) {
		return perCall(len(dids), rounds, func(i int) error { _, err := c.ResolveDID(ctx, dids[i], all); return err })
	}
	if r.ResolveCold, err = resolve(fresh, false, 1); err != nil {
		return err
	}
	if r.ResolveAllCold, err = resolve(freshAll, true, 1); err != nil {
		return err
	}
	if r.ResolveBuilt, err = resolve(freshAll, false, 1); err != nil {
		return err
	}
	// A whole history read in the SDKs' dialect, an answer kept apart,
	// reads the pages of every entry: the all=true answers are then built
	// on pages read before, as the latest ones were (the all=false pass
	// read the newest entry alone).
	for _, d := range fresh {
		if _, err := c.ResolveDIDSDK(ctx, d, true); err != nil {
			return err
		}
	}
	if r.ResolveAllBuilt, err = resolve(fresh, true, 1); err != nil {
		return err
	}
	if r.Resolve, err = resolve(subjects, false, 20); err != nil {
		return err
	}
	if r.ResolveAll, err = resolve(subjects, true, 20); err != nil {
		return err
	}
	qs, err := queries(plan)
	if err != nil {
		return err
	}
	for _, q := range qs {
		m, err := measureQuery(ctx, c, q)
		if err != nil {
			return err
		}
		r.Queries = append(r.Queries, m)
	}
	if err := mixed(ctx, c, subjects, qs, *requests); err != nil {
		return err
	}
	if r.RSSMixed, err = rss.Self(); err != nil {
		return err
	}
	if err := db.Trim(); err != nil {
		return err
	}
	if r.RSSTrimmed, err = rss.Self(); err != nil {
		return err
	}
	if !*follow {
		return json.NewEncoder(stdout).Encode(r)
	}
	if r.Follow, err = catchUp(ctx, c); err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(r)
}

// sample returns the DIDs of k of the plan's DIDs, spread over the chain.
func sample(plan *synth.Plan, k int) ([]did.DID, error) {
	k = min(k, plan.DIDs)
	out := make([]did.DID, k)
	for j := range out {
		d, err := plan.Subject(plan.Shape(j * plan.DIDs / k))
		if err != nil {
			return nil, err
		}
		out[j] = d
	}
	return out, nil
}

// perCall returns the CPU microseconds per call of fn, called with 0 to
// n-1 in turn until at least a second of CPU or the given rounds.
func perCall(n, rounds int, fn func(i int) error) (float64, error) {
	start := cputime.Now()
	calls := 0
	for range rounds {
		for i := range n {
			if err := fn(i); err != nil {
				return 0, err
			}
			calls++
		}
		if cputime.Now()-start > time.Second {
			break
		}
	}
	end := cputime.Now()
	return float64(end-start) / float64(time.Microsecond) / float64(calls), nil
}

// benchQuery is a query scalebench measures, by a name for the table.
type benchQuery struct {
	name string
	q    chain.Query
}

// queries are the queries measured, pages of 10: by service and credential
// type, and find conditions the indexes serve, partly serve, or not.
func queries(plan *synth.Plan) ([]benchQuery, error) {
	issuer := did.FromKey(synth.Key(plan.Seed, 3).Public()).String()
	out := []benchQuery{
		{"service HiveVault (common)", chain.Query{Service: "HiveVault"}},
		{"service Storage (rare)", chain.Query{Service: "Storage"}},
		{"credential ProfileCredential", chain.Query{Credential: "ProfileCredential"}},
	}
	for _, f := range []struct{ name, cond string }{
		{"find subject.country = DE (indexed)", `{"credential.subject.country":"DE"}`},
		{"find issuer and type (indexed, $and)", `{"credential.issuer":"` + issuer + `","credential.type":"KYCCredential"}`},
		{"find $or of two types (indexed)", `{$or:[{"credential.type":"KYCCredential"},{"service.type":"GitHub"}]}`},
		{"find country = DE and age >= 60 (index, then match)", `{"credential.subject.country":"DE","credential.subject.age":{$gte:60}}`},
		{"find subject.age >= 60 (presence of most: scan)", `{"credential.subject.age":{$gte:60}}`},
		{"find the spec's example (shape of most: scan)", `{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`},
		{"find expires < 2027-06 (not indexed: scan)", `{"expires":{$lt:"2027-06-01T00:00:00Z"}}`},
	} {
		cond, err := find.Compile(f.cond)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.name, err)
		}
		out = append(out, benchQuery{f.name, chain.Query{Condition: cond}})
	}
	for i := range out {
		out[i].q.Limit = 10
	}
	return out, nil
}

// measureQuery returns the CPU per page of q, its total and plan.
func measureQuery(ctx context.Context, c *chain.Chain, bq benchQuery) (query, error) {
	m := query{Name: bq.name, Plan: "index (type postings)"}
	if bq.q.Condition != nil {
		var err error
		if m.Plan, err = c.Explain(bq.q.Condition); err != nil {
			return m, err
		}
	}
	raw, err := c.Query(ctx, bq.q)
	if err != nil {
		return m, err
	}
	var res struct{ Total int }
	if err := json.Unmarshal(raw, &res); err != nil {
		return m, err
	}
	m.Total = res.Total
	// Each call asks for another page, so that none is answered from the
	// pages the chain keeps for its tip: every one is built.
	page := 0
	m.Micros, err = perCall(1, 20, func(int) error {
		page++
		q := bq.q
		q.Skip = page * q.Limit
		_, err := c.Query(ctx, q)
		return err
	})
	return m, err
}

// mixed makes n calls: resolves (all false and true) and the indexed
// queries, in turn.
func mixed(ctx context.Context, c *chain.Chain, subjects []did.DID, qs []benchQuery, n int) error {
	for i := range n {
		var err error
		switch j := i % 10; {
		case j < 6:
			_, err = c.ResolveDID(ctx, subjects[i%len(subjects)], j == 5)
		default:
			_, err = c.Query(ctx, qs[i%4].q) // the type queries and one indexed find
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// catchUp applies every block of c to a new follower's chain, as a
// follower syncing from a node serving c does, and says how long it took.
func catchUp(ctx context.Context, c *chain.Chain) (follow, error) {
	var f follow
	dir, err := os.MkdirTemp("", "scalebench-follower-")
	if err != nil {
		return f, err
	}
	defer os.RemoveAll(dir)
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		return f, err
	}
	defer db.Close()
	fc, err := chain.Open(chain.Config{DB: db, Follower: true})
	if err != nil {
		return f, err
	}
	defer fc.Close()
	tip, _, _ := c.Tip()
	begin, cpu := time.Now(), cputime.Now()
	for h := uint32(1); h <= tip; h++ {
		b, _, err := c.BlockByHeight(h)
		if err != nil {
			return f, err
		}
		cf, err := c.Confirm(b.Hash())
		if err != nil {
			return f, err
		}
		if err := fc.Apply(ctx, b, cf); err != nil {
			return f, err
		}
	}
	f.Seconds, f.CPUSeconds, f.Blocks = time.Since(begin).Seconds(), (cputime.Now() - cpu).Seconds(), int(tip)
	return f, nil
}
