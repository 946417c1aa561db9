package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
)

// Every error code of the JSON-RPC interface, over HTTP: each answered with
// HTTP 200 (the SDKs treat any other status as a network failure) and the
// id the spec says.
func TestRPCErrors(t *testing.T) {
	n := startNode(t, 0)
	alice := newIdentity(t, "alice")
	for _, tc := range []struct {
		name, body    string
		code          int
		message, data string
		id            string
	}{
		{"not JSON", `{"method":`, -32700, "Parse error", "unexpected end", "null"},
		{"empty body", ``, -32700, "Parse error", "", "null"},
		{"not an object", `"resolvedid"`, -32600, "Invalid Request", "a JSON object", "null"},
		{"empty batch", `[]`, -32600, "Invalid Request", "empty batch", "null"},
		{"id with decimals", `{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x"},"id":1.5}`, -32600, "Invalid Request", "not an integer", "null"},
		{"id an object", `{"jsonrpc":"2.0","method":"resolvedid","id":{}}`, -32600, "Invalid Request", "an object", "null"},
		{"wrong version", `{"jsonrpc":"3.0","method":"resolvedid","id":1}`, -32600, "Invalid Request", "3.0", "null"},
		{"no method", `{"jsonrpc":"2.0","id":5}`, -32600, "Invalid Request", "method is missing", "5"},
		{"unknown method", `{"jsonrpc":"2.0","method":"getblocks","id":"a"}`, -32601, "Method not found", `getblocks`, `"a"`},
		{"resolve without params", `{"jsonrpc":"2.0","method":"resolvedid","id":1}`, -32602, "Invalid params", "params is nothing", "1"},
		{"resolve without did", `{"jsonrpc":"2.0","method":"resolvedid","params":{"all":true},"id":1}`, -32602, "Invalid params", "did is missing", "1"},
		{"resolve with a bad did", `{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"did:web:x"},"id":1}`, -32602, "Invalid params", "did:", "1"},
		{"resolve with a misspelt member", `{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x","al":true},"id":1}`, -32602, "Invalid params", `unknown parameter \"al\": want did or all`, "1"},
		{"resolve with all a string", `{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x","all":"yes"},"id":1}`, -32602, "Invalid params", "all", "1"},
		{"params holding two objects", `{"jsonrpc":"2.0","method":"resolvedid","params":[{"did":"x"},{"did":"y"}],"id":1}`, -32602, "Invalid params", "holds 2 elements", "1"},
		{"query with service and query", `{"jsonrpc":"2.0","method":"query","params":{"service":"HiveVault","query":"{}"},"id":2}`, -32602, "Query parameters invalid.", "2 given", "2"},
		{"query with nothing", `{"jsonrpc":"2.0","method":"query","params":{},"id":2}`, -32602, "Query parameters invalid.", "0 given", "2"},
		{"query with a negative skip", `{"jsonrpc":"2.0","method":"query","params":{"service":"x","skip":-1},"id":2}`, -32602, "Query parameters invalid.", "skip is -1", "2"},
		{"query with a negative limit", `{"jsonrpc":"2.0","method":"query","params":{"service":"x","limit":-1},"id":2}`, -32602, "Query parameters invalid.", "limit is -1", "2"},
		{"query with a bad condition", `{"jsonrpc":"2.0","method":"query","params":{"query":"{credential.type:}"},"id":2}`, -32602, "Query parameters invalid.", `"offset":17`, "2"},
		{"query with a forbidden operator", `{"jsonrpc":"2.0","method":"query","params":{"query":"{\"$where\":\"1\"}"},"id":2}`, -32602, "Query parameters invalid.", "$where", "2"},
		{"resolvecredential without id", `{"jsonrpc":"2.0","method":"resolvecredential","params":{},"id":3}`, -32602, "Invalid params", "id is missing", "3"},
		{"resolvecredential with a DID", `{"jsonrpc":"2.0","method":"resolvecredential","params":[{"id":"#email"}],"id":3}`, -32602, "Invalid params", "not a credential id", "3"},
		{"resolvecredential with a bad issuer", `{"jsonrpc":"2.0","method":"resolvecredential","params":{"id":"did:elastos:x#a","issuer":"?"},"id":3}`, -32602, "Invalid params", "issuer", "3"},
		{"listcredentials without did", `{"jsonrpc":"2.0","method":"listcredentials","params":{"skip":1},"id":4}`, -32602, "Invalid params", "did is missing", "4"},
		{"listcredentials with a negative skip", `{"jsonrpc":"2.0","method":"listcredentials","params":[{"did":"` + alice.did.String() + `","skip":-2}],"id":4}`, -32602, "Invalid params", "skip is -2", "4"},
		{"listcredentials with a fractional limit", `{"jsonrpc":"2.0","method":"listcredentials","params":{"did":"x","limit":1.5},"id":4}`, -32602, "Invalid params", "limit", "4"},
		{"dev_increaseTime without seconds", `{"jsonrpc":"2.0","method":"dev_increaseTime","params":{},"id":5}`, -32602, "Invalid params", "seconds is missing", "5"},
		{"dev_increaseTime backwards", `{"jsonrpc":"2.0","method":"dev_increaseTime","params":[{"seconds":-60}],"id":5}`, -32602, "Invalid params", "seconds: want a whole number", "5"},
		{"dev_increaseTime too far", `{"jsonrpc":"2.0","method":"dev_increaseTime","params":{"seconds":9000000000},"id":5}`, -32602, "Invalid params", "seconds must be", "5"},
		{"dev_mine with an unknown param", `{"jsonrpc":"2.0","method":"dev_mine","params":{"blocks":2,"time":1},"id":6}`, -32602, "Invalid params", `unknown parameter \"time\"; the method takes at most 2: blocks, interval`, "6"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"", "resolve"} {
				r := n.decode(n.post(path, tc.body))
				checkRPCError(t, tc.name+" on /"+path, r, tc.code, tc.message, tc.data)
				if string(r.ID) != tc.id {
					t.Errorf("%s: id %s, want %s", tc.name, r.ID, tc.id)
				}
			}
		})
	}

	// -32001: the resolver cannot execute the call because its store fails.
	n.db.fail.Store(true)
	for _, m := range []struct{ method, params string }{
		{"resolvedid", `{"did":"` + alice.did.String() + `"}`},
		{"did_resolveDID", `[{"did":"` + alice.did.String() + `","all":true}]`},
		{"query", `{"service":"HiveVault"}`},
		{"query", `{"query":"{}"}`},
		{"listcredentials", `{"did":"` + alice.did.String() + `"}`},
		{"did_resolveCredential", `[{"id":"` + alice.did.String() + `#email"}]`},
	} {
		r := n.decode(n.post("", fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s,"id":9}`, m.method, m.params)))
		checkRPCError(t, m.method+" with the store down", r, -32001, "Resolver internal error.", errStoreDown.Error())
	}
	n.db.fail.Store(false)
	n.resolve("resolvedid", alice.did.String(), false) // and back
}

// Bodies over the limit and paths or methods the listener does not serve.
func TestRPCTransport(t *testing.T) {
	n := startNode(t, 0)
	big := `{"method":"resolvedid","params":{"did":"` + strings.Repeat("x", 1<<20) + `"}}`
	for _, path := range []string{"", "resolve", "idtx"} {
		status, _, b := n.do("POST", n.rpcURL+path, "application/json", []byte(big))
		if status != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), "at most 1048576") {
			t.Errorf("POST /%s with a 1 MiB body: %d %s", path, status, b)
		}
	}
	for i, req := range []struct{ method, path string }{{"GET", ""}, {"GET", "resolve"}, {"PUT", ""}, {"POST", "nope"}, {"GET", "idtx"}, {"GET", "reset"}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			status, _, b := n.do(req.method, n.rpcURL+req.path, "", nil)
			var r rpcResponse
			if json.Unmarshal(b, &r) != nil || status != http.StatusNotFound || r.Error == nil || r.Error.Code != -32600 || !strings.Contains(string(r.Error.Data), "not served here") {
				t.Errorf("%s /%s: %d %s, want 404 with a JSON-RPC error", req.method, req.path, status, b)
			}
		})
	}
	// Any content type is read as JSON: curl -d sends a form type.
	body := `{"method":"resolvedid","params":{"did":"x"},"id":1}`
	want := n.post("", body)
	status, _, got := n.do("POST", n.rpcURL, "application/x-www-form-urlencoded", []byte(body))
	if status != http.StatusOK || string(got) != string(want) {
		t.Errorf("form-typed body: %d %s, want %s", status, got, want)
	}
}

// Batches answer each call in order, and the forms clients actually send
// (1.0 style, no id) are answered.
func TestRPCBatchAndLenientForms(t *testing.T) {
	n := startNode(t, 0)
	alice := newIdentity(t, "alice")
	n.publish(alice, alice.create(yearFromNow()))
	single := n.call("resolvedid", map[string]any{"did": alice.did.String(), "all": true})

	body := fmt.Sprintf(`[
		{"jsonrpc":"2.0","method":"resolvedid","params":{"did":%q,"all":true},"id":1},
		{"jsonrpc":"2.0","method":"nope","id":2},
		7,
		{"jsonrpc":"2.0","method":"did_resolveDID","params":[{"did":%q,"all":true}],"id":"four"},
		{"jsonrpc":"2.0","method":"query","params":{},"id":5},
		{"method":"resolvedid","params":{"did":%q,"all":true}}
	]`, alice.did, alice.did, alice.did)
	var batch []json.RawMessage
	if err := json.Unmarshal(n.post("", body), &batch); err != nil || len(batch) != 6 {
		t.Fatalf("batch answer: %d elements (%v)", len(batch), err)
	}
	want := []struct {
		id   string
		code int
	}{{"1", 0}, {"2", -32601}, {"null", -32600}, {`"four"`, 0}, {"5", -32602}, {"null", 0}}
	for i, w := range want {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			r := n.decode(batch[i])
			if string(r.ID) != w.id || (r.Error == nil) != (w.code == 0) || (r.Error != nil && r.Error.Code != w.code) {
				t.Errorf("batch element %d: %s, want id %s code %d", i, batch[i], w.id, w.code)
			}
			if w.code == 0 && string(r.Result) != string(single.Result) {
				t.Errorf("batch element %d: result %s, want %s", i, r.Result, single.Result)
			}
		})
	}

	// One call in a batch is still a batch; a batch over 100 calls is refused whole.
	var one []rpcResponse
	json.Unmarshal(n.post("", `[{"method":"resolvedid","params":{"did":"x"},"id":1}]`), &one)
	if len(one) != 1 || one[0].Error != nil {
		t.Errorf("batch of one: %+v", one)
	}
	calls := strings.TrimSuffix(strings.Repeat(`{"method":"resolvedid","params":{"did":"x"}},`, 101), ",")
	checkRPCError(t, "a batch of 101", n.decode(n.post("", "["+calls+"]")), -32600, "Invalid Request", "batch of 101 calls")
}

// query: by service type, by credential type and by find condition; paging
// as the spec says; deactivated DIDs out of scope.
func TestQuery(t *testing.T) {
	n := startNode(t, 0)
	var ids []identity
	for i := range 7 {
		id := newIdentity(t, fmt.Sprint("query", i))
		services := []did.Service{id.service("hive", "HiveVault")}
		if i%2 == 0 {
			services = append(services, id.service("web", "LinkedDomains"))
		}
		n.publish(id, id.create(yearFromNow(), services...))
		ids = append(ids, id)
	}
	n.publish(ids[6], ids[6].deactivate())

	page := func(params map[string]any) queryResult {
		var q queryResult
		n.result("query", params, &q)
		return q
	}
	all := page(map[string]any{"service": "HiveVault"})
	if all.Total != 6 || all.Start != 0 || all.Count != 6 || len(all.Document) != 6 {
		t.Fatalf("query HiveVault: %+v, want the 6 DIDs that are not deactivated", all.summary())
	}
	for i, d := range all.Document {
		if got := docID(t, d); got != ids[i].did.String() {
			t.Errorf("document %d is %s, want %s (DID creation order)", i, got, ids[i].did)
		}
	}
	if q := page(map[string]any{"service": "LinkedDomains"}); q.Total != 3 {
		t.Errorf("query LinkedDomains: %+v, want 3 (query0, 2, 4; 6 is deactivated)", q.summary())
	}
	if q := page(map[string]any{"service": "Nothing"}); q.Total != 0 || q.Count != 0 || q.Document == nil {
		t.Errorf("query Nothing: %+v, want an empty document array", q.summary())
	}
	if q := page(map[string]any{"query": `{service: {$elemMatch: {type: 'LinkedDomains'}}}`}); q.Total != 3 {
		t.Errorf("query by condition: %+v, want 3", q.summary())
	}
	// Pages: skip 2 limit 3 is the second page of three, skip past the end is empty.
	if q := page(map[string]any{"service": "HiveVault", "skip": 2, "limit": 3}); q.Total != 6 || q.Start != 2 || q.Count != 3 ||
		docID(t, q.Document[0]) != ids[2].did.String() || docID(t, q.Document[2]) != ids[4].did.String() {
		t.Errorf("skip 2 limit 3: %+v", q.summary())
	}
	if q := page(map[string]any{"service": "HiveVault", "skip": 10}); q.Total != 6 || q.Start != 10 || q.Count != 0 || len(q.Document) != 0 {
		t.Errorf("skip 10: %+v", q.summary())
	}
	if q := page(map[string]any{"service": "HiveVault", "limit": 100000}); q.Count != 6 {
		t.Errorf("limit 100000: %+v", q.summary())
	}
}

type queryResult struct {
	Total    int               `json:"total"`
	Start    int               `json:"start"`
	Count    int               `json:"count"`
	Document []json.RawMessage `json:"document"`
}

func (q queryResult) summary() string {
	return fmt.Sprintf("total %d start %d count %d, %d documents", q.Total, q.Start, q.Count, len(q.Document))
}

func docID(t testing.TB, doc json.RawMessage) string {
	var d struct{ ID string }
	if err := json.Unmarshal(doc, &d); err != nil {
		t.Fatal(err)
	}
	return d.ID
}
