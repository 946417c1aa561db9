package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/demo"
)

// The did_* methods read their params as an EID node does
// (Elastos.ELA.SideChain.EID internal/ethapi/didapi.go, behind
// go-ethereum's rpc/json.go), on every node kind. The forms the recording
// of a real EID node covers are compared with it in
// host/internal/eidfollow (TestFollowRecordedDIDMethods); these are the
// forms it does not, each pinned to what EID's code answers: an error with
// EID's message, or the same result as the plain form.
func TestEIDDialect(t *testing.T) {
	n := startNode(t, 0)
	if _, err := demo.Seed(context.Background(), n.chain); err != nil {
		t.Fatal(err)
	}
	// An owner of a credential.
	var owner string
	var creds []string
	var everyone queryResult
	n.result("query", map[string]any{"query": "{}", "limit": 256}, &everyone)
	for _, doc := range everyone.Document {
		id := docID(t, doc)
		var list struct{ Credentials []string }
		n.result("listcredentials", map[string]any{"did": id}, &list)
		if len(list.Credentials) > 0 {
			owner, creds = id, list.Credentials
			break
		}
	}
	if owner == "" {
		t.Fatal("the demo declares no credential")
	}
	bare := strings.TrimPrefix(owner, "did:elastos:")
	cred, credBare := creds[0], strings.TrimPrefix(creds[0], "did:elastos:")
	list := func(ids ...string) string {
		b, _ := json.Marshal(struct {
			DID         string   `json:"did"`
			Credentials []string `json:"credentials"`
		}{owner, ids})
		return string(b)
	}
	for _, c := range []struct {
		name, method, params string
		err                  string // EID's error message; else:
		same                 string // params of the plain form, whose result this one's equals; else:
		result               string // the result
	}{
		{name: "params an element null", method: "did_resolveDID", params: `[null]`, err: "did is null"},
		{name: "params a string", method: "did_resolveDID", params: `"` + owner + `"`, err: "non-array args"},
		{name: "params null", method: "did_listCredentials", params: `null`, err: "missing value for required argument 0"},
		{name: "two params", method: "did_resolveDID", params: `[{"did":"` + owner + `"},{}]`, err: "too many arguments, want at most 1"},
		{name: "a number for the object", method: "did_resolveCredential", params: `[7]`,
			err: "invalid argument 0: json: cannot unmarshal number into Go value of type map[string]interface {}"},
		{name: "params the object itself", method: "did_resolveDID", params: `{"did":"` + bare + `","all":true}`, same: `[{"did":"` + owner + `","all":true}]`},
		{name: "all a number is false", method: "did_resolveDID", params: `[{"did":"` + owner + `","all":1}]`, same: `[{"did":"` + owner + `"}]`},
		{name: "all null is false", method: "did_resolveDID", params: `[{"did":"` + bare + `","all":null}]`, same: `[{"did":"` + owner + `"}]`},
		{name: "an unknown member is ignored", method: "did_resolveDID", params: `[{"did":"` + owner + `","al":true}]`, same: `[{"did":"` + owner + `"}]`},
		{name: "a DID that is no DID", method: "did_resolveDID", params: `[{"did":"did:elastos:"}]`, result: `{"did":"did:elastos:","status":3}`},
		{name: "a DID with another prefix case", method: "did_resolveDID", params: `[{"did":"DID:ELASTOS:` + bare + `"}]`, result: `{"did":"DID:ELASTOS:` + bare + `","status":3}`},
		{name: "a credential without prefix", method: "did_resolveCredential", params: `[{"id":"` + credBare + `"}]`, same: `[{"id":"` + cred + `"}]`},
		{name: "an issuer without prefix", method: "did_resolveCredential", params: `[{"id":"` + cred + `","issuer":"` + bare + `"}]`, same: `[{"id":"` + cred + `","issuer":"` + owner + `"}]`},
		{name: "an issuer not a string", method: "did_resolveCredential", params: `[{"id":"` + cred + `","issuer":7}]`, same: `[{"id":"` + cred + `"}]`},
		{name: "an empty issuer", method: "did_resolveCredential", params: `[{"id":"` + cred + `","issuer":""}]`, same: `[{"id":"` + cred + `"}]`},
		{name: "an id not a string", method: "did_resolveCredential", params: `[{"id":["` + cred + `"]}]`, err: "id is null"},
		{name: "a credential id that is no DID URL", method: "did_resolveCredential", params: `[{"id":"#x"}]`, result: `{"id":"#x","status":3}`},
		{name: "list without prefix", method: "did_listCredentials", params: `[{"did":"` + bare + `","limit":1}]`, result: list(creds[0])},
		{name: "skip a string is 0", method: "did_listCredentials", params: `[{"did":"` + owner + `","skip":"1","limit":1}]`, result: list(creds[0])},
		{name: "a fractional limit is cut", method: "did_listCredentials", params: `[{"did":"` + owner + `","limit":1.9}]`, result: list(creds[0])},
		{name: "a limit under 1 lists nothing", method: "did_listCredentials", params: `[{"did":"` + owner + `","limit":0.5}]`, result: list()},
		{name: "a skip above -1 is 0", method: "did_listCredentials", params: `[{"did":"` + owner + `","skip":-0.5,"limit":1}]`, result: list(creds[0])},
		{name: "a negative limit", method: "did_listCredentials", params: `[{"did":"` + owner + `","limit":-1}]`, err: "limit is negative"},
		{name: "a DID not found is checked before skip", method: "did_listCredentials", params: `[{"did":"nobody","skip":-1}]`, err: "did is not exist"},
		{name: "an unknown method of EID's namespace", method: "did_nothing", params: `[]`, err: "the method did_nothing does not exist/is not available"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := n.decode(n.post("", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, c.method, c.params)))
			switch {
			case c.err != "":
				if r.Error == nil || r.Error.Message != c.err || r.Error.Data != nil || r.Error.Code != map[bool]int{true: -32601, false: -32602}[c.method == "did_nothing"] {
					t.Errorf("%s %s: %+v %s, want error %q and no data", c.method, c.params, r.Error, r.Result, c.err)
				}
			case c.same != "":
				want := n.decode(n.post("", fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, c.method, c.same)))
				if r.Error != nil || want.Error != nil || string(r.Result) != string(want.Result) {
					t.Errorf("%s %s: %s %+v, want %s %+v", c.method, c.params, r.Result, r.Error, want.Result, want.Error)
				}
			default:
				if r.Error != nil || string(r.Result) != c.result {
					t.Errorf("%s %s: %s %+v, want %s", c.method, c.params, r.Result, r.Error, c.result)
				}
			}
		})
	}
}
