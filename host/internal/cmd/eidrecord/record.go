package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/eidnode"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
)

// recorder sends requests and keeps each exchange for the file being made.
type recorder struct {
	client *eidnode.Client
	next   int // the id of the next request
	lines  []byte
}

func (rc *recorder) reset() { rc.lines = nil }

func (rc *recorder) save(path string) error { return os.WriteFile(path, rc.lines, 0o644) }

// post sends body and records the exchange.
func (rc *recorder) post(ctx context.Context, note string, body []byte) error {
	status, answer, err := rc.client.Post(ctx, body)
	if err != nil {
		return fmt.Errorf("eidrecord: %s: %w", note, err)
	}
	rc.lines = eidtest.NewExchange(note, body, status, answer).AppendLine(rc.lines)
	return nil
}

// request returns a request body. sdk writes it as the DID SDKs do: no
// jsonrpc member and a 32-hex-digit id, then method and params; otherwise
// JSON-RPC 2.0 with a number id. params nil leaves params out.
func (rc *recorder) request(sdk bool, method string, params any) rpcRequest {
	rc.next++
	req := rpcRequest{JSONRPC: "2.0", ID: rc.next, Method: method, Params: params}
	if sdk {
		sum := sha256.Sum256([]byte("eidrecord " + strconv.Itoa(rc.next)))
		req.JSONRPC, req.ID = "", hex.EncodeToString(sum[:16])
	}
	return req
}

// rpcRequest is a request's members in the order clients write them.
type rpcRequest struct {
	JSONRPC string `json:"jsonrpc,omitempty"`
	ID      any    `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// didParams is did_resolveDID's param as the SDKs write it: did, then all
// when true.
type didParams struct {
	DID string `json:"did"`
	All bool   `json:"all,omitempty"`
}

// call records one request.
func (rc *recorder) call(ctx context.Context, note string, sdk bool, method string, params any) error {
	body, err := json.Marshal(rc.request(sdk, method, params))
	if err != nil {
		return err
	}
	return rc.post(ctx, note, body)
}

// batch records one batch of requests.
func (rc *recorder) batch(ctx context.Context, note string, reqs ...rpcRequest) error {
	if reqs == nil {
		reqs = []rpcRequest{}
	}
	body, err := json.Marshal(reqs)
	if err != nil {
		return err
	}
	return rc.post(ctx, note, body)
}

type query struct {
	note   string
	sdk    bool
	method string
	params any
}

func (rc *recorder) run(ctx context.Context, qs []query) error {
	for _, q := range qs {
		if err := rc.call(ctx, q.note, q.sdk, q.method, q.params); err != nil {
			return err
		}
	}
	return nil
}

// nobody is a well-formed DID the scenario never creates.
func nobody() string {
	seed := sha256.Sum256([]byte("didlight eidtest nobody"))
	k, err := keys.NewPrivateKey(seed[:])
	if err != nil {
		panic(err)
	}
	return did.FromKey(k.Public()).String()
}

// checkpoint records the answers that change as the scenario goes on: the
// head, every DID resolved and every credential, in the forms the SDKs and
// other clients send, and wrong requests.
func (rc *recorder) checkpoint(ctx context.Context, m *scenario.Manifest) error {
	qs := []query{
		{"head, as the SDKs probe it", true, "eth_blockNumber", []any{}},
		{"head", false, "eth_blockNumber", []any{}},
	}
	for _, s := range m.DIDs {
		qs = append(qs,
			query{"resolve " + s.Name + ", all, as the SDKs ask", true, "did_resolveDID", []any{didParams{s.DID, true}}},
			query{"resolve " + s.Name + ", latest, as the SDKs ask (all left out)", true, "did_resolveDID", []any{didParams{s.DID, false}}},
			query{"resolve " + s.Name + ", all false", false, "did_resolveDID", []any{map[string]any{"did": s.DID, "all": false}}},
			query{"resolve " + s.Name + " without the did:elastos: prefix, all", false, "did_resolveDID", []any{map[string]any{"did": strings.TrimPrefix(s.DID, "did:elastos:"), "all": true}}},
			query{"resolve " + s.Name + " with its id upper-cased, all", false, "did_resolveDID", []any{map[string]any{"did": "did:elastos:" + strings.ToUpper(strings.TrimPrefix(s.DID, "did:elastos:")), "all": true}}},
			query{"list " + s.Name + "'s credentials", true, "did_listCredentials", []any{map[string]any{"did": s.DID}}},
		)
	}
	alice := m.DIDs[0].DID
	qs = append(qs,
		query{"resolve an unknown DID", true, "did_resolveDID", []any{didParams{nobody(), true}}},
		query{"resolve an empty DID", false, "did_resolveDID", []any{map[string]any{"did": ""}}},
		query{"resolve a malformed DID", false, "did_resolveDID", []any{map[string]any{"did": "did:elastos:not a did!"}}},
		query{"resolve another method's DID", false, "did_resolveDID", []any{map[string]any{"did": "did:example:123456789abcdefghi"}}},
		query{"resolve with params an object, not an array", false, "did_resolveDID", map[string]any{"did": alice}},
		query{"resolve with no params", false, "did_resolveDID", nil},
		query{"resolve with an empty params array", false, "did_resolveDID", []any{}},
		query{"resolve without did", false, "did_resolveDID", []any{map[string]any{"all": true}}},
		query{"resolve with did a number", false, "did_resolveDID", []any{map[string]any{"did": 12}}},
		query{"resolve with all a string", false, "did_resolveDID", []any{map[string]any{"did": alice, "all": "yes"}}},
		query{"resolve with the DID as a bare string param", false, "did_resolveDID", []any{alice}},
		query{"an unknown method", false, "did_resolveDIDs", []any{map[string]any{"did": alice}}},
		query{"list an unknown DID's credentials", false, "did_listCredentials", []any{map[string]any{"did": nobody()}}},
		query{"list credentials without did", false, "did_listCredentials", []any{map[string]any{"skip": 0}}},
		query{"resolve an unknown credential", true, "did_resolveCredential", []any{map[string]any{"id": alice + "#nothing"}}},
		query{"resolve a credential without id", false, "did_resolveCredential", []any{map[string]any{"issuer": alice}}},
	)
	qs = append(qs, dialect(m)...)
	for _, c := range m.Credentials {
		qs = append(qs,
			query{"resolve credential " + c.ID, true, "did_resolveCredential", []any{map[string]any{"id": c.ID}}},
			query{"resolve credential " + c.ID + " with its issuer", true, "did_resolveCredential", []any{map[string]any{"id": c.ID, "issuer": c.Issuer}}},
			query{"resolve credential " + c.ID + " with another issuer", false, "did_resolveCredential", []any{map[string]any{"id": c.ID, "issuer": nobody()}}},
		)
	}
	for _, s := range m.DIDs {
		if s.Name != "dave" {
			continue
		}
		for _, p := range []map[string]any{
			{"skip": 0, "limit": 2}, {"skip": 2, "limit": 2}, {"skip": 4, "limit": 2}, {"skip": 6, "limit": 2},
			{"limit": 0}, {"skip": 1}, {"skip": 0, "limit": 300}, {"skip": -1, "limit": 2},
			{"skip": "1", "limit": 1}, {"limit": 1.9}, {"limit": 0.5}, {"skip": -0.5, "limit": 1}, {"limit": -1},
		} {
			p["did"] = s.DID
			b, _ := json.Marshal(p)
			qs = append(qs, query{"list dave's credentials " + string(b), false, "did_listCredentials", []any{p}})
		}
	}
	if err := rc.run(ctx, qs); err != nil {
		return err
	}
	return rc.batches(ctx, alice)
}

// dialect is the forms of EID's request dialect the SDKs do not send:
// what go-ethereum's RPC layer and EID's did API take or refuse
// (rpc/json.go parsePositionalArguments; internal/ethapi/didapi.go).
func dialect(m *scenario.Manifest) []query {
	alice := m.DIDs[0].DID
	cred, issuer := alice+"#profile", alice // before any is declared
	if len(m.Credentials) > 0 {
		cred, issuer = m.Credentials[0].ID, m.Credentials[0].Issuer
	}
	bare := func(id string) string { return strings.TrimPrefix(id, "did:elastos:") }
	var dave string
	for _, s := range m.DIDs {
		if s.Name == "dave" {
			dave = s.DID
		}
	}
	return []query{
		{"resolve with params an array holding null", false, "did_resolveDID", []any{nil}},
		{"resolve with params a string", false, "did_resolveDID", alice},
		{"resolve with two params", false, "did_resolveDID", []any{map[string]any{"did": alice}, map[string]any{}}},
		{"resolve with all a number", false, "did_resolveDID", []any{map[string]any{"did": alice, "all": 1}}},
		{"resolve with all null", false, "did_resolveDID", []any{map[string]any{"did": alice, "all": nil}}},
		{"resolve with an unknown member", false, "did_resolveDID", []any{map[string]any{"did": alice, "al": true}}},
		{"resolve the prefix alone", false, "did_resolveDID", []any{map[string]any{"did": "did:elastos:"}}},
		{"resolve with the prefix upper-cased", false, "did_resolveDID", []any{map[string]any{"did": "DID:ELASTOS:" + bare(alice)}}},
		{"resolve a credential with a number for params", false, "did_resolveCredential", []any{7}},
		{"resolve a credential without the prefix", false, "did_resolveCredential", []any{map[string]any{"id": bare(cred)}}},
		{"resolve a credential with its issuer without the prefix", false, "did_resolveCredential", []any{map[string]any{"id": cred, "issuer": bare(issuer)}}},
		{"resolve a credential with an issuer not a string", false, "did_resolveCredential", []any{map[string]any{"id": cred, "issuer": 7}}},
		{"resolve a credential with an empty issuer", false, "did_resolveCredential", []any{map[string]any{"id": cred, "issuer": ""}}},
		{"resolve a credential with an id not a string", false, "did_resolveCredential", []any{map[string]any{"id": []any{cred}}}},
		{"resolve a credential id that is no DID URL", false, "did_resolveCredential", []any{map[string]any{"id": "#x"}}},
		{"list dave's credentials without the prefix", false, "did_listCredentials", []any{map[string]any{"did": bare(dave), "limit": 1}}},
		{"list an unknown DID's credentials with a negative skip", false, "did_listCredentials", []any{map[string]any{"did": "nobody", "skip": -1}}},
	}
}

// batches records batches: two calls, one with an error among them, an
// empty one.
func (rc *recorder) batches(ctx context.Context, alice string) error {
	if err := rc.batch(ctx, "a batch: head and a resolve, as the SDKs write requests",
		rc.request(true, "eth_blockNumber", []any{}), rc.request(true, "did_resolveDID", []any{didParams{alice, true}})); err != nil {
		return err
	}
	if err := rc.batch(ctx, "a batch whose second request names an unknown method",
		rc.request(false, "eth_chainId", []any{}), rc.request(false, "did_nothing", []any{})); err != nil {
		return err
	}
	return rc.batch(ctx, "an empty batch")
}

// chain records what does not change once made: the chain's identity and
// what eid.Recognize asks to tell it, every scenario transaction and its
// receipt, every block with its transactions and with their hashes only.
func (rc *recorder) chain(ctx context.Context, m *scenario.Manifest) error {
	qs := []query{
		{"chain id, as the SDKs ask", true, "eth_chainId", []any{}},
		{"chain id", false, "eth_chainId", []any{}},
		{"network id", false, "net_version", []any{}},
		{"client version", false, "web3_clientVersion", []any{}},
		{"an unknown transaction", false, "eth_getTransactionByHash", []any{"0x" + strings.Repeat("00", 32)}},
		{"the receipt of an unknown transaction", false, "eth_getTransactionReceipt", []any{"0x" + strings.Repeat("00", 32)}},
		{"resolvedid without a did, as eid.Recognize asks", false, "resolvedid", map[string]any{}},
		{"did_resolveDID without a did, as eid.Recognize asks", false, "did_resolveDID", []any{map[string]any{}}},
	}
	txs := []struct{ note, hash string }{{"the contract's deployment", m.ContractTx}}
	for _, s := range m.Steps {
		txs = append(txs, struct{ note, hash string }{"step " + s.Name, s.TxHash})
	}
	for _, t := range txs {
		qs = append(qs,
			query{"transaction of " + t.note, false, "eth_getTransactionByHash", []any{t.hash}},
			query{"receipt of " + t.note, false, "eth_getTransactionReceipt", []any{t.hash}},
		)
	}
	if err := rc.run(ctx, qs); err != nil {
		return err
	}
	last := m.Checkpoints[len(m.Checkpoints)-1].Head
	for h := uint64(0); h <= last; h++ {
		n := "0x" + strconv.FormatUint(h, 16)
		if err := rc.call(ctx, fmt.Sprintf("block %d with its transactions", h), false, "eth_getBlockByNumber", []any{n, true}); err != nil {
			return err
		}
		if err := rc.call(ctx, fmt.Sprintf("block %d with its transactions' hashes, as a light client asks for its time", h), false, "eth_getBlockByNumber", []any{n, false}); err != nil {
			return err
		}
	}
	return nil
}
