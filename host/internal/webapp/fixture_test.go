package webapp_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/didlight/didlight/host/internal/browsertest"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/testenv"
	"io/fs"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/nodetest"
	"github.com/didlight/didlight/web"
)

// fixture is one node for every test: a chain in memory with the demo
// data and the DIDs below, behind the REST and JSON-RPC servers with the
// app (and the module built from this checkout) on the REST listener.
type fixture struct {
	node     *nodetest.Node
	client   *client.Client
	app      string // the app's URL, ending in /
	rest     string // REST base URL, ending in /api/v1
	rpc      string // JSON-RPC URL
	module   []byte
	shim     fs.FS
	bob      string // a demo DID: created, then updated; services and credentials
	expired  string // created with a short expiry, then the chain clock moved past it
	gone     string // created, then deactivated
	missing  string // never published
	acme     string // a customized DID controlled by ctrl
	ctrl     string
	long     string // a create and nine updates
	shutdown func()
}

var shared struct {
	once sync.Once
	f    *fixture
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.f != nil {
		shared.f.shutdown()
	}
	browsertest.Close()
	os.Exit(code)
}

// env returns the shared fixture, starting it on first use.
func env(t testing.TB) *fixture {
	t.Helper()
	shared.once.Do(func() { shared.f, shared.err = startFixture() })
	testenv.Check(t, shared.err)
	return shared.f
}

func startFixture() (*fixture, error) {
	module, shim, err := browsertest.Assets("../../..")
	if err != nil {
		return nil, err
	}
	n, stop, err := nodetest.RunWith(nodetest.Options{Web: web.Handler(web.Options{Module: module, Shim: shim}), Demo: true})
	if err != nil {
		return nil, err
	}
	f := &fixture{node: n, client: client.New(n.REST, n.RPC, nil), rest: n.REST, rpc: n.RPC, module: module, shim: shim,
		app: strings.TrimSuffix(n.REST, "api/v1")}
	f.shutdown = func() { stop() }
	if err := f.publish(context.Background()); err != nil {
		f.shutdown()
		return nil, err
	}
	return f, nil
}

// publish adds the test's own DIDs to the demo's.
func (f *fixture) publish(ctx context.Context) error {
	var err error
	if f.bob, err = f.findOne(`{"credential.type":"ProfileCredential","credential.subject.name":"Bob"}`); err != nil {
		return err
	}
	now := f.chainTime()
	year := 365 * 24 * time.Hour
	expired, gone, ctrl, long, missing := testKey(1), testKey(2), testKey(3), testKey(4), testKey(5)
	f.missing = did.FromKey(missing.Public()).String()
	if f.expired, err = f.create(ctx, expired, now.Add(time.Minute)); err != nil {
		return err
	}
	if f.gone, err = f.create(ctx, gone, now.Add(year)); err != nil {
		return err
	}
	if err := f.submit(ctx, func() (idop.Request, error) {
		return idop.NewDeactivate(did.FromKey(gone.Public()), primary(gone), gone)
	}); err != nil {
		return err
	}
	if f.ctrl, err = f.create(ctx, ctrl, now.Add(year)); err != nil {
		return err
	}
	if f.acme, err = f.customized(ctx, "webtestacme", ctrl, now.Add(year)); err != nil {
		return err
	}
	if f.long, err = f.create(ctx, long, now.Add(year)); err != nil {
		return err
	}
	for i := range 9 {
		if err := f.update(ctx, long, now.Add(year+time.Duration(i+1)*time.Hour)); err != nil {
			return err
		}
	}
	// The chain clock moves past the short expiry.
	_, err = devnet.IncreaseTime(f.node.Chain, 2*time.Minute)
	return err
}

// testKey is test key i: SHA-256 of a fixed text.
func testKey(i int) *keys.PrivateKey {
	h := sha256.Sum256([]byte(fmt.Sprintf("didlight web test key %d", i)))
	k, err := keys.NewPrivateKey(h[:])
	if err != nil {
		panic(err)
	}
	return k
}

func primary(k *keys.PrivateKey) did.URL {
	return did.URL{DID: did.FromKey(k.Public()), Fragment: did.PrimaryKey}
}

// chainTime is the time the next block carries at the earliest.
func (f *fixture) chainTime() time.Time {
	_, _, tip := f.node.Chain.Tip()
	return time.Unix(max(tip, time.Now().Unix()), 0).UTC()
}

func (f *fixture) submit(ctx context.Context, build func() (idop.Request, error)) error {
	req, err := build()
	if err != nil {
		return err
	}
	_, err = f.node.Chain.SubmitRequest(ctx, req)
	return err
}

// document returns k's signed document with one service.
func (f *fixture) document(k *keys.PrivateKey, expires time.Time) (*did.Document, error) {
	subject := did.FromKey(k.Public())
	doc, err := did.NewDocument(k.Public(), expires, did.NewService(did.URL{DID: subject, Fragment: "hive"}, "HiveVault", "https://hive.example.org/"+subject.String()))
	if err != nil {
		return nil, err
	}
	return doc.Sign(k, primary(k), f.chainTime())
}

// create publishes k's DID and returns it.
func (f *fixture) create(ctx context.Context, k *keys.PrivateKey, expires time.Time) (string, error) {
	err := f.submit(ctx, func() (idop.Request, error) {
		doc, err := f.document(k, expires)
		if err != nil {
			return idop.Request{}, err
		}
		return idop.NewCreate(doc, primary(k), k)
	})
	return did.FromKey(k.Public()).String(), err
}

// update publishes a new document of k's DID.
func (f *fixture) update(ctx context.Context, k *keys.PrivateKey, expires time.Time) error {
	last, err := f.lastTxid(did.FromKey(k.Public()))
	if err != nil {
		return err
	}
	return f.submit(ctx, func() (idop.Request, error) {
		doc, err := f.document(k, expires)
		if err != nil {
			return idop.Request{}, err
		}
		return idop.NewUpdate(doc, last, primary(k), k)
	})
}

// customized publishes did:elastos:name, controlled by ctrl's DID.
func (f *fixture) customized(ctx context.Context, name string, ctrl *keys.PrivateKey, expires time.Time) (string, error) {
	subject := "did:elastos:" + name
	b, _ := json.Marshal(map[string]any{
		"@context":   []string{"https://www.w3.org/ns/did/v1", "https://ns.elastos.org/did/v1", "https://w3id.org/security/v1"},
		"id":         subject,
		"controller": []string{did.FromKey(ctrl.Public()).String()},
		"service":    []map[string]string{{"id": subject + "#web", "type": "LinkedDomains", "serviceEndpoint": "https://acme.example"}},
		"expires":    did.FormatTime(expires),
	})
	err := f.submit(ctx, func() (idop.Request, error) {
		doc, err := did.ParseDocument(b)
		if err != nil {
			return idop.Request{}, err
		}
		if doc, err = doc.Sign(ctrl, primary(ctrl), f.chainTime()); err != nil {
			return idop.Request{}, err
		}
		return idop.NewCreate(doc, primary(ctrl), ctrl)
	})
	return subject, err
}

// lastTxid is the txid of d's latest operation.
func (f *fixture) lastTxid(d did.DID) (string, error) {
	raw, err := f.node.Chain.ResolveDID(context.Background(), d, false)
	if err != nil {
		return "", err
	}
	var r struct{ Transaction []struct{ Txid string } }
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Transaction) == 0 {
		return "", fmt.Errorf("resolving %s: %s (%v)", d, raw, err)
	}
	return r.Transaction[0].Txid, nil
}

// findOne returns the one DID whose latest document matches a find condition.
func (f *fixture) findOne(cond string) (string, error) {
	page, err := f.query(client.Query{Condition: cond, Limit: 10})
	if err != nil {
		return "", err
	}
	if len(page.Document) != 1 {
		return "", fmt.Errorf("%s matches %d documents, want 1", cond, len(page.Document))
	}
	return page.Document[0].ID, nil
}

// queryPage is the part of a query result the tests read.
type queryPage struct {
	Total, Start, Count int
	Document            []struct{ ID string }
}

func (f *fixture) query(q client.Query) (*queryPage, error) {
	raw, err := f.client.QueryDIDs(context.Background(), q)
	if err != nil {
		return nil, err
	}
	var p queryPage
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	if p.Count != len(p.Document) {
		return nil, errors.New("query: count is not the number of documents")
	}
	return &p, nil
}

// appServer serves the app alone (its own origin), with o's module and
// shim; the page reaches the fixture's node through ?rpc= and ?rest=.
func appServer(t *testing.T, o web.Options) *httptest.Server {
	s := httptest.NewServer(web.Handler(o))
	t.Cleanup(s.Close)
	return s
}
