package wasmrt_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/browsertest"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/wasmbuild"
	"github.com/didlight/didlight/host/wasmrt"
)

// vectors is the folder of core's test vectors.
const vectors = "../../core/internal/vectors/data/"

// The module and two runtimes over it are built once for all tests: one
// with the host's crypto, one that withholds it.
var shared struct {
	once           sync.Once
	module         []byte
	host, fallback *wasmrt.Runtime
	cacheDir       string
	err            error
}

func TestMain(m *testing.M) {
	code := eidtest.Main(m)
	browsertest.Close()
	ctx := context.Background()
	if shared.host != nil {
		shared.host.Close(ctx)
		shared.fallback.Close(ctx)
	}
	os.Exit(code)
}

func setup(t testing.TB) {
	shared.once.Do(func() {
		ctx := context.Background()
		// The module as it ships (make wasm strips it).
		if shared.module, shared.err = wasmbuild.Build(ctx, "../../wasm"); shared.err != nil {
			return
		}
		if shared.module, shared.err = wasmbuild.Strip(shared.module); shared.err != nil {
			return
		}
		// One cache for every test process (fuzz workers too) and run: it
		// is keyed by the module's hash.
		shared.cacheDir = filepath.Join(os.TempDir(), "didlight-wasmrt-test")
		cache := wasmrt.WithCacheDir(shared.cacheDir)
		if shared.host, shared.err = wasmrt.New(ctx, shared.module, cache); shared.err != nil {
			return
		}
		shared.fallback, shared.err = wasmrt.New(ctx, shared.module, cache, wasmrt.WithoutHostCrypto())
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
}

// runtimes returns the shared runtimes, with host crypto and without.
func runtimes(t testing.TB) (host, fallback *wasmrt.Runtime) {
	setup(t)
	return shared.host, shared.fallback
}

func module(t testing.TB) []byte {
	setup(t)
	return shared.module
}

func readVector(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectors, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func globVectors(t testing.TB, pattern string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(vectors, pattern))
	if err != nil || len(names) == 0 {
		t.Fatalf("no vectors %s: %v", pattern, err)
	}
	for i, n := range names {
		names[i], _ = filepath.Rel(vectors, n)
	}
	return names
}

func privateKey(t testing.TB, name string) *keys.PrivateKey {
	t.Helper()
	k, err := keys.ParseExtendedPrivateKey(string(readVector(t, "elastos-did-sdk/v2.2/"+name+".sk")))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func parseDocument(t testing.TB, b []byte) *did.Document {
	t.Helper()
	doc, err := did.ParseDocument(b)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// sdkDocuments returns the v2.2 SDK documents that parse, as a light client
// would have them for controllers' lookups.
func sdkDocuments(t testing.TB) did.Documents {
	var docs []*did.Document
	for _, n := range globVectors(t, "elastos-did-sdk/v2.2/*.id.json") {
		if doc, err := did.ParseDocument(readVector(t, n)); err == nil {
			docs = append(docs, doc)
		}
	}
	return did.NewDocuments(docs...)
}

var t0 = time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)

func txid(i int) string {
	sum := sha256.Sum256([]byte{byte(i)})
	return hex.EncodeToString(sum[:])
}

// history is the history of one standard DID: a create, updates each
// publishing a document that expires a year after its block, and
// optionally a deactivate. Operation i is in block 100+i at t0 + i days.
type history struct {
	priv    *keys.PrivateKey
	subject did.DID
	key     did.URL
	docs    []*did.Document // the document of each create and update
	entries []resolve.Entry // oldest first
}

func newHistory(t testing.TB, key string, updates int, deactivate bool) *history {
	t.Helper()
	h := &history{priv: privateKey(t, key)}
	for i := 0; i <= updates; i++ {
		at := t0.AddDate(0, 0, i)
		doc, err := did.NewDocument(h.priv.Public(), at.AddDate(1, 0, 0),
			did.NewService(did.URL{Fragment: "s"}, "Counter", fmt.Sprintf("https://example.com/%d", i)))
		if err != nil {
			t.Fatal(err)
		}
		def, _ := doc.DefaultKey()
		h.subject, h.key = doc.Subject(), def.ID
		if doc, err = doc.Sign(h.priv, def.ID, at); err != nil {
			t.Fatal(err)
		}
		var r idop.Request
		if i == 0 {
			r, err = idop.NewCreate(doc, def.ID, h.priv)
		} else {
			r, err = idop.NewUpdate(doc, txid(i-1), def.ID, h.priv)
		}
		if err != nil {
			t.Fatal(err)
		}
		h.docs = append(h.docs, doc)
		h.add(t, r, at)
	}
	if deactivate {
		r, err := idop.NewDeactivate(h.subject, h.key, h.priv)
		if err != nil {
			t.Fatal(err)
		}
		h.add(t, r, t0.AddDate(0, 0, updates+1))
	}
	return h
}

func (h *history) add(t testing.TB, r idop.Request, at time.Time) {
	t.Helper()
	op, err := idop.Decode(r)
	if err != nil {
		t.Fatal(err)
	}
	h.entries = append(h.entries, resolve.NewEntry(op, txid(len(h.entries)), uint32(100+len(h.entries)), 1, at.Unix()))
}

// result is the resolvedid result a node gives for the history.
func (h *history) result(t testing.TB, all bool, tip time.Time) []byte {
	t.Helper()
	b, err := resolve.Result(h.subject, h.entries, all, tip.Unix())
	if err != nil {
		t.Fatal(err)
	}
	return b
}
