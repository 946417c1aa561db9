package follow

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/didlight/didlight/core/ela"
)

// A follower takes no writes itself: it relays them to its upstream and
// answers with the upstream's answer.

// SendTx relays a signed raw transaction to the upstream's broadcast
// endpoint and returns the transaction id it answers. The upstream's
// refusal is a *client.RESTError (its code and detail); no answer is a
// *client.UnreachableError.
func (f *Follower) SendTx(ctx context.Context, raw []byte) (ela.Hash, error) {
	h, err := f.up.Send(ctx, raw)
	if err == nil {
		f.pollNow()
	}
	return h, err
}

// maxRelayAnswer bounds the answer of the upstream's /idtx read back.
const maxRelayAnswer = 1 << 20

// syncWait bounds how long PublishRequest waits for the block holding a
// published request to reach the follower.
const syncWait = 10 * time.Second

// Answer is an upstream's HTTP answer, relayed as it came.
type Answer struct {
	Status      int
	ContentType string
	Body        []byte
}

// PublishRequest relays a raw ID-chain request (the DID SDKs' POST /idtx)
// to the upstream and returns its answer. When the upstream accepted it
// (2xx: a block holds it), PublishRequest first waits, up to ten seconds
// or until ctx ends, for the follower's chain to reach the upstream's
// height, so that the follower resolves what the caller just published.
func (f *Follower) PublishRequest(ctx context.Context, body []byte) (*Answer, error) {
	f.mu.Lock()
	rpc := f.rpc
	f.mu.Unlock()
	if rpc == "" {
		return nil, fmt.Errorf("follow: the upstream %s has not reported its JSON-RPC port yet (is it reachable?)", f.base)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, rpc+"idtx", bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("follow: relaying to %sidtx: %w", rpc, err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := f.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("follow: relaying to the upstream: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxRelayAnswer))
	if err != nil {
		return nil, fmt.Errorf("follow: reading the upstream's answer from %sidtx: %w", rpc, err)
	}
	a := &Answer{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Body: b}
	if a.Status/100 == 2 {
		f.catchUp(ctx)
	}
	return a, nil
}

// catchUp waits until the chain reaches the upstream's current height, up
// to syncWait or until ctx ends, polling the upstream at once.
func (f *Follower) catchUp(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, syncWait)
	defer cancel()
	target, err := f.up.Height(ctx)
	if err != nil {
		return // Run reports the upstream's trouble
	}
	tips, stop := f.chain.Subscribe()
	defer stop()
	f.pollNow()
	for {
		if h, _, _ := f.chain.Tip(); h >= target {
			return
		}
		select {
		case _, ok := <-tips:
			if !ok {
				return
			}
		case <-ctx.Done():
			if !errors.Is(ctx.Err(), context.Canceled) {
				f.log.Warn("answering a relayed /idtx before the follower holds its block", "target", target, "err", ctx.Err())
			}
			return
		}
	}
}
