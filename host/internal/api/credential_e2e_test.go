package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/demo"
)

// resolvecredential and listcredentials, under both names and params
// forms, over the credentials the demo declares and revokes; every answer
// is checked as a light client checks it.
func TestCredentials(t *testing.T) {
	n := startNode(t, 0)
	if _, err := demo.Seed(context.Background(), n.chain); err != nil {
		t.Fatal(err)
	}
	var everyone queryResult
	n.result("query", map[string]any{"query": "{}", "limit": 256}, &everyone)

	statuses := map[int]int{}
	for _, docJSON := range everyone.Document {
		owner := docID(t, docJSON)
		var list struct {
			DID         string   `json:"did"`
			Credentials []string `json:"credentials"`
		}
		raw := n.call("listcredentials", map[string]any{"did": owner}).Result
		sdk := n.call("did_listCredentials", []any{map[string]any{"did": owner, "skip": 0, "limit": 0}}).Result
		// EID writes an empty page as null (didapi.go, ListCredentials).
		eidForm := strings.Replace(string(raw), `"credentials":[]`, `"credentials":null`, 1)
		if json.Unmarshal(raw, &list) != nil || list.DID != owner || list.Credentials == nil || string(sdk) != eidForm {
			t.Errorf("listcredentials %s: %s; did_listCredentials %s", owner, raw, sdk)
		}
		doc, err := did.ParseDocument(docJSON)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range list.Credentials {
			res := n.call("resolvecredential", map[string]any{"id": id})
			sdk := n.call("did_resolveCredential", []any{map[string]any{"id": id, "issuer": owner}})
			if res.Error != nil || string(res.Result) != string(sdk.Result) {
				t.Fatalf("resolvecredential %s: %s %+v; did_resolveCredential: %s", id, res.Result, res.Error, sdk.Result)
			}
			v, err := resolve.VerifyCredential(res.Result, doc.Subject(), did.NewDocuments(doc), keys.Native{})
			if err != nil {
				t.Fatalf("resolvecredential %s does not verify: %v\n%s", id, err, res.Result)
			}
			statuses[int(v.Status)]++
		}
	}
	if statuses[int(resolve.CredentialValid)] == 0 || statuses[int(resolve.CredentialRevoked)] == 0 {
		t.Errorf("statuses of the declared credentials: %v, want valid and revoked ones", statuses)
	}

	// A credential nobody declared: status 3, no transaction member.
	stranger := newIdentity(t, "stranger").did.String() + "#email"
	for _, r := range []rpcResponse{
		n.call("resolvecredential", map[string]any{"id": stranger}),
		n.call("did_resolveCredential", []any{map[string]any{"id": stranger}}),
	} {
		var members map[string]json.RawMessage
		json.Unmarshal(r.Result, &members)
		if _, ok := members["transaction"]; ok || string(members["status"]) != "3" || string(members["id"]) != fmt.Sprintf("%q", stranger) {
			t.Errorf("an undeclared credential: %s %+v, want status 3 and no transaction", r.Result, r.Error)
		}
	}
}

// A declare or revoke the chain refuses reaches /idtx's caller as 400 with
// the rule, and changes nothing.
func TestCredentialRefused(t *testing.T) {
	n := startNode(t, 0)
	if _, err := demo.Seed(context.Background(), n.chain); err != nil {
		t.Fatal(err)
	}
	// Take a declared credential from the chain, and declare it again with a
	// key that is not its owner's.
	var everyone queryResult
	n.result("query", map[string]any{"query": "{}", "limit": 256}, &everyone)
	var declared, declaredTx string
	for _, raw := range everyone.Document {
		var list struct{ Credentials []string }
		n.result("listcredentials", map[string]any{"did": docID(t, raw)}, &list)
		for _, id := range list.Credentials {
			if r := n.call("resolvecredential", map[string]any{"id": id}).Result; strings.Contains(string(r), `"status":0`) {
				declared, declaredTx = id, string(r)
			}
		}
	}
	if declared == "" {
		t.Fatal("the demo declared no credential that is still valid")
	}
	var res struct{ Transaction []resTx }
	json.Unmarshal([]byte(declaredTx), &res)
	declare := res.Transaction[0].op(t)
	op, err := idop.Decode(declare)
	if err != nil || op.Credential == nil {
		t.Fatalf("the declare of %s: %v", declared, err)
	}
	mallory := newIdentity(t, "mallory")
	n.publish(mallory, mallory.create(yearFromNow()))
	again, err := idop.NewDeclare(op.Credential, mallory.primary, mallory.key)
	if err != nil {
		t.Fatal(err)
	}
	id, err := did.ParseURL(declared, did.DID{})
	if err != nil {
		t.Fatal(err)
	}
	revoke, err := idop.NewRevoke(id, mallory.primary, mallory.key)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		req  idop.Request
		rule idop.Rule
	}{
		{"a second declare, by another DID", again, idop.RuleDeclared},
		{"a revoke by neither owner nor issuer", revoke, idop.RuleSignerKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, _, body := n.do("POST", n.rpcURL+"idtx", "application/json", requestJSON(t, tc.req))
			var e struct {
				Code int
				Rule idop.Rule
			}
			json.Unmarshal(body, &e)
			if status != http.StatusBadRequest || e.Code != 45009 || e.Rule != tc.rule {
				t.Errorf("/idtx %s: %d %s, want 400 with rule %s", tc.name, status, body, tc.rule)
			}
		})
	}
	after := n.call("resolvecredential", map[string]any{"id": declared})
	if got := string(after.Result); got != declaredTx {
		t.Errorf("after refused operations, %s resolves to %s, want %s", declared, got, declaredTx)
	}
}

// query by credential type, and by the interface's own example condition in
// its relaxed syntax, agree with what the documents themselves hold.
func TestQueryCredentials(t *testing.T) {
	n := startNode(t, 0)
	if _, err := demo.Seed(context.Background(), n.chain); err != nil {
		t.Fatal(err)
	}
	var everyone queryResult
	n.result("query", map[string]any{"query": "{}", "limit": 256}, &everyone)
	var withEmailCredential, withEmailClaim []string
	for _, raw := range everyone.Document {
		doc, err := did.ParseDocument(raw)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(doc.CredentialTypes(), "EmailCredential") {
			withEmailCredential = append(withEmailCredential, doc.Subject().String())
		}
		if slices.ContainsFunc(doc.Credentials(), func(c did.Credential) bool {
			return slices.Contains(c.Types, "SelfProclaimedCredential") &&
				slices.ContainsFunc(c.SubjectProperties(), func(m sdkjson.Member) bool { return m.Key == "email" })
		}) {
			withEmailClaim = append(withEmailClaim, doc.Subject().String())
		}
	}
	if len(withEmailCredential) == 0 || len(withEmailClaim) <= len(withEmailCredential) {
		t.Fatalf("demo documents: %d with an EmailCredential, %d with an email claim", len(withEmailCredential), len(withEmailClaim))
	}
	for i, tc := range []struct {
		params map[string]any
		want   []string
	}{
		{map[string]any{"credential": "EmailCredential", "limit": 256}, withEmailCredential},
		{map[string]any{"query": `{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}`, "limit": 256}, withEmailClaim},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			var q queryResult
			n.result("query", tc.params, &q)
			var got []string
			for _, d := range q.Document {
				got = append(got, docID(t, d))
			}
			if q.Total != len(tc.want) || !slices.Equal(got, tc.want) {
				t.Errorf("query %v: total %d, %v; want %v (in creation order)", tc.params, q.Total, got, tc.want)
			}
		})
	}
}
