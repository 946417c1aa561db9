package node_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store/mem"
)

func openChain(t *testing.T) *chain.Chain {
	t.Helper()
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A node serves both APIs on free loopback ports and mines; Stop stops it,
// twice as well as once, and leaves the chain open.
func TestStartServesAndStops(t *testing.T) {
	c := openChain(t)
	n, err := node.Start(c, node.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if got := get(t, n.RESTURL()+"/block/height"); got != `{"Desc":"Success","Error":0,"Result":0}` {
		t.Errorf("GET /block/height: %s", got)
	}
	if !strings.HasPrefix(n.RPCURL(), "http://127.0.0.1:") || !strings.HasSuffix(n.RESTURL(), "/api/v1") {
		t.Errorf("URLs %s and %s, want loopback ones", n.RESTURL(), n.RPCURL())
	}
	if _, err := c.Mine(context.Background()); err != nil { // the chain takes blocks while the node runs
		t.Fatal(err)
	}
	if err := n.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := n.Stop(); err != nil {
		t.Fatalf("a second Stop: %v", err)
	}
	select {
	case <-n.Done():
	default:
		t.Error("Done is not closed after Stop")
	}
	if _, err := http.Get(n.RESTURL() + "/block/height"); err == nil {
		t.Error("the node still serves after Stop")
	}
	if h, _, _ := c.Tip(); h != 1 {
		t.Errorf("the chain, still open, is at height %d, want 1", h)
	}
}

// StopServing stops the servers while the producer runs on: requests in
// flight may wait for blocks. Stop then stops the producer.
func TestStopServingKeepsTheProducer(t *testing.T) {
	c := openChain(t)
	produced := make(chan struct{})
	n, err := node.Start(c, node.Config{Run: func(ctx context.Context) error {
		<-ctx.Done()
		close(produced)
		return ctx.Err() // a cancelled run is a clean stop
	}})
	if err != nil {
		t.Fatal(err)
	}
	if err := n.StopServing(); err != nil {
		t.Fatal(err)
	}
	<-n.Done()
	select {
	case <-produced:
		t.Fatal("StopServing stopped the producer")
	case <-time.After(50 * time.Millisecond):
	}
	if err := n.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	<-produced
}

// A producer that stops by itself stops the node, and Stop says why.
func TestProducerFailureStopsTheNode(t *testing.T) {
	c := openChain(t)
	boom := errors.New("boom")
	n, err := node.Start(c, node.Config{Run: func(context.Context) error { return boom }})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-n.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the node serves on after its producer failed")
	}
	if err := n.Stop(); !errors.Is(err, boom) || !strings.Contains(err.Error(), "the chain stopped") {
		t.Fatalf("Stop: %v, want the producer's error", err)
	}
}

// A listener that cannot open fails Start, and nothing runs.
func TestStartFailsOnABusyPort(t *testing.T) {
	c := openChain(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	ran := false
	_, err = node.Start(c, node.Config{RPCAddr: ln.Addr().String(), Run: func(context.Context) error { ran = true; return nil }})
	if err == nil || !strings.Contains(err.Error(), "JSON-RPC listener") {
		t.Fatalf("Start on a busy port: %v", err)
	}
	if ran {
		t.Error("the producer ran although Start failed")
	}
}
