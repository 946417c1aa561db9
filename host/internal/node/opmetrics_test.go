package node_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/follow"
	"github.com/didlight/didlight/host/internal/metrics"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// A devnet counts the identity operations its blocks carry and those whose
// submission it refused, by sendrawtransaction or /idtx, whatever rule they
// broke; a transaction carrying none is not counted. A didlight follower
// of it counts the operations of the blocks it applied, and refuses none:
// what is submitted through it is its upstream's to refuse.
func TestMetricsOperations(t *testing.T) {
	c, err := chain.Open(chain.Config{DB: mem.New(), NoMining: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	n, err := node.Start(c, node.Config{API: api.Options{Metrics: metrics.NewRegistry(metrics.Chain(c))}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	alice, bob := newIdentity(t, "alice"), newIdentity(t, "bob")
	forged := bob.create(t, 1)
	forged.Proof.Signature = alice.create(t, 1).Proof.Signature
	outs, err := c.UTXOs(c.DevAccount().ProgramHash)
	if err != nil || len(outs) == 0 {
		t.Fatalf("the dev account's outputs: %v, %v", outs, err)
	}
	coin := outs[0] // every transaction below spends it: the first one pooled keeps it
	for _, tc := range []struct {
		name string
		raw  []byte
		want string // in the JSON-RPC answer
	}{
		{"alice's create", devTx(c, coin, operation(alice.create(t, 1))), `"result":"`},
		{"alice's create again, while the first is pending", devTx(c, coin, operation(alice.create(t, 2))), "pending"},
		{"bob's create signed with alice's signature", devTx(c, coin, operation(forged)), `"code":45009`},
		{"an operation that does not decode", []byte{byte(ela.TxDIDOperation), 0}, "(43001 InvalidTransaction)"},
		{"a payment spending what alice's create spends (not counted)", devTx(c, coin, &ela.TransferAsset{}), `"code":45010`},
		{"bytes that are not a transaction (not counted)", []byte{byte(ela.TxTransferAsset), 0}, "(43001 InvalidTransaction)"},
	} {
		t.Run("sendrawtransaction of "+tc.name, func(t *testing.T) {
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"sendrawtransaction","params":[%q]}`, hex.EncodeToString(tc.raw))
			if _, got := send(t, "POST", n.RPCURL(), body); !strings.Contains(got, tc.want) {
				t.Errorf("%s, want %s", got, tc.want)
			}
		})
	}
	if _, err := c.Mine(context.Background()); err != nil {
		t.Fatal(err)
	}
	c.SetMining(true) // /idtx answers once a block holds its request
	for _, tc := range []struct {
		name string
		req  idop.Request
		want int
	}{
		{"alice's create again, now that she exists", alice.create(t, 3), http.StatusBadRequest},
		{"bob's create", bob.create(t, 1), http.StatusAccepted},
	} {
		t.Run("/idtx of "+tc.name, func(t *testing.T) {
			if resp, got := idtx(t, n.RPCURL(), tc.req); resp.StatusCode != tc.want {
				t.Errorf("%d %s, want %d", resp.StatusCode, got, tc.want)
			}
		})
	}
	checkSamples(t, "the devnet", scrape(t, n), map[string]float64{
		"didlight_blocks_applied_total":                2,
		`didlight_operations_total{outcome="applied"}`: 2,
		`didlight_operations_total{outcome="refused"}`: 4,
	}, `didlight_operations_total{outcome="waived"}`)

	fc, err := chain.Open(chain.Config{DB: mem.New(), Follower: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fc.Close() })
	// The follower's connections are closed before the devnet stops: one
	// it dialed as it stopped would hold the devnet's shutdown for the
	// server's header timeout.
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	f, err := follow.New(follow.Config{Upstream: n.RESTURL(), Chain: fc, Self: func() string { return "" },
		HTTP: &http.Client{Transport: tr}, Poll: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	fn, err := node.Start(fc, node.Config{Run: f.Run, API: api.Options{Follower: f, Metrics: metrics.NewRegistry(metrics.Chain(fc))}})
	if err != nil {
		t.Fatal(err)
	}
	defer fn.Stop()
	waitUntil(t, fn, func(r readiness) bool { return r.Ready && *r.Height == 2 })
	if resp, got := idtx(t, fn.RPCURL(), alice.create(t, 4)); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("/idtx of alice's create through the follower: %d %s, want %d", resp.StatusCode, got, http.StatusBadRequest)
	}
	checkSamples(t, "the follower", scrape(t, fn), map[string]float64{
		"didlight_blocks_applied_total":                2,
		`didlight_operations_total{outcome="applied"}`: 2,
	}, `didlight_operations_total{outcome="refused"}`, `didlight_operations_total{outcome="waived"}`)
	if got := scrape(t, n)[`didlight_operations_total{outcome="refused"}`]; got != 5 {
		t.Errorf("the devnet's refusals after one relayed by the follower: %v, want 5", got)
	}
}

// checkSamples checks the samples of who's metrics m: those of want have
// its values, and those named in absent are not there.
func checkSamples(t *testing.T, who string, m map[string]float64, want map[string]float64, absent ...string) {
	t.Helper()
	for name, v := range want {
		if got, ok := m[name]; !ok || got != v {
			t.Errorf("%s: %s is %v (present: %t), want %v", who, name, got, ok, v)
		}
	}
	for _, name := range absent {
		if got, ok := m[name]; ok {
			t.Errorf("%s: %s is %v, want none", who, name, got)
		}
	}
}

// identity is a test DID and its key.
type identity struct {
	key     *keys.PrivateKey
	primary did.URL
}

func newIdentity(t *testing.T, name string) identity {
	t.Helper()
	h := sha256.Sum256([]byte("didlight node test " + name))
	k, err := keys.NewPrivateKey(h[:])
	if err != nil {
		t.Fatal(err)
	}
	return identity{key: k, primary: did.URL{DID: did.FromKey(k.Public()), Fragment: did.PrimaryKey}}
}

// create is id's create, its document expiring years later than the
// chain's genesis: different years make different operations.
func (id identity) create(t *testing.T, years int) idop.Request {
	t.Helper()
	doc, err := did.NewDocument(id.key.Public(), chain.GenesisTime.AddDate(years, 0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if doc, err = doc.Sign(id.key, id.primary, chain.GenesisTime); err != nil {
		t.Fatal(err)
	}
	r, err := idop.NewCreate(doc, id.primary, id.key)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// operation is r as a ledger payload.
func operation(r idop.Request) *ela.Operation {
	return &ela.Operation{Header: ela.OperationHeader(r.Header), Payload: r.Payload, Proof: ela.OperationProof(r.Proof)}
}

// devTx is the encoding of a transaction of payload spending coin, an
// output of c's dev account, back to it less a fee, signed.
func devTx(c *chain.Chain, coin chain.UTXO, payload ela.Payload) []byte {
	dev := c.DevAccount()
	tx := &ela.Tx{Payload: payload,
		Inputs:  []ela.Input{{TxID: coin.Txid, Index: coin.Index, Sequence: 0xffffffff}},
		Outputs: []ela.Output{{AssetID: ela.ELAAssetID(), Value: coin.Value - ela.OneELA/100, ProgramHash: dev.ProgramHash}}}
	tx.SignStandard(dev.PrivateKey)
	return tx.Bytes()
}

// idtx posts r to the JSON-RPC listener's /idtx.
func idtx(t *testing.T, rpcURL string, r idop.Request) (*http.Response, string) {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return send(t, "POST", rpcURL+"idtx", string(b))
}
