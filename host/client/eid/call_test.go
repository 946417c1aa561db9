package eid_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/eid"
)

// quick is a configuration whose retries wait little, so that the tests
// count requests without waiting.
var quick = eid.Config{Backoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond}

// TestAnswers checks what a call makes of each kind of answer from its
// one endpoint: which are errors, which are retried, and what the error
// says.
func TestAnswers(t *testing.T) {
	big := `{"jsonrpc":"2.0","id":%s,"result":"` + strings.Repeat("x", 2000) + `"}`
	for _, tc := range []struct {
		name     string
		answer   fault
		requests int    // sent in all: 3 when retried (two more rounds)
		is       error  // wrapped by the error
		want     string // in the error
	}{
		{"wrong id", body(`{"jsonrpc":"2.0","id":"0123","result":"0x10"}`), 1, eid.ErrWrongID, `sent id "`},
		{"numeric id", body(`{"jsonrpc":"2.0","id":1,"result":"0x10"}`), 1, eid.ErrWrongID, `the answer has "1"`},
		{"no id", body(`{"jsonrpc":"2.0","result":"0x10"}`), 1, eid.ErrWrongID, "the answer has"},
		{"no jsonrpc", body(`{"id":%s,"result":"0x10"}`), 1, eid.ErrNotJSONRPC, `jsonrpc is ""`},
		{"jsonrpc 1.0", body(`{"jsonrpc":"1.0","id":%s,"result":"0x10"}`), 1, eid.ErrNotJSONRPC, `jsonrpc is "1.0"`},
		{"neither result nor error", body(`{"jsonrpc":"2.0","id":%s}`), 1, eid.ErrNotJSONRPC, "neither result nor error"},
		{"html", body(`<html>bad gateway</html>`), 1, eid.ErrNotJSONRPC, "<html>bad gateway"},
		{"truncated", body(`{"jsonrpc":"2.0","id":%s,"result":"0x`), 1, eid.ErrNotJSONRPC, "not a JSON-RPC"},
		{"a list", body(`[{"jsonrpc":"2.0","id":%s,"result":"0x10"}]`), 1, eid.ErrNotJSONRPC, ""},
		{"not a quantity", body(`{"jsonrpc":"2.0","id":%s,"result":16}`), 1, nil, `eth_blockNumber answered "16": "16" is not a quantity`},
		{"quantity too long", body(`{"jsonrpc":"2.0","id":%s,"result":"0x10000000000000000"}`), 1, nil, "is not a quantity (0x and 1 to 16 hex digits)"},
		{"too large", body(big), 1, eid.ErrTooLarge, "answer too large: over 1000 bytes"},
		{"too large announced", func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
			w.Header().Set("Content-Length", "5000")
			fmt.Fprintf(w, big, id)
		}, 1, eid.ErrTooLarge, "5000 bytes announced, at most 1000"},
		{"404", status(http.StatusNotFound), 1, nil, "HTTP 404 Not Found: \"<html>404</html>\""},
		{"500", status(http.StatusInternalServerError), 3, nil, "HTTP 500 Internal Server Error"},
		{"502", status(http.StatusBadGateway), 3, nil, "HTTP 502 Bad Gateway"},
		{"429", status(http.StatusTooManyRequests), 3, nil, "HTTP 429 Too Many Requests"},
		{"hang up", hangUp, 3, nil, "EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t, eid.MainnetChainID, 16)
			n.fail = func(method string, _ int) fault { return tc.answer }
			cfg := quick
			cfg.MaxAnswer = 1000
			c := newClient(t, cfg, n)
			_, err := c.BlockNumber(context.Background())
			var ce *eid.CallError
			var ue *client.UnreachableError
			switch {
			case !errors.As(err, &ce) || !errors.As(err, &ue) || ue.URL != n.URL:
				t.Fatalf("error %v, want a *CallError holding an *UnreachableError of %s", err, n.URL)
			case tc.is != nil && !errors.Is(err, tc.is):
				t.Errorf("error %v, want one wrapping %v", err, tc.is)
			case !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "eid: eth_blockNumber: "+n.URL+": "):
				t.Errorf("error %q, want eid: eth_blockNumber: %s: …%s…", err, n.URL, tc.want)
			case strings.Contains(err.Error(), "didlight node"):
				t.Errorf("error %q gives the advice for a didlight node", err)
			}
			if got := n.count("eth_blockNumber"); got != tc.requests {
				t.Errorf("%d requests, want %d", got, tc.requests)
			}
			if tc.requests > 1 && !strings.Contains(err.Error(), fmt.Sprintf("(%d tries)", tc.requests)) {
				t.Errorf("error %q does not count the tries", err)
			}
		})
	}
}

// TestRetries checks that a read that failed for a passing reason is
// sent again, after a wait, until it gets an answer.
func TestRetries(t *testing.T) {
	for _, tc := range []struct {
		name     string
		failures int // answered by the fault before the node answers
		answer   fault
		retries  int
		requests int
		ok       bool
	}{
		{"503 twice, then an answer", 2, status(http.StatusServiceUnavailable), 0, 3, true},
		{"hang-ups", 2, hangUp, 0, 3, true},
		{"429 with a Retry-After", 1, status(http.StatusTooManyRequests, "Retry-After", "0"), 0, 2, true},
		{"more failures than retries", 3, status(http.StatusServiceUnavailable), 0, 3, false},
		{"five retries", 5, status(http.StatusServiceUnavailable), 5, 6, true},
		{"no retries", 1, status(http.StatusServiceUnavailable), -1, 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t, eid.MainnetChainID, 16)
			n.fail = func(method string, nth int) fault {
				if nth <= tc.failures {
					return tc.answer
				}
				return nil
			}
			cfg := quick
			cfg.Retries = tc.retries
			c := newClient(t, cfg, n)
			got, err := c.BlockNumber(context.Background())
			if tc.ok && (err != nil || got != 16) {
				t.Errorf("BlockNumber = %d, %v; want 16", got, err)
			}
			if !tc.ok && err == nil {
				t.Errorf("BlockNumber = %d; want an error", got)
			}
			if n.count("") != tc.requests {
				t.Errorf("%d requests, want %d", n.count(""), tc.requests)
			}
		})
	}
}

// TestRetryAfter checks that an endpoint that asked to be left alone
// longer than a call may wait is not asked again by that call, nor by the
// next, which the other endpoint answers.
func TestRetryAfter(t *testing.T) {
	// The busy endpoint is ahead by more than MaxLag: it is chosen.
	busy, other := newNode(t, 22, 100), newNode(t, 22, 80)
	busy.fail = func(method string, nth int) fault {
		if method == "did_resolveDID" {
			return status(http.StatusTooManyRequests, "Retry-After", "3600")
		}
		return nil
	}
	other.fail = func(method string, nth int) fault {
		if method == "did_resolveDID" && nth == 1 {
			return status(http.StatusServiceUnavailable)
		}
		return nil
	}
	c := newClient(t, quick, busy, other)
	ctx := context.Background()
	d := mustDID(t, knownDID)
	if _, err := c.ResolveDID(ctx, d, false); err != nil {
		t.Fatal(err)
	}
	if _, err := c.ResolveDID(ctx, d, false); err != nil {
		t.Fatal(err)
	}
	if got := busy.count("did_resolveDID"); got != 1 {
		t.Errorf("the endpoint that asked for an hour was asked %d times, want once", got)
	}
	if got := other.count("did_resolveDID"); got != 3 {
		t.Errorf("the other endpoint was asked %d times, want 3 (a 503, then two answers)", got)
	}
	if eps := c.Endpoints(); eps[0].URL != other.URL || !strings.Contains(fmt.Sprint(eps[1].Err), "asked to wait") {
		t.Errorf("endpoints %+v, want the other first and the busy one waiting", eps)
	}
}

// TestTimeouts checks that an endpoint that does not answer costs a call
// at most its timeouts: each request's, then the whole call's.
func TestTimeouts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		cfg      eid.Config
		requests int
		want     string
	}{
		{"request timeout", eid.Config{RequestTimeout: 20 * time.Millisecond, Backoff: time.Millisecond}, 3, "no answer within 20ms (3 tries)"},
		{"call timeout", eid.Config{RequestTimeout: time.Hour, CallTimeout: 50 * time.Millisecond}, 1, "no answer within the call's 50ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t, 22, 16)
			n.fail = func(string, int) fault { return hang }
			c := newClient(t, tc.cfg, n)
			_, err := c.ResolveDID(context.Background(), mustDID(t, knownDID), true)
			if want := "eid: did_resolveDID " + knownDID + ": " + n.URL + ": " + tc.want; err == nil || err.Error() != want {
				t.Errorf("error\n got %v\nwant %s", err, want)
			}
			if n.count("") != tc.requests {
				t.Errorf("%d requests, want %d", n.count(""), tc.requests)
			}
			if tc.name == "call timeout" && !errors.Is(err, context.DeadlineExceeded) {
				t.Errorf("error %v does not wrap context.DeadlineExceeded", err)
			}
		})
	}
}

// TestCancel checks that a call ends when its context does, wherever it
// waits: for an answer, between retries, or for its budget.
func TestCancel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    eid.Config
		answer fault // nil: the node answers, and the next call waits for the budget
	}{
		{"waiting for an answer", eid.Config{}, hang},
		{"between retries", eid.Config{Backoff: time.Hour, MaxBackoff: time.Hour}, status(http.StatusBadGateway)},
		{"waiting for the budget", eid.Config{Budget: 1e-9, Burst: 1, CallTimeout: 1e6 * time.Hour}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t, 22, 16)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			n.fail = func(method string, _ int) fault {
				if tc.answer == nil {
					return nil
				}
				return func(w http.ResponseWriter, r *http.Request, id json.RawMessage) {
					cancel()
					tc.answer(w, r, id)
				}
			}
			c := newClient(t, tc.cfg, n)
			if tc.answer == nil {
				if _, err := c.BlockNumber(context.Background()); err != nil {
					t.Fatal(err)
				}
				time.AfterFunc(10*time.Millisecond, cancel)
			}
			_, err := c.BlockNumber(ctx)
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error %v, want context.Canceled", err)
			}
			if n.count("") != 1 {
				t.Errorf("%d requests, want 1", n.count(""))
			}
		})
	}
}

// TestUnreachable checks an endpoint where nothing listens.
func TestUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	c, err := eid.New(eid.Config{Network: eid.Network{Endpoints: []string{url}}, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ResolveDID(context.Background(), mustDID(t, knownDID), false)
	var ue *client.UnreachableError
	if !errors.As(err, &ue) || ue.URL != url || !strings.Contains(err.Error(), "connection refused (3 tries)") ||
		!strings.HasPrefix(err.Error(), "eid: did_resolveDID "+knownDID+": "+url+": ") {
		t.Errorf("error %v, want an UnreachableError of %s after 3 tries", err, url)
	}
}
