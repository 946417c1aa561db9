package eidtest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestExchangeLines(t *testing.T) {
	for _, tc := range []struct {
		name     string
		request  string
		body     string
		wantJSON bool
	}{
		{"geth's answer with its newline", `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x1\"}\n", true},
		{"spaces and html kept as sent", `{"id":"a b","method":"x","params":["<&>"]}`, "{ \"result\" : \"<&>\u2028\" }\r\n", true},
		{"a batch", `[{"id":1,"method":"a"},{"id":2,"method":"b"}]`, "[{\"id\":1},{\"id\":2}]\n", true},
		{"text, not JSON", `{"id":1}`, "404 page not found\n", false},
		{"JSON then garbage", `{"id":1}`, "{\"id\":1} trailing", false},
		{"leading space", `{"id":1}`, " {\"id\":1}", false},
		{"empty body", `{"id":1}`, "", false},
		{"request not JSON", "{\"id\":\n", "{}", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := NewExchange(tc.name, []byte(tc.request), 200, []byte(tc.body))
			if got := x.Response != nil; got != tc.wantJSON {
				t.Errorf("kept as JSON: %v, want %v", got, tc.wantJSON)
			}
			if !bytes.Equal(x.Body(), []byte(tc.body)) {
				t.Errorf("Body() = %q, want %q", x.Body(), tc.body)
			}
			path := filepath.Join(t.TempDir(), "x.jsonl")
			line := x.AppendLine(nil)
			if bytes.Count(line, []byte("\n")) != 1 {
				t.Fatalf("not one line: %q", line)
			}
			if err := os.WriteFile(path, line, 0o644); err != nil {
				t.Fatal(err)
			}
			xs, err := ReadFile(path)
			if err != nil || len(xs) != 1 {
				t.Fatalf("ReadFile: %v, %d exchanges", err, len(xs))
			}
			back := xs[0]
			if !bytes.Equal(back.Body(), []byte(tc.body)) || back.Note != tc.name || back.Status != 200 {
				t.Errorf("read back %+v, body %q", back, back.Body())
			}
			wantRequest := []byte(tc.request)
			if !json.Valid(wantRequest) || bytes.ContainsAny(wantRequest, "\n") {
				wantRequest, _ = json.Marshal(tc.request) // kept as a JSON string
			}
			if !bytes.Equal(back.Request, wantRequest) {
				t.Errorf("request read back %s, want %s", back.Request, wantRequest)
			}
		})
	}
}

func FuzzNewExchange(f *testing.F) {
	for _, b := range []string{"{\"id\":1}\n", "[1,2] ", "not json", "", "{\"a\":\"\\u2028<&>\"}\r\n", "{} {}"} {
		f.Add([]byte(b))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		x := NewExchange("fuzz", []byte(`{"id":1}`), 200, body)
		if !bytes.Equal(x.Body(), body) {
			t.Fatalf("Body() = %q, want %q", x.Body(), body)
		}
		line := x.AppendLine(nil)
		var back Exchange
		if err := json.Unmarshal(line, &back); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		if !bytes.Equal(back.Body(), body) {
			t.Fatalf("read back %q, want %q", back.Body(), body)
		}
	})
}
