package wasmrt_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/wasmrt"
	"github.com/didlight/didlight/wasm/abi"
)

// Failures come back as *abi.Error, which unwraps to core's error types.
func TestErrorsUnwrapToCoreTypes(t *testing.T) {
	host, _ := runtimes(t)
	ctx := context.Background()
	h := newHistory(t, "user4.id.primary", 1, false)

	tampered := h.entries[1].Request
	tampered.Proof.Signature = h.entries[0].Request.Proof.Signature
	_, err := host.ValidateOperation(ctx, abi.ValidateOperationInput{
		Operation: tampered.AppendJSON(nil),
		State:     &abi.State{Document: h.docs[0].Normalized(), Txid: h.entries[0].Txid},
		Now:       t0.AddDate(0, 0, 1),
	}, abi.Env{})
	if idop.RuleOf(err) != idop.RuleSignature {
		t.Errorf("tampered update: %v, want rule %s", err, idop.RuleSignature)
	}

	result := strings.Replace(string(h.result(t, true, t0)), `"status":0`, `"status":2`, 1)
	_, err = host.VerifyResolveResult(ctx, abi.VerifyResolveResultInput{Result: json.RawMessage(result), Now: t0.AddDate(0, 0, 5)}, abi.Env{})
	var ve *resolve.VerifyError
	if !errors.As(err, &ve) || ve.Rule != resolve.RuleStatus || ve.Index != -1 || ve.Error() != err.Error() {
		t.Errorf("wrong status: %v (%#v)", err, ve)
	}

	tx, referenced := signedTx(t, "user2.id.primary")
	raw := tx.Bytes()
	raw[len(raw)-3] ^= 1
	if _, err := host.VerifyTx(ctx, abi.VerifyTxInput{Tx: hex.EncodeToString(raw), Referenced: referenced}, abi.Env{}); !errors.Is(err, ela.ErrSignature) {
		t.Errorf("tampered tx: %v, want ela.ErrSignature", err)
	}
	if _, err := host.DecodeTx(ctx, abi.DecodeTxInput{Tx: hex.EncodeToString(raw[:40])}); !errors.Is(err, ela.ErrTruncated) {
		t.Errorf("truncated tx: %v, want ela.ErrTruncated", err)
	}
	_, err = host.ParseDocument(ctx, abi.ParseDocumentInput{Document: json.RawMessage(`{"id":5}`)}, abi.Env{})
	var e *abi.Error
	if !errors.Is(err, did.ErrMalformed) || !errors.As(err, &e) || e.Type != abi.TypeDocument {
		t.Errorf("malformed document: %v", err)
	}
	_, err = host.Match(ctx, abi.MatchInput{Condition: json.RawMessage(`"{a:"`)})
	if !errors.As(err, &e) || e.Type != abi.TypeSyntax || e.Offset == nil || *e.Offset != 3 {
		t.Errorf("condition syntax: %#v", err)
	}
}

// The typed calls give the same values as the native core functions.
func TestTypedCalls(t *testing.T) {
	host, _ := runtimes(t)
	ctx := context.Background()
	h := newHistory(t, "user4.id.primary", 2, false)
	tip := t0.AddDate(0, 0, 10)
	got, err := host.VerifyResolveResult(ctx, abi.VerifyResolveResultInput{Result: h.result(t, true, tip), Now: tip}, abi.Env{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := resolve.Verify(h.result(t, true, tip), nil, keys.Native{}, tip)
	if err != nil {
		t.Fatal(err)
	}
	if got.DID != want.DID.String() || got.Status != int(want.Status) || got.Txid != want.Txid || !got.Complete ||
		string(got.Document) != string(want.Document.Normalized()) {
		t.Errorf("verify: %+v, want %+v", got, want)
	}

	signed, err := host.SignDocument(ctx, abi.SignDocumentInput{Document: h.docs[0].Normalized(), Key: hex.EncodeToString(h.priv.Bytes()), Created: t0})
	if err != nil {
		t.Fatal(err)
	}
	op, err := host.SignOperation(ctx, abi.SignOperationInput{Operation: idop.Create, Document: signed.Document, Key: hex.EncodeToString(h.priv.Bytes())})
	if err != nil {
		t.Fatal(err)
	}
	if string(op.Request) != string(h.entries[0].Request.AppendJSON(nil)) {
		t.Errorf("signed create:\n %s\nwant\n %s", op.Request, h.entries[0].Request.AppendJSON(nil))
	}

	tx, referenced := signedTx(t, "user3.id.primary")
	txj, err := host.DecodeTx(ctx, abi.DecodeTxInput{Tx: hex.EncodeToString(tx.Bytes())})
	if err != nil {
		t.Fatal(err)
	}
	if back, err := txj.Tx(); err != nil || back.Hash() != tx.Hash() {
		t.Errorf("decoded tx reads back as %v, %v", back, err)
	}
	if v, err := host.VerifyTx(ctx, abi.VerifyTxInput{Tx: hex.EncodeToString(tx.Bytes()), Referenced: referenced}, abi.Env{}); err != nil || v.Txid != tx.Hash().String() {
		t.Errorf("verify tx: %v, %v", v, err)
	}
}

// countingVerifier counts the signatures it is asked about, and answers
// what it is told to; it counts what it hashes too (keys.Hasher).
type countingVerifier struct {
	n, hashed atomic.Int64
	answer    bool
}

func (c *countingVerifier) Verify(keys.PublicKey, [32]byte, keys.Signature) bool {
	c.n.Add(1)
	return c.answer
}

func (c *countingVerifier) Sum256(data []byte) [32]byte {
	c.hashed.Add(1)
	return sha256.Sum256(data)
}

// The host's verifier checks every signature and hashes what they sign,
// unless it is withheld: then the module does both itself.
func TestHostCrypto(t *testing.T) {
	host, fallback := runtimes(t)
	ctx := context.Background()
	h := newHistory(t, "user4.id.primary", 9, false)
	tip := t0.AddDate(0, 0, 30)
	in := abi.VerifyResolveResultInput{Result: h.result(t, true, tip), Now: tip}
	for _, tc := range []struct {
		name          string
		rt            *wasmrt.Runtime
		answer        bool
		calls, hashed int64
		ok            bool
	}{
		// Each of the ten operations: its request and its document's proof.
		{"host says valid", host, true, 20, 20, true},
		{"host says invalid", host, false, 1, 1, false},
		{"withheld", fallback, false, 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &countingVerifier{answer: tc.answer}
			_, err := tc.rt.VerifyResolveResult(ctx, in, abi.Env{Verifier: v})
			if (err == nil) != tc.ok || v.n.Load() != tc.calls || v.hashed.Load() != tc.hashed {
				t.Errorf("%s: %v after %d host verifications and %d hashes, want ok=%v after %d and %d",
					tc.name, err, v.n.Load(), v.hashed.Load(), tc.ok, tc.calls, tc.hashed)
			}
		})
	}
}

// failingLookup fails every lookup.
type failingLookup struct{}

func (failingLookup) Document(did.DID) (*did.Document, error) { return nil, errors.New("store down") }

// A customized DID's controllers come from the host's lookup.
func TestHostLookup(t *testing.T) {
	host, _ := runtimes(t)
	ctx := context.Background()
	foobar := parseDocument(t, readVector(t, "elastos-did-sdk/v2.2/foobar.id.json"))
	key2, _ := did.ParseURL("#key2", foobar.Subject())
	create, err := idop.NewCreate(foobar, key2, privateKey(t, "foobar.id.key2"))
	if err != nil {
		t.Fatal(err)
	}
	in := abi.ValidateOperationInput{Operation: create.AppendJSON(nil), Now: time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)}
	for _, tc := range []struct {
		name string
		docs did.Lookup
		rule idop.Rule
	}{
		{"controllers found", sdkDocuments(t), ""},
		{"no lookup", nil, idop.RuleController},
		{"lookup fails", failingLookup{}, idop.RuleLookup},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := host.ValidateOperation(ctx, in, abi.Env{Lookup: tc.docs})
			if idop.RuleOf(err) != tc.rule || (tc.rule == "") != (err == nil) {
				t.Errorf("%s: %v, want rule %q", tc.name, err, tc.rule)
			}
		})
	}
}

// Many goroutines share a Runtime of two instances.
func TestConcurrentCalls(t *testing.T) {
	setup(t)
	ctx := context.Background()
	r, err := wasmrt.New(ctx, module(t), wasmrt.WithCacheDir(shared.cacheDir), wasmrt.WithMaxInstances(2))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(ctx)
	cs := parityCases(t)[:40]
	run := map[string]abi.Func{}
	for _, c := range abi.Calls() {
		run[c.Name] = c.Run
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range cs {
				c := cs[(i+g*5)%len(cs)]
				got, err := r.Call(ctx, c.call, c.in, c.env)
				if want := run[c.call](c.in, c.env); err != nil || string(got) != string(want) {
					t.Errorf("%s: %s (%v), want %s", c.name, got, err, want)
				}
			}
		})
	}
	wg.Wait()
}

// New keeps the compiled module in the cache directory.
func TestCacheDir(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	r, err := wasmrt.New(ctx, module(t), wasmrt.WithCacheDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Errorf("cache dir holds %d entries (%v)", len(entries), err)
	}
}

// A call the module cannot answer fails with an error, and the Runtime
// goes on answering.
func TestCallFailures(t *testing.T) {
	host, _ := runtimes(t)
	ctx := context.Background()
	if _, err := host.Call(ctx, "no_such_call", []byte(`{}`), abi.Env{}); err == nil {
		t.Error("unknown call: no error")
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := host.Call(canceled, "parse_did", []byte(`{"did":"foo"}`), abi.Env{}); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	if _, err := host.ParseDID(ctx, abi.ParseDIDInput{DID: "foo"}); err != nil {
		t.Errorf("after failures: %v", err)
	}
	if _, err := wasmrt.New(ctx, []byte("\x00asm\x01\x00\x00\x00"), wasmrt.WithCacheDir("")); err == nil {
		t.Error("an empty module: no error")
	}
}

// An input buffer the module did not hand out gets an error object.
func TestForeignBuffer(t *testing.T) {
	host, _ := runtimes(t)
	out, err := wasmrt.CallBuffer(context.Background(), host, "parse_did", 16, 8)
	var e abi.Envelope
	if err != nil || json.Unmarshal(out, &e) != nil || e.Error == nil || e.Error.Type != abi.TypeInput {
		t.Errorf("foreign buffer: %s, %v", out, err)
	}
}
