package api_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// Shutting down stops accepting connections at once but lets a request in
// flight finish: here an /idtx waiting for its block, which comes after the
// shutdown began.
func TestGracefulShutdown(t *testing.T) {
	n := startNode(t, time.Hour) // no block unless asked
	id := newIdentity(t, "inflight")
	body := requestJSON(t, id.create(yearFromNow()))
	answered := make(chan int, 1)
	go func() {
		resp, err := http.Post(n.rpcURL+"idtx", "application/json", bytes.NewReader(body))
		if err != nil {
			answered <- 0
			return
		}
		resp.Body.Close()
		answered <- resp.StatusCode
	}()
	waitFor(t, "the request in the mempool", func() bool { return len(n.chain.Mempool()) == 1 })

	stopped := make(chan error, 1)
	go func() { stopped <- n.stopServing() }()
	u, _ := url.Parse(n.rpcURL)
	waitFor(t, "the listener closed", func() bool {
		c, err := net.Dial("tcp", u.Host)
		if err == nil {
			c.Close()
		}
		return err != nil
	})
	select {
	case err := <-stopped:
		t.Fatalf("Serve returned (%v) with a request in flight", err)
	default:
	}

	if _, err := n.chain.Mine(context.Background()); err != nil {
		t.Fatal(err)
	}
	if status := <-answered; status != http.StatusAccepted {
		t.Errorf("the request in flight was answered %d, want 202", status)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Serve after a graceful shutdown: %v", err)
	}
}

// waitFor polls cond until it holds, for at most ten seconds.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10s for %s", what)
		}
	}
}
