// Package demo publishes a fixed set of demo DIDs on a node's chain.
//
// It publishes a fixed set of demo DIDs on a node's chain, so that a fresh
// node (`didlight node --demo`, `make run`) has something real to resolve
// and query: a few dozen DIDs with services of several types and
// self-proclaimed credentials (profile, email, social), some updated, a few
// deactivated and a few that expire minutes after seeding; some declare a
// credential on the chain and a couple revoke it, for resolvecredential and
// listcredentials.
//
// Seeding is idempotent: the DIDs' keys derive from the node's dev seed,
// and each DID's recorded history says how far its plan got, so a second run
// publishes only what the first did not (nothing, once complete).
package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/chain"
)

// Lifetimes of the demo documents.
const (
	lifetime      = 5 * 365 * 24 * time.Hour
	shortLifetime = 5 * time.Minute
)

// Report says what Seed did.
type Report struct {
	DIDs      int // DIDs in the demo
	Published int // operations this run published
}

// Seed publishes what is missing of the demo on c, through c's dev
// account, DID after DID, so that every fresh demo chain creates them in
// the same order (the order query answers in). It returns when every
// operation is in a block, or with the first error (ctx ending included).
//
// Seeding publishes on the chain as it found it: once a reset or a revert
// takes the chain's blocks back (its epoch moves on), Seed stops with an
// error wrapping [chain.ErrReset], having published nothing since. Seeding
// again resumes, on the chain as it then is.
func Seed(ctx context.Context, c *chain.Chain) (Report, error) {
	people, err := plan(c.DevAccount().Seed)
	if err != nil {
		return Report{}, err
	}
	rep := Report{DIDs: len(people)}
	s := seeder{c: c, epoch: c.Epoch()}
	tips, stop := c.Subscribe()
	defer stop()
	for i := range people {
		n, err := s.seedWaiting(ctx, &people[i], tips)
		rep.Published += n
		if err != nil {
			return rep, err
		}
	}
	return rep, nil
}

// seedWaiting seeds p, waiting for a block each time the chain refuses an
// operation because p's DID or credential has one in the pool already:
// one an earlier seeding sent before a reset or revert stopped it, which
// the chain kept. Once that is in a block, p's history shows it.
func (s seeder) seedWaiting(ctx context.Context, p *person, tips <-chan uint32) (int, error) {
	published := 0
	for {
		n, err := p.seed(ctx, s)
		published += n
		if idop.RuleOf(err) != idop.RulePending {
			return published, err
		}
		select {
		case _, ok := <-tips:
			if !ok {
				return published, err
			}
		case <-ctx.Done():
			return published, ctx.Err()
		}
	}
}

// seeder publishes on a chain in the epoch it found it in.
type seeder struct {
	c     *chain.Chain
	epoch uint64
}

// submit publishes req and waits for its block; [chain.ErrReset] once the
// chain left the seeder's epoch.
func (s seeder) submit(ctx context.Context, req idop.Request) (ela.Hash, error) {
	return s.c.SubmitRequestIn(ctx, s.epoch, req)
}

// moved reports, as an error wrapping [chain.ErrReset], that the chain left
// the seeder's epoch: what was read of it may be of another chain.
func (s seeder) moved() error {
	if s.c.Epoch() != s.epoch {
		return fmt.Errorf("demo: %w", chain.ErrReset)
	}
	return nil
}

// seed publishes the operations of p's plan that the chain lacks, those on
// its DID and then those on its declared credential, and returns how many it
// published.
func (p *person) seed(ctx context.Context, s seeder) (int, error) {
	n, err := p.seedDID(ctx, s)
	if err != nil || !p.declare {
		return n, err
	}
	m, err := p.seedCredential(ctx, s)
	return n + m, err
}

// seedDID publishes the operations on p's DID that its history lacks.
func (p *person) seedDID(ctx context.Context, s seeder) (int, error) {
	c := s.c
	subject := did.FromKey(p.key.Public())
	done, last, err := history(ctx, c, subject)
	if err != nil {
		return 0, err
	}
	ops := p.ops()
	if len(done) > len(ops) || !slices.Equal(done, ops[:len(done)]) {
		if err := s.moved(); err != nil {
			return 0, err
		}
		return 0, fmt.Errorf("demo: %s has operations %v, not a start of the demo's %v", subject, done, ops)
	}
	published := 0
	for _, op := range ops[len(done):] {
		req, err := p.request(op, last, chainTime(c))
		if err != nil {
			return published, fmt.Errorf("demo: %s %s: %w", op, subject, err)
		}
		txid, err := s.submit(ctx, req)
		if err != nil {
			return published, fmt.Errorf("demo: %s %s: %w", op, subject, err)
		}
		last = txid.String()
		published++
	}
	return published, nil
}

// seedCredential declares p's first credential unless the chain knows it,
// and revokes it if the plan says so and it is not revoked yet.
func (p *person) seedCredential(ctx context.Context, s seeder) (int, error) {
	c := s.c
	subject := did.FromKey(p.key.Public())
	primary := did.URL{DID: subject, Fragment: did.PrimaryKey}
	id := did.URL{DID: subject, Fragment: p.credentials[0].fragment}
	status, err := credentialStatus(ctx, c, id)
	if err != nil {
		return 0, err
	}
	var reqs []idop.Request
	if status == resolve.CredentialNotFound {
		req, err := p.declareRequest(chainTime(c))
		if err != nil {
			return 0, err
		}
		reqs = append(reqs, req)
	}
	if p.revoke && status != resolve.CredentialRevoked {
		req, err := idop.NewRevoke(id, primary, p.key)
		if err != nil {
			return 0, err
		}
		reqs = append(reqs, req)
	}
	for i, req := range reqs {
		if _, err := s.submit(ctx, req); err != nil {
			return i, fmt.Errorf("demo: %s %s: %w", req.Header.Operation, id, err)
		}
	}
	return len(reqs), nil
}

// declareRequest builds and signs the declare of p's first credential,
// issued at now.
func (p *person) declareRequest(now time.Time) (idop.Request, error) {
	doc, err := p.document(now, now.Add(lifetime), false)
	if err != nil {
		return idop.Request{}, err
	}
	vc, err := p.credential(doc, p.credentials[0], now, now.Add(lifetime))
	if err != nil {
		return idop.Request{}, err
	}
	primary, _ := doc.DefaultKey()
	return idop.NewDeclare(vc, primary.ID, p.key)
}

// credentialStatus is the status the chain gives the credential id.
func credentialStatus(ctx context.Context, c *chain.Chain, id did.URL) (resolve.CredentialStatus, error) {
	raw, err := c.ResolveCredential(ctx, id, nil)
	if err != nil {
		return 0, err
	}
	var result struct{ Status resolve.CredentialStatus }
	if err := json.Unmarshal(raw, &result); err != nil {
		return 0, fmt.Errorf("demo: resolving %s: %w", id, err)
	}
	return result.Status, nil
}

// request builds and signs the operation op of p's plan at time now; last
// is the DID's last transaction, which an update names.
func (p *person) request(op, last string, now time.Time) (idop.Request, error) {
	subject := did.FromKey(p.key.Public())
	primary := did.URL{DID: subject, Fragment: did.PrimaryKey}
	if op == idop.Deactivate {
		return idop.NewDeactivate(subject, primary, p.key)
	}
	expires := now.Add(lifetime)
	if p.shortLived {
		expires = now.Add(shortLifetime)
	}
	doc, err := p.document(now, expires, op == idop.Update)
	if err != nil {
		return idop.Request{}, err
	}
	if op == idop.Update {
		return idop.NewUpdate(doc, last, primary, p.key)
	}
	return idop.NewCreate(doc, primary, p.key)
}

// chainTime is the time the next block will carry at the earliest: the
// later of the tip's block time and the clock.
func chainTime(c *chain.Chain) time.Time {
	_, _, tip := c.Tip()
	now := time.Now().UTC().Truncate(time.Second)
	if t := time.Unix(tip, 0).UTC(); t.After(now) {
		return t
	}
	return now
}

// history returns the operations recorded for d, oldest first, and the
// txid of the newest.
func history(ctx context.Context, c *chain.Chain, d did.DID) (ops []string, last string, err error) {
	raw, err := c.ResolveDID(ctx, d, true)
	if err != nil {
		return nil, "", err
	}
	var result struct {
		Transaction []struct {
			Txid      string `json:"txid"`
			Operation struct {
				Header struct {
					Operation string `json:"operation"`
				} `json:"header"`
			} `json:"operation"`
		} `json:"transaction"`
	}
	if err := json.Unmarshal(raw, &result); err != nil {
		return nil, "", fmt.Errorf("demo: resolving %s: %w", d, err)
	}
	for i := len(result.Transaction) - 1; i >= 0; i-- {
		ops = append(ops, result.Transaction[i].Operation.Header.Operation)
	}
	if n := len(result.Transaction); n > 0 {
		last = result.Transaction[0].Txid
	}
	return ops, last, nil
}
