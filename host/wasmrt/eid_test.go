package wasmrt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/wasm/abi"
)

// eidAsk sends one request to an EID upstream as the SDKs write it and
// returns the response body as received.
func eidAsk(t testing.TB, url, method string, params any) []byte {
	t.Helper()
	body, err := json.Marshal(map[string]any{"id": "5f2a0c1b9e8d7a6b5c4d3e2f1a0b9c8d", "method": method, "params": params})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(resp.Body); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: HTTP %d %s (%v)", method, params, resp.StatusCode, b.Bytes(), err)
	}
	return b.Bytes()
}

// eidResult returns the result of an EID answer, decoded into v.
func eidResult(t testing.TB, answer []byte, v any) {
	t.Helper()
	var env struct{ Result json.RawMessage }
	if err := json.Unmarshal(answer, &env); err != nil || env.Result == nil {
		t.Fatalf("answer %.200s: %v", answer, err)
	}
	if err := json.Unmarshal(env.Result, v); err != nil {
		t.Fatal(err)
	}
}

// eidHead returns the time of the upstream's head block, as a light
// client reads it.
func eidHead(t testing.TB, url string) time.Time {
	t.Helper()
	var number string
	eidResult(t, eidAsk(t, url, "eth_blockNumber", []any{}), &number)
	var block struct{ Timestamp string }
	eidResult(t, eidAsk(t, url, "eth_getBlockByNumber", []any{number, true}), &block)
	return time.Unix(int64(eidtest.Quantity(t, block.Timestamp)), 0).UTC()
}

// didParams are did_resolveDID's params as the SDKs write them.
func didParams(d string, all bool) []any {
	if all {
		return []any{map[string]any{"did": d, "all": true}}
	}
	return []any{map[string]any{"did": d}}
}

// credentialParams are did_resolveCredential's.
func credentialParams(id, issuer string) []any {
	if issuer == "" {
		return []any{map[string]string{"id": id}}
	}
	return []any{map[string]string{"id": id, "issuer": issuer}}
}

// decided is what the node decided of a DID by a checkpoint: the status its
// accepted operations make, their txids newest first, and the latest
// document.
type decided struct {
	status int
	txids  []string
	latest idop.Op
}

func decidedOf(t testing.TB, m *scenario.Manifest, d string) decided {
	t.Helper()
	out := decided{status: int(resolve.NotFound)}
	for _, s := range m.Accepted(d) {
		out.txids = append([]string{strings.TrimPrefix(s.TxHash, "0x")}, out.txids...)
		out.status = int(resolve.Valid)
		if s.Operation == idop.Deactivate {
			out.status = int(resolve.Deactivated)
			continue
		}
		r, err := idop.ParseRequest([]byte(s.Sent))
		if err != nil {
			t.Fatal(err)
		}
		op, err := idop.Decode(r)
		if err != nil {
			t.Fatal(err)
		}
		out.latest = *op
	}
	return out
}

// credentialStatus is what the node decided of a credential: revoked
// once a revoke was accepted (the scenario's revokes are all by the owner
// or the issuer), valid once declared, else not found.
func credentialStatus(m *scenario.Manifest, id string) int {
	status := int(resolve.CredentialNotFound)
	for _, s := range m.Accepted(id) {
		if s.Operation == idop.Revoke {
			return int(resolve.CredentialRevoked)
		}
		status = int(resolve.CredentialValid)
	}
	return status
}

// settleEID runs verify until it needs nothing more, fetching what it
// needs from the upstream at url as a light client does.
func settleEID[T any](t testing.TB, url string, verify func(dids []abi.FetchedDID, txs []json.RawMessage) (T, error)) (T, error) {
	t.Helper()
	var dids []abi.FetchedDID
	var txs []json.RawMessage
	for range 10 {
		v, err := verify(dids, txs)
		var need *eid.NeedError
		if !errors.As(err, &need) {
			return v, err
		}
		for _, d := range need.DIDs {
			dids = append(dids, abi.FetchedDID{DID: d.String(), Answer: eidAsk(t, url, "did_resolveDID", didParams(d.String(), true))})
		}
		for _, tx := range need.Txids {
			txs = append(txs, eidAsk(t, url, "eth_getTransactionByHash", []string{"0x" + tx}))
		}
	}
	t.Fatal("verification still needs more after 10 rounds")
	var zero T
	return zero, nil
}

// Every DID and credential of the recorded scenario verifies in the module
// (wazero) as the real EID node decided it, at each checkpoint: the status
// and operations it accepted, the document expired or not at the head's
// time, each credential's status asked with its issuer and without, and
// each DID's list of credentials. With EID_GETH set, against a live node.
func TestEIDRecording(t *testing.T) {
	host, _ := runtimes(t)
	ctx := context.Background()
	for _, cp := range []string{scenario.Created, scenario.Active, scenario.Final} {
		t.Run(cp, func(t *testing.T) {
			u := eidtest.NewUpstream(t, eidtest.Options{Checkpoint: cp})
			m, head := u.Manifest, eidHead(t, u.URL)
			for _, d := range m.DIDs {
				want := decidedOf(t, m, d.DID)
				for _, all := range []bool{true, false} {
					t.Run(fmt.Sprintf("%s all=%v", d.Name, all), func(t *testing.T) {
						answer := eidAsk(t, u.URL, "did_resolveDID", didParams(d.DID, all))
						v, err := host.VerifyEIDDID(ctx, abi.VerifyEIDDIDInput{Answer: answer, DID: d.DID, All: all, Now: head, ChainID: m.ChainID})
						if err != nil {
							t.Fatal(err)
						}
						if v.Status != want.status || v.DID != d.DID {
							t.Errorf("%s status %d, the node decided %d", v.DID, v.Status, want.status)
						}
						if want.status == int(resolve.NotFound) {
							if v.Report.Outcome != string(eid.OutcomeNothing) || v.Txid != "" {
								t.Errorf("not found: outcome %s, txid %s", v.Report.Outcome, v.Txid)
							}
							return
						}
						latest, shown := want.txids[0], 1
						if want.status == int(resolve.Deactivated) {
							latest, shown = want.txids[1], 2
						}
						complete := all || len(want.txids) == shown
						expired := want.latest.Document.Expires().Before(head)
						if v.Txid != latest || v.Complete != complete || v.Expired != expired || v.Report.Outcome != string(eid.OutcomeVerified) {
							t.Errorf("txid %s complete %v expired %v outcome %s; want %s, %v, %v, verified", v.Txid, v.Complete, v.Expired, v.Report.Outcome, latest, complete, expired)
						}
						if !slices.Contains(v.Report.Checked, string(eid.CheckedSignatures)) || !slices.Contains(v.Report.Trusted, string(eid.TrustedInclusion)) {
							t.Errorf("report %+v", v.Report)
						}
					})
				}
				t.Run(d.Name+" credentials", func(t *testing.T) {
					answer := eidAsk(t, u.URL, "did_listCredentials", []any{map[string]string{"did": d.DID}})
					l, err := host.VerifyEIDCredentialList(ctx, abi.VerifyEIDCredentialListInput{Answer: answer, DID: d.DID})
					if want.status == int(resolve.NotFound) {
						if err == nil {
							t.Errorf("the list of a DID the node does not know verified: %+v", l)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					var listed []string
					for _, c := range m.Credentials {
						if strings.HasPrefix(c.ID, d.DID+"#") && len(m.Accepted(c.ID)) > 0 {
							listed = append(listed, c.ID)
						}
					}
					if got := slices.Sorted(slices.Values(l.IDs)); !slices.Equal(got, listed) {
						t.Errorf("listed %v, the node accepted declares of %v", got, listed)
					}
				})
			}
			if cp == scenario.Created {
				return // nothing is declared yet, and the recording asks of no credential
			}
			for _, c := range m.Credentials {
				for _, issuer := range []string{"", c.Issuer} {
					t.Run(fmt.Sprintf("%s issuer %q", c.ID, issuer), func(t *testing.T) {
						answer := eidAsk(t, u.URL, "did_resolveCredential", credentialParams(c.ID, issuer))
						v, err := settleEID(t, u.URL, func(dids []abi.FetchedDID, txs []json.RawMessage) (*abi.VerifiedEIDCredential, error) {
							return host.VerifyEIDCredential(ctx, abi.VerifyEIDCredentialInput{Answer: answer, ID: c.ID, Issuer: issuer, Now: head, ChainID: m.ChainID, DIDs: dids, Transactions: txs})
						})
						if err != nil {
							t.Fatal(err)
						}
						if want := credentialStatus(m, c.ID); v.Status != want {
							t.Errorf("status %d, the node decided %d", v.Status, want)
						}
					})
				}
			}
		})
	}
}

// tamper returns the recorded did_resolveDID answer for d with all=true,
// changed by f, which edits its result.
func tamper(t testing.TB, answer []byte, f func(result map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(answer, &m); err != nil {
		t.Fatal(err)
	}
	f(m["result"].(map[string]any))
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// eidOp returns operation i of an answer's result, to edit.
func eidOp(r map[string]any, i int) map[string]any {
	return r["transaction"].([]any)[i].(map[string]any)["operation"].(map[string]any)
}

// tampering lists the ways tests change an answer of the recording's
// longest history, and the rule each breaks: a flipped signature byte, an
// older payload in place of the newest, a dropped link.
var tampering = []struct {
	name   string
	change func(r map[string]any)
	rule   idop.Rule
}{
	{"flipped signature byte", func(r map[string]any) {
		p := eidOp(r, 0)["proof"].(map[string]any)
		s := p["signature"].(string)
		p["signature"] = map[bool]string{true: "B", false: "A"}[s[0] == 'A'] + s[1:]
	}, idop.RuleSignature},
	{"older payload in place of the newest", func(r map[string]any) {
		eidOp(r, 0)["payload"] = eidOp(r, 1)["payload"]
	}, idop.RuleSignature},
	{"dropped link", func(r map[string]any) {
		r["transaction"] = slices.Delete(r["transaction"].([]any), 5, 6)
	}, idop.RulePreviousTxid},
}

// longest returns the scenario's DID with the longest history.
func longest(m *scenario.Manifest) string {
	var best string
	for _, d := range m.DIDs {
		if len(m.Accepted(d.DID)) > len(m.Accepted(best)) {
			best = d.DID
		}
	}
	return best
}

// Tampered answers of the recording are refused by the module, naming the
// rule broken.
func TestEIDTampered(t *testing.T) {
	host, _ := runtimes(t)
	u := eidtest.NewReplay(t, eidtest.Options{})
	d, head := longest(u.Manifest), eidHead(t, u.URL)
	answer := eidAsk(t, u.URL, "did_resolveDID", didParams(d, true))
	for _, tc := range tampering {
		t.Run(tc.name, func(t *testing.T) {
			in := abi.VerifyEIDDIDInput{Answer: tamper(t, answer, tc.change), DID: d, All: true, Now: head, ChainID: u.Manifest.ChainID}
			_, err := host.VerifyEIDDID(context.Background(), in)
			var ve *resolve.VerifyError
			if !errors.As(err, &ve) || ve.Rule != tc.rule {
				t.Errorf("%v, want rule %s", err, tc.rule)
			}
		})
	}
}

// eidFixture is the synthetic EID upstream of the loader's JS tests
// (wasm/js TestEIDFixture): what the recording cannot show.
type eidFixture struct {
	ChainID  uint64 `json:"chainId"`
	Head     struct{ Time time.Time }
	Subjects struct{ Customized, Migrated, Credential string }
	Answers  []struct {
		Method string
		Params json.RawMessage
		Result json.RawMessage
	}
}

func readEIDFixture(t testing.TB) eidFixture {
	t.Helper()
	b, err := os.ReadFile("../../wasm/js/test/eid-fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	var f eidFixture
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f
}

// answer is the fixture's answer to a did_resolveDID or
// eth_getTransactionByHash request for subject.
func (f eidFixture) answer(t testing.TB, method, subject string) json.RawMessage {
	t.Helper()
	for _, a := range f.Answers {
		var params []any
		if err := json.Unmarshal(a.Params, &params); err != nil || a.Method != method || len(params) == 0 {
			continue
		}
		if p, ok := params[0].(map[string]any); ok && p["did"] == subject || params[0] == "0x"+subject {
			return json.RawMessage(`{"jsonrpc":"2.0","id":"1","result":` + string(a.Result) + `}`)
		}
	}
	t.Fatalf("the fixture has no %s of %s", method, subject)
	return nil
}

// addEID adds the EID calls' cases: the recording's answers at the final
// checkpoint as the node gave them (DIDs, credentials, lists, their error
// answers to malformed requests), W3C resolution of them, tampered ones,
// and the fixture's customized and migrated DIDs at each step of their
// need loops.
func addEID(t testing.TB, cs *cases) {
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	u := eidtest.NewReplay(t, eidtest.Options{})
	m, head := u.Manifest, eidHead(t, u.URL)
	var longestAnswer []byte
	for _, x := range eidtest.Calls(rec.Checkpoints[scenario.Final]) {
		p, ok := x.DIDParams()
		if !ok {
			continue
		}
		switch x.Method {
		case "did_resolveDID":
			cs.add(x.Note, "verify_eid_did", abi.Env{}, abi.VerifyEIDDIDInput{Answer: x.Response, DID: p.DID, All: p.All, Now: head, ChainID: m.ChainID})
			if p.All && p.DID == longest(m) {
				longestAnswer = x.Response
			}
			if p.All && strings.HasPrefix(p.DID, "did:elastos:i") {
				for _, suffix := range []string{"", "#primary", "?versionId=" + strings.Repeat("0", 64)} {
					cs.add(x.Note+" w3c "+suffix, "resolve_w3c_eid", abi.Env{}, abi.ResolveW3CEIDInput{Answer: x.Response, DID: p.DID + suffix, Now: head, ChainID: m.ChainID})
				}
			}
		case "did_resolveCredential":
			cs.add(x.Note, "verify_eid_credential", abi.Env{}, abi.VerifyEIDCredentialInput{Answer: x.Response, ID: p.ID, Issuer: p.Issuer, Now: head, ChainID: m.ChainID})
		case "did_listCredentials":
			cs.add(x.Note, "verify_eid_credential_list", abi.Env{}, abi.VerifyEIDCredentialListInput{Answer: x.Response, DID: p.DID, Skip: p.Skip, Limit: p.Limit})
		}
	}
	for _, tc := range tampering {
		in := abi.VerifyEIDDIDInput{Answer: tamper(t, longestAnswer, tc.change), DID: longest(m), All: true, Now: head, ChainID: m.ChainID}
		cs.add("tampered: "+tc.name, "verify_eid_did", abi.Env{}, in)
	}
	cs.add("w3c of another method", "resolve_w3c_eid", abi.Env{}, abi.ResolveW3CEIDInput{DID: "did:web:example.org"})
	cs.add("w3c without chainId", "resolve_w3c_eid", abi.Env{}, abi.ResolveW3CEIDInput{DID: longest(m), Answer: longestAnswer, Now: head})
	addEIDFixture(t, cs)
}

// addEIDFixture adds the fixture's customized DID, its credential and its
// migrated DID at each step of their need loops, settled natively.
func addEIDFixture(t testing.TB, cs *cases) {
	f := readEIDFixture(t)
	s := f.Subjects
	settle := func(name, call string, in func(dids []abi.FetchedDID, txs []json.RawMessage) any) {
		var dids []abi.FetchedDID
		var txs []json.RawMessage
		run := map[string]abi.Func{"verify_eid_did": abi.VerifyEIDDID, "verify_eid_credential": abi.VerifyEIDCredential}[call]
		for step := 0; ; step++ {
			input := in(dids, txs)
			cs.add(fmt.Sprintf("%s step %d", name, step), call, abi.Env{}, input)
			b, _ := json.Marshal(input)
			var e abi.Envelope
			if err := json.Unmarshal(run(b, abi.Env{}), &e); err != nil {
				t.Fatal(err)
			}
			if e.Error == nil || e.Error.Type != abi.TypeNeed || step > 10 {
				return
			}
			for _, d := range e.Error.DIDs {
				dids = append(dids, abi.FetchedDID{DID: d, Answer: f.answer(t, "did_resolveDID", d)})
			}
			for _, tx := range e.Error.Txids {
				txs = append(txs, f.answer(t, "eth_getTransactionByHash", tx))
			}
		}
	}
	for _, d := range []string{s.Customized, s.Migrated} {
		settle("fixture "+d, "verify_eid_did", func(dids []abi.FetchedDID, txs []json.RawMessage) any {
			return abi.VerifyEIDDIDInput{Answer: f.answer(t, "did_resolveDID", d), DID: d, All: true, Now: f.Head.Time, ChainID: f.ChainID, DIDs: dids, Transactions: txs}
		})
	}
	settle("fixture "+s.Credential, "verify_eid_credential", func(dids []abi.FetchedDID, txs []json.RawMessage) any {
		var answer json.RawMessage
		for _, a := range f.Answers {
			if a.Method == "did_resolveCredential" {
				answer = a.Result
			}
		}
		return abi.VerifyEIDCredentialInput{Answer: answer, ID: s.Credential, Now: f.Head.Time, ChainID: f.ChainID, DIDs: dids, Transactions: txs}
	})
}
