package eidtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// testReplay is a replay of made-up exchanges, as a node would answer.
func testReplay(t *testing.T, opts Options) *Server {
	t.Helper()
	r := &replay{checkpoint: "test", answers: map[string][]byte{}}
	for _, x := range []struct{ req, resp string }{
		{`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`, `{"jsonrpc":"2.0","id":1,"result":"0x10"}`},
		{`{"id":"ab","method":"did_resolveDID","params":[{"did":"did:elastos:x","all":true}]}`, `{"jsonrpc":"2.0","id":"ab","result":{"did":"did:elastos:x","status":0}}`},
		{`{"id":2,"method":"did_resolveDID","params":[{"did":"did:elastos:x"}]}`, `{"jsonrpc":"2.0","id":2,"result":{"did":"did:elastos:x","status":2}}`},
		{`{"id":3,"method":"did_resolveDID"}`, `{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"missing value for required argument 0"}}`},
		{`{"id":4,"method":"did_resolveDID","params":[]}`, `{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"empty"}}`},
		{`[{"id":5,"method":"eth_chainId","params":[]},{"id":6,"method":"net_version","params":[]}]`, `[{"jsonrpc":"2.0","id":6,"result":"7203"},{"jsonrpc":"2.0","id":5,"result":"0x1c23"}]`},
		{`[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}`},
	} {
		if err := r.add(NewExchange("", []byte(x.req), 200, []byte(x.resp+"\n"))); err != nil {
			t.Fatal(err)
		}
	}
	return newServer(t, r, opts)
}

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestReplayAnswers(t *testing.T) {
	s := testReplay(t, Options{})
	for _, tc := range []struct {
		name, body, want string
	}{
		{"recorded id", `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`, `{"jsonrpc":"2.0","id":1,"result":"0x10"}`},
		{"another number id", `{"jsonrpc":"2.0","id":77,"method":"eth_blockNumber","params":[]}`, `{"jsonrpc":"2.0","id":77,"result":"0x10"}`},
		{"string id, no jsonrpc", `{"id":"0123456789abcdef0123456789abcdef","method":"eth_blockNumber","params":[]}`, `{"jsonrpc":"2.0","id":"0123456789abcdef0123456789abcdef","result":"0x10"}`},
		{"no id: null", `{"method":"eth_blockNumber","params":[]}`, `{"jsonrpc":"2.0","id":null,"result":"0x10"}`},
		{"params in another member order and spacing", `{"params":[ {"all":true, "did":"did:elastos:x"} ],"method":"did_resolveDID","id":9}`, `{"jsonrpc":"2.0","id":9,"result":{"did":"did:elastos:x","status":0}}`},
		{"all absent is not all false", `{"id":9,"method":"did_resolveDID","params":[{"did":"did:elastos:x","all":false}]}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32099,"message":"eidtest: no recorded answer to did_resolveDID [{\"all\":false,\"did\":\"did:elastos:x\"}] at checkpoint test"}}`},
		{"values matter", `{"id":9,"method":"did_resolveDID","params":[{"did":"did:elastos:X","all":true}]}`, `{"jsonrpc":"2.0","id":9,"error":{"code":-32099,"message":"eidtest: no recorded answer to did_resolveDID [{\"all\":true,\"did\":\"did:elastos:X\"}] at checkpoint test"}}`},
		{"absent params are null params", `{"id":8,"method":"did_resolveDID","params":null}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"missing value for required argument 0"}}`},
		{"empty params are not absent", `{"id":8,"method":"did_resolveDID","params":[]}`, `{"jsonrpc":"2.0","id":8,"error":{"code":-32602,"message":"empty"}}`},
		{"unknown method", `{"id":"q","method":"eth_gasPrice"}`, `{"jsonrpc":"2.0","id":"q","error":{"code":-32099,"message":"eidtest: no recorded answer to eth_gasPrice null at checkpoint test"}}`},
		{"batch element by element, in the caller's order", `[{"id":"b","method":"net_version","params":[]},{"id":"a","method":"eth_chainId","params":[]},{"id":"c","method":"nothing"}]`,
			`[{"jsonrpc":"2.0","id":"b","result":"7203"},{"jsonrpc":"2.0","id":"a","result":"0x1c23"},{"jsonrpc":"2.0","id":"c","error":{"code":-32099,"message":"eidtest: no recorded answer to nothing null at checkpoint test"}}]`},
		{"empty batch as recorded", `[]`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"empty batch"}}`},
		{"not JSON", `{"id":1,`, `{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"eidtest: request \"{\\\"id\\\":1,\" is not a JSON-RPC object"}}`},
		{"batch element not an object", `[1]`, `[{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"eidtest: request \"1\" is not a JSON-RPC object"}}]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, got := post(t, s.URL, tc.body)
			if status != 200 || got != tc.want+"\n" {
				t.Errorf("HTTP %d\n got %s\nwant %s", status, got, tc.want)
			}
		})
	}
}

func TestReplayTamper(t *testing.T) {
	s := testReplay(t, Options{Tamper: func(method string, params json.RawMessage, answer []byte) []byte {
		if method != "did_resolveDID" {
			return answer
		}
		return bytes.Replace(answer, []byte(`"status":0`), []byte(`"status":1`), 1)
	}})
	for _, tc := range []struct{ name, body, want string }{
		{"tampered", `{"id":1,"method":"did_resolveDID","params":[{"did":"did:elastos:x","all":true}]}`, `{"jsonrpc":"2.0","id":1,"result":{"did":"did:elastos:x","status":1}}`},
		{"untouched", `{"id":1,"method":"eth_blockNumber","params":[]}`, `{"jsonrpc":"2.0","id":1,"result":"0x10"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, got := post(t, s.URL, tc.body); got != tc.want+"\n" {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
}

func TestReplayFaults(t *testing.T) {
	body := `{"id":1,"method":"eth_blockNumber","params":[]}`
	for _, tc := range []struct {
		fault  Fault
		status int
		want   string // the start of the body; "" when the connection closes
	}{
		{Status500, 500, "eidtest: injected failure"},
		{Garbage, 200, "\x00\xff"},
		{Hangup, 0, ""},
		{NoFault, 200, `{"jsonrpc":"2.0","id":1,"result":"0x10"}`},
	} {
		t.Run(strings.TrimSpace(tc.want[:min(len(tc.want), 10)])+"/"+http.StatusText(tc.status), func(t *testing.T) {
			s := testReplay(t, Options{Fault: func(n int) Fault {
				if n == 0 {
					return tc.fault
				}
				return NoFault
			}})
			resp, err := http.Post(s.URL, "application/json", strings.NewReader(body))
			if tc.status == 0 {
				if err == nil {
					resp.Body.Close()
					t.Fatalf("HTTP %d, want the connection closed", resp.StatusCode)
				}
			} else {
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.status || !strings.HasPrefix(string(b), tc.want) {
					t.Fatalf("HTTP %d %q, want %d %q…", resp.StatusCode, b, tc.status, tc.want)
				}
			}
			// The next request is answered: faults are per request.
			if status, got := post(t, s.URL, body); status != 200 || !strings.Contains(got, `"result":"0x10"`) {
				t.Errorf("after the fault: HTTP %d %s", status, got)
			}
			if s.Requests() != 2 {
				t.Errorf("Requests() = %d, want 2", s.Requests())
			}
		})
	}
}

func TestReplayDelay(t *testing.T) {
	s := testReplay(t, Options{Delay: time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, strings.NewReader(`{"id":1,"method":"eth_blockNumber","params":[]}`))
	resp, err := http.DefaultClient.Do(req)
	if err == nil {
		resp.Body.Close()
		t.Fatalf("answered HTTP %d before the delay", resp.StatusCode)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error %v, want the client's deadline", err)
	}
}

func TestWithID(t *testing.T) {
	for _, tc := range []struct {
		answer, id, want, err string
	}{
		{`{"jsonrpc":"2.0","id":1,"result":{"id":5}}`, `"x"`, `{"jsonrpc":"2.0","id":"x","result":{"id":5}}`, ""},
		{`{"jsonrpc":"2.0","result":[1,2],"id":null}`, `7`, `{"jsonrpc":"2.0","result":[1,2],"id":7}`, ""},
		{`{"jsonrpc":"2.0","id":1,"result":1}`, ``, `{"jsonrpc":"2.0","id":null,"result":1}`, ""},
		{`{"jsonrpc":"2.0","result":1}`, `1`, ``, "has no id"},
		{`[1]`, `1`, ``, "is not an object"},
	} {
		t.Run(tc.answer, func(t *testing.T) {
			var id json.RawMessage
			if tc.id != "" {
				id = json.RawMessage(tc.id)
			}
			got, err := withID([]byte(tc.answer), id)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("got %s, %v; want %s", got, err, tc.want)
			}
		})
	}
}

func FuzzReply(f *testing.F) {
	for _, b := range []string{`{"id":1,"method":"eth_blockNumber","params":[]}`, `[{"id":1,"method":"eth_chainId","params":[]}]`, `[]`, `{`, `[1,{}]`, `{"id":{"a":[]},"method":"did_resolveDID","params":[{"did":"did:elastos:x","all":true}]}`} {
		f.Add([]byte(b))
	}
	s := &Server{src: &replay{checkpoint: "fuzz", answers: map[string][]byte{
		`eth_blockNumber []`: []byte(`{"jsonrpc":"2.0","id":1,"result":"0x10"}`),
	}}}
	f.Fuzz(func(t *testing.T, body []byte) {
		out := s.reply(context.Background(), body)
		if !json.Valid(out) {
			t.Fatalf("answer %q to %q is not JSON", out, body)
		}
	})
}

// TestReplayServesRecordedBytes sends every recorded request to the replay
// of its checkpoint: the answer is the recorded body byte for byte, and
// with another id only the id differs. (A request recorded twice in a
// file, such as eth_blockNumber, is served its first answer: later ones
// are left out.)
func TestReplayServesRecordedBytes(t *testing.T) {
	rec, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rec.Manifest.Checkpoints {
		t.Run(c.Name, func(t *testing.T) {
			u := NewReplay(t, Options{Checkpoint: c.Name})
			seen := map[string]bool{}
			for _, xs := range [][]Exchange{rec.Checkpoints[c.Name], rec.Chain} {
				for _, x := range xs {
					k := string(x.Request)
					if req, err := parseRequest(x.Request); err == nil {
						k, _ = key(req.method, req.params)
					}
					if seen[k] || x.Response == nil {
						continue
					}
					seen[k] = true
					if _, got := post(t, u.URL, string(x.Request)); got != string(x.Body()) {
						t.Errorf("%s:\n got %s\nwant %s", x.Note, got, x.Body())
					}
					req, err := parseRequest(x.Request)
					if err != nil {
						continue // a batch
					}
					other := bytes.Replace(x.Request, []byte(`"id":`+string(req.id)), []byte(`"id":"other"`), 1)
					want, _ := withID(x.Response, json.RawMessage(`"other"`))
					if _, got := post(t, u.URL, string(other)); got != string(want)+x.Tail {
						t.Errorf("%s with id \"other\":\n got %s\nwant %s", x.Note, got, want)
					}
				}
			}
			if len(seen) < 50 {
				t.Errorf("only %d recorded requests", len(seen))
			}
		})
	}
}
