package eid_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/client/eid"
)

// newClient returns a client of the nodes' URLs with cfg, budget off
// unless cfg sets one.
func newClient(t testing.TB, cfg eid.Config, nodes ...*node) *eid.Client {
	t.Helper()
	for _, n := range nodes {
		cfg.Network.Endpoints = append(cfg.Network.Endpoints, n.URL)
	}
	if cfg.Budget == 0 {
		cfg.Budget = -1
	}
	c, err := eid.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustDID(t testing.TB, s string) did.DID {
	t.Helper()
	d, err := did.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRequests checks each call's request as the SDKs send it, and its
// result.
func TestRequests(t *testing.T) {
	n := newNode(t, eid.MainnetChainID, 1174650)
	c := newClient(t, eid.Config{}, n)
	ctx := context.Background()
	alice := mustDID(t, knownDID)
	cred, err := did.ParseCredentialID(knownCred)
	if err != nil {
		t.Fatal(err)
	}
	raw := func(v json.RawMessage, err error) (string, error) { return string(v), err }
	asJSON := func(v any, err error) (string, error) {
		b, _ := json.Marshal(v)
		return string(b), err
	}
	for _, tc := range []struct {
		name, method, params string
		call                 func() (string, error)
		want                 string // the result, as JSON
	}{
		{"resolve", "did_resolveDID", `[{"did":"` + knownDID + `"}]`,
			func() (string, error) { return raw(c.ResolveDID(ctx, alice, false)) }, resolved},
		{"resolve all", "did_resolveDID", `[{"did":"` + knownDID + `","all":true}]`,
			func() (string, error) { return raw(c.ResolveDID(ctx, alice, true)) }, resolved},
		{"resolve unknown", "did_resolveDID", `[{"did":"did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U"}]`,
			func() (string, error) {
				return raw(c.ResolveDID(ctx, mustDID(t, "iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U"), false))
			}, `{"did":"did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U","status":3}`},
		{"credential", "did_resolveCredential", `[{"id":"` + knownCred + `"}]`,
			func() (string, error) { return raw(c.ResolveCredential(ctx, cred, nil)) }, `{"id":"` + knownCred + `","status":3}`},
		{"credential with issuer", "did_resolveCredential", `[{"id":"` + knownCred + `","issuer":"` + knownDID + `"}]`,
			func() (string, error) { return raw(c.ResolveCredential(ctx, cred, &alice)) }, `{"id":"` + knownCred + `","status":3}`},
		{"list", "did_listCredentials", `[{"did":"` + knownDID + `"}]`,
			func() (string, error) { return raw(c.ListCredentials(ctx, alice, 0, 0)) }, `{"credentials":["` + knownCred + `"],"did":"` + knownDID + `"}`},
		{"list page", "did_listCredentials", `[{"did":"` + knownDID + `","skip":10,"limit":5}]`,
			func() (string, error) { return raw(c.ListCredentials(ctx, alice, 10, 5)) }, `{"credentials":["` + knownCred + `"],"did":"` + knownDID + `"}`},
		{"block number", "eth_blockNumber", `[]`,
			func() (string, error) { return asJSON(c.BlockNumber(ctx)) }, `1174650`},
		{"chain id", "eth_chainId", `[]`,
			func() (string, error) { return asJSON(c.ChainID(ctx)) }, `22`},
		{"client version", "web3_clientVersion", `[]`,
			func() (string, error) { return asJSON(c.ClientVersion(ctx)) }, `"Geth/v1.9.7.0-v1.12.0-v0.2.3.2-0e35d3b4/linux-amd64/go1.20.14"`},
		{"head", "eth_getBlockByNumber", `["latest",false]`,
			func() (string, error) { b, err := c.Head(ctx); return asJSON(blockFields(b), err) },
			`{"Hash":"` + hash(1174650) + `","Number":1174650,"ParentHash":"` + hash(1174649) + `","Time":"` + blockTime(1174650).Format(time.RFC3339) + `"}`},
		{"block", "eth_getBlockByNumber", `["0x11ec77",false]`,
			func() (string, error) { b, err := c.Block(ctx, 1174647); return asJSON(blockFields(b), err) },
			`{"Hash":"` + hash(1174647) + `","Number":1174647,"ParentHash":"` + hash(1174646) + `","Time":"` + blockTime(1174647).Format(time.RFC3339) + `"}`},
		{"transaction without 0x", "eth_getTransactionByHash", `["` + knownTx + `"]`,
			func() (string, error) { tx, err := c.Transaction(ctx, knownTx[2:]); return asJSON(txFields(tx), err) },
			`{"BlockHash":"` + hash(1174647) + `","BlockNumber":1174647,"From":"` + knownFrom + `","Hash":"` + knownTx + `","Pending":false,"To":"` + knownTo + `"}`},
		{"transaction in upper case", "eth_getTransactionByHash", `["` + knownTx + `"]`,
			func() (string, error) {
				tx, err := c.Transaction(ctx, "0x"+strings.ToUpper(knownTx[2:]))
				return asJSON(txFields(tx), err)
			},
			`{"BlockHash":"` + hash(1174647) + `","BlockNumber":1174647,"From":"` + knownFrom + `","Hash":"` + knownTx + `","Pending":false,"To":"` + knownTo + `"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.call()
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("result\n got %s\nwant %s", got, tc.want)
			}
			req := n.last(t, tc.method)
			if string(req.Params) != tc.params {
				t.Errorf("params %s, want %s", req.Params, tc.params)
			}
			var id string
			if req.JSONRPC != "2.0" || json.Unmarshal(req.ID, &id) != nil || !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(id) {
				t.Errorf("jsonrpc %q id %s, want 2.0 and 32 hex digits as the SDKs send", req.JSONRPC, req.ID)
			}
			if req.ContentType != "application/json" {
				t.Errorf("Content-Type %q", req.ContentType)
			}
		})
	}
	if a, b := n.last(t, "did_resolveDID").ID, n.last(t, "eth_chainId").ID; string(a) == string(b) {
		t.Errorf("two requests with one id %s", a)
	}
}

func blockFields(b *eid.Block) any {
	if b == nil {
		return nil
	}
	return map[string]any{"Number": b.Number, "Hash": b.Hash, "ParentHash": b.ParentHash, "Time": b.Time}
}

func txFields(tx *eid.Transaction) any {
	if tx == nil {
		return nil
	}
	return map[string]any{"Hash": tx.Hash, "Pending": tx.Pending, "BlockHash": tx.BlockHash, "BlockNumber": tx.BlockNumber, "From": tx.From, "To": tx.To}
}

// TestRefusals checks the answers that end a call: the node's errors,
// not retried, and what it does not have.
func TestRefusals(t *testing.T) {
	n := newNode(t, eid.MainnetChainID, 100)
	c := newClient(t, eid.Config{}, n)
	ctx := context.Background()
	unknown := mustDID(t, "did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U")

	before := n.count("did_listCredentials")
	_, err := c.ListCredentials(ctx, unknown, 0, 0)
	var re *client.RPCError
	if !errors.As(err, &re) || re.Code != -32000 || re.Message != "did is not exist" || re.URL != n.URL {
		t.Errorf("list of an unknown DID: %v, want the node's -32000", err)
	}
	if want := "eid: did_listCredentials did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U: " + n.URL + ": node answered error -32000: did is not exist"; err == nil || err.Error() != want {
		t.Errorf("error\n got %v\nwant %s", err, want)
	}
	if got := n.count("did_listCredentials") - before; got != 1 {
		t.Errorf("an error answer was sent %d times, want once", got)
	}

	if _, err := c.Transaction(ctx, strings.Repeat("ab", 32)); !errors.Is(err, eid.ErrNotFound) {
		t.Errorf("unknown transaction: %v, want ErrNotFound", err)
	}
	if _, err := c.Block(ctx, 101); !errors.Is(err, eid.ErrNotFound) {
		t.Errorf("block past the head: %v, want ErrNotFound", err)
	}

	sent := n.count("")
	for _, tc := range []struct {
		name string
		call func() error
		want string
	}{
		{"zero DID", func() error { _, err := c.ResolveDID(ctx, did.DID{}, false); return err }, "zero DID"},
		{"credential id without fragment", func() error { _, err := c.ResolveCredential(ctx, did.URL{DID: unknown}, nil); return err }, "without a DID or fragment"},
		{"negative skip", func() error { _, err := c.ListCredentials(ctx, unknown, -1, 0); return err }, "negative skip -1"},
		{"short txid", func() error { _, err := c.Transaction(ctx, "0xabc"); return err }, `transaction id "0xabc"`},
		{"txid not hex", func() error { _, err := c.Transaction(ctx, strings.Repeat("zz", 32)); return err }, "want 64 hex digits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
	if n.count("") != sent {
		t.Errorf("bad input sent %d requests", n.count("")-sent)
	}
}

// TestNew checks the configurations New refuses.
func TestNew(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  eid.Config
		want string
	}{
		{"no endpoint", eid.Config{}, "no endpoint"},
		{"bad endpoint", eid.Config{Network: eid.Network{Endpoints: []string{"ftp://x"}}}, `scheme "ftp"`},
		{"negative timeout", eid.Config{Network: eid.Mainnet(), CallTimeout: -time.Second}, "negative timeout"},
		{"negative backoff", eid.Config{Network: eid.Mainnet(), Backoff: -1}, "negative backoff"},
		{"negative burst", eid.Config{Network: eid.Mainnet(), Burst: -1}, "negative burst"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := eid.New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("New: %v, want %q", err, tc.want)
			}
		})
	}
}

// TestParseNetwork checks the keywords and URLs a user may give.
func TestParseNetwork(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want eid.Network
		err  string
	}{
		{"mainnet", []string{"mainnet"}, eid.Network{Name: "mainnet", ChainID: 22, Endpoints: []string{"https://api.elastos.io/eid", "https://api.trinity-tech.io/eid"}}, ""},
		{"testnet in capitals", []string{" TestNet "}, eid.Network{Name: "testnet", ChainID: 23, Endpoints: []string{"https://api-testnet.elastos.io/eid", "https://api-testnet.trinity-tech.io/eid"}}, ""},
		{"urls", []string{"http://127.0.0.1:20636", "https://eid.example.org/rpc?key=k"}, eid.Network{Endpoints: []string{"http://127.0.0.1:20636", "https://eid.example.org/rpc?key=k"}}, ""},
		{"none", nil, eid.Network{}, "no endpoint"},
		{"keyword among urls", []string{"http://127.0.0.1:20636", "mainnet"}, eid.Network{}, "give it alone"},
		{"twice", []string{"http://a:1", "http://a:1"}, eid.Network{}, "given twice"},
		{"no scheme", []string{"127.0.0.1:20636"}, eid.Network{}, "127.0.0.1:20636"},
		{"ws", []string{"ws://127.0.0.1:20635"}, eid.Network{}, `scheme "ws"`},
		{"no host", []string{"http:///eid"}, eid.Network{}, "no host"},
		{"fragment", []string{"http://a:1/#x"}, eid.Network{}, "fragment"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := eid.ParseNetwork(tc.args...)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseNetwork(%q) = %+v, %v; want error %q", tc.args, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("ParseNetwork(%q) (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}
