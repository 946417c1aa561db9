package light_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/idop"
	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/light"
)

func TestMain(m *testing.M) {
	if cp := os.Getenv(replayEnv); cp != "" {
		os.Exit(serveReplay(cp))
	}
	os.Exit(eidtest.Main(m))
}

// testClient is a client of the upstream at url that gives up quickly and
// sends without a budget.
func testClient(t testing.TB, url string, callTimeout time.Duration) *eidclient.Client {
	t.Helper()
	n, err := eidclient.ParseNetwork(url)
	if err != nil {
		t.Fatal(err)
	}
	c, err := eidclient.New(eidclient.Config{Network: n, Budget: -1, RequestTimeout: callTimeout, CallTimeout: callTimeout,
		Retries: 1, Backoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newResolver returns a Resolver of the upstream at url.
func newResolver(t testing.TB, url string) *light.Resolver {
	t.Helper()
	return light.New(light.Config{Client: testClient(t, url, 5*time.Second)})
}

// ask sends the upstream one request as the SDKs write it and returns the
// response's result, or its error member when it has one.
func ask(t testing.TB, url, method string, params any) (result, rpcErr json.RawMessage) {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%s: %v: %.300s", method, err, raw)
	}
	return r.Result, r.Error
}

// didParams is did_resolveDID's params as the SDKs write them.
func didParams(d string, all bool) []any {
	p := map[string]any{"did": d}
	if all {
		p["all"] = true
	}
	return []any{p}
}

// headTime is the time of the upstream's head block.
func headTime(t testing.TB, url string) (uint64, time.Time) {
	t.Helper()
	var n string
	res, _ := ask(t, url, "eth_blockNumber", []any{})
	json.Unmarshal(res, &n)
	res, _ = ask(t, url, "eth_getBlockByNumber", []any{n, false})
	var b struct{ Number, Timestamp string }
	if err := json.Unmarshal(res, &b); err != nil {
		t.Fatalf("block %s: %v", n, err)
	}
	return eidtest.Quantity(t, b.Number), time.Unix(int64(eidtest.Quantity(t, b.Timestamp)), 0).UTC()
}

// resolved is the part of a resolve result the tests compare.
type resolved struct {
	DID         string        `json:"did"`
	Status      int           `json:"status"`
	Transaction []transaction `json:"transaction"`
}

type transaction struct {
	Txid      string          `json:"txid"`
	Timestamp string          `json:"timestamp"`
	Operation json.RawMessage `json:"operation"`
}

func parseResolved(t testing.TB, raw []byte) resolved {
	t.Helper()
	var r resolved
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatalf("%v: %.300s", err, raw)
	}
	return r
}

func (r resolved) txids() []string {
	var out []string
	for _, x := range r.Transaction {
		out = append(out, x.Txid)
	}
	return out
}

// accepted returns the txids of the operations the node accepted about
// subject, newest first, as EID's answers write them.
func accepted(t testing.TB, m *scenario.Manifest, subject string) []string {
	t.Helper()
	var out []string
	for _, s := range m.Accepted(subject) {
		txid, err := eid.TxidOf(s.TxHash)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, txid)
	}
	slices.Reverse(out)
	return out
}

// lastDocument is the document the last accepted operation about subject
// published (nil for none, or a deactivate), decoded from what was sent.
func lastDocument(t testing.TB, m *scenario.Manifest, subject string) (*did.Document, bool) {
	t.Helper()
	steps := m.Accepted(subject)
	deactivated := false
	for i := len(steps) - 1; i >= 0; i-- {
		req, err := idop.ParseRequest([]byte(steps[i].Sent))
		if err != nil {
			t.Fatal(err)
		}
		op, err := idop.Decode(req)
		if err != nil {
			t.Fatal(err)
		}
		if op.Document != nil {
			return op.Document, deactivated
		}
		deactivated = true
	}
	return nil, deactivated
}
