package js

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

var update = flag.Bool("update", false, "write test/eid-fixture.json anew")

// eidFixture is the synthetic EID upstream the loader's JS tests ask
// (test/eid.test.js): what the recorded scenario cannot show, because a
// private EID chain refuses customized DIDs and has no migration window.
// Its answers are made here, from the Elastos DID SDK's vectors and
// didlight's own core, as an EID node writes them; none was recorded.
const eidFixture = "test/eid-fixture.json"

// vectors is the folder of the SDK's vectors (core's test data).
const vectors = "../../core/internal/vectors/data/elastos-did-sdk/v2.2/"

// The fixture's chain: mainnet, so that the migration window applies; its
// operations in March 2022, its head ten days on.
var (
	fixtureStart = time.Date(2022, 3, 1, 0, 0, 0, 0, time.UTC)
	fixtureHead  = fixtureStart.AddDate(0, 0, 10)
)

const (
	mainnetChainID   = 22
	migrationSender  = "0xfeca85ac94c1c9ef6e1293fc1f94486305420d7f" // EID's --olddidmigrateaddr
	precompile       = "0x0000000000000000000000000000000000000016"
	fixtureHeadBlock = 3_100_000
)

// fixture is the file's content.
type fixture struct {
	Note     string          `json:"note"`
	ChainID  int             `json:"chainId"`
	Head     fixtureBlock    `json:"head"`
	Subjects fixtureSubjects `json:"subjects"`
	Answers  []fixtureAnswer `json:"answers"`
}

type fixtureBlock struct {
	Number int       `json:"number"`
	Time   time.Time `json:"time"`
}

// fixtureSubjects names what the answers are about.
type fixtureSubjects struct {
	Customized  string   `json:"customized"`  // foobar, controlled by user1, user2, user3
	Controllers []string `json:"controllers"` // standard DIDs, one create each
	Migrated    string   `json:"migrated"`    // created in the migration window, its document without a proof
	MigratedTx  string   `json:"migratedTx"`  // that create's transaction
	Credential  string   `json:"credential"`  // foobar#license, issued by did:elastos:example (controlled by issuer)
	Issuer      string   `json:"issuer"`
}

// fixtureAnswer is one request an EID node is asked and the result it
// gives.
type fixtureAnswer struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
}

// builder makes the fixture's answers.
type builder struct {
	t *testing.T
	f fixture
	n int // transactions made
}

func (b *builder) read(name string) []byte {
	data, err := os.ReadFile(vectors + name)
	if err != nil {
		b.t.Fatal(err)
	}
	return data
}

func (b *builder) key(name string) *keys.PrivateKey {
	k, err := keys.ParseExtendedPrivateKey(string(bytes.TrimSpace(b.read(name + ".sk"))))
	if err != nil {
		b.t.Fatal(err)
	}
	return k
}

func (b *builder) doc(name string) *did.Document {
	d, err := did.ParseDocument(b.read(name))
	if err != nil {
		b.t.Fatal(err)
	}
	return d
}

func (b *builder) add(method string, params, result any) {
	p, err := json.Marshal(params)
	if err != nil {
		b.t.Fatal(err)
	}
	r, ok := result.([]byte)
	if !ok {
		if r, err = json.Marshal(result); err != nil {
			b.t.Fatal(err)
		}
	}
	b.f.Answers = append(b.f.Answers, fixtureAnswer{Method: method, Params: p, Result: r})
}

// at returns what puts a request (as idop's builders return it) in the
// fixture's next transaction, stamped t.
func (b *builder) at(t time.Time) func(idop.Request, error) resolve.Entry {
	return func(req idop.Request, err error) resolve.Entry {
		if err != nil {
			b.t.Fatal(err)
		}
		op, err := idop.Decode(req)
		if err != nil {
			b.t.Fatal(err)
		}
		b.n++
		sum := sha256.Sum256(fmt.Appendf(nil, "didlight eid fixture transaction %d", b.n))
		return resolve.NewEntry(op, hex.EncodeToString(sum[:]), 0, 0, t.Unix())
	}
}

// resolveDID adds the did_resolveDID answer of d's history, asked as the
// SDKs ask for the whole history.
func (b *builder) resolveDID(d did.DID, h ...resolve.Entry) {
	result, err := resolve.DialectEID.Result(d, h, true, fixtureHead.Unix())
	if err != nil {
		b.t.Fatal(err)
	}
	b.add("did_resolveDID", []any{map[string]any{"did": d.String(), "all": true}}, result)
}

// created adds the answer of a DID created by its own primary key.
func (b *builder) created(user string, at time.Time) did.DID {
	doc, priv := b.doc(user+".id.json"), b.key(user+".id.primary")
	b.resolveDID(doc.Subject(), b.at(at)(idop.NewCreate(doc, primary(priv), priv)))
	return doc.Subject()
}

func primary(k *keys.PrivateKey) did.URL {
	return did.URL{DID: did.FromKey(k.Public()), Fragment: did.PrimaryKey}
}

// migrated adds a DID of the migration window: created by user4's key with
// a document that has no proof (EID did not check document proofs there),
// and its transaction, from the window's sender in one of its blocks.
func (b *builder) migrated(at time.Time) (did.DID, string) {
	priv := b.key("user4.id.primary")
	doc, err := did.NewDocument(priv.Public(), at.AddDate(5, 0, 0))
	if err != nil {
		b.t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(doc.Normalized(), &m); err != nil {
		b.t.Fatal(err)
	}
	delete(m, "proof")
	raw, _ := json.Marshal(m)
	if doc, err = did.ParseDocument(raw); err != nil {
		b.t.Fatal(err)
	}
	e := b.at(at)(idop.NewCreate(doc, primary(priv), priv))
	b.resolveDID(doc.Subject(), e)
	op := e.Request.AppendJSON(nil)
	input := binary.BigEndian.AppendUint64(make([]byte, 24), uint64(len(op)))
	b.add("eth_getTransactionByHash", []string{"0x" + e.Txid}, map[string]string{
		"blockHash":        "0x" + e.Txid[:56] + "00000000",
		"blockNumber":      "0x4b0",
		"from":             migrationSender,
		"gas":              "0x7a1200",
		"gasPrice":         "0x3b9aca00",
		"hash":             "0x" + e.Txid,
		"input":            "0x" + hex.EncodeToString(append(input, op...)),
		"nonce":            "0x0",
		"to":               precompile,
		"transactionIndex": "0x0",
		"value":            "0x0",
	})
	return doc.Subject(), e.Txid
}

func buildFixture(t *testing.T) []byte {
	b := &builder{t: t, f: fixture{
		Note: "synthetic: made by wasm/js TestEIDFixture from the Elastos DID SDK's vectors and didlight's core, " +
			"as an EID node writes its answers; not recorded from a node (go test ./wasm/js -run TestEIDFixture -update writes it)",
		ChainID: mainnetChainID,
		Head:    fixtureBlock{Number: fixtureHeadBlock, Time: fixtureHead},
	}}
	day := func(n int) time.Time { return fixtureStart.AddDate(0, 0, n) }
	for i, user := range []string{"user1", "user2", "user3", "issuer"} {
		d := b.created(user, day(0).Add(time.Duration(i)*time.Minute))
		if user != "issuer" {
			b.f.Subjects.Controllers = append(b.f.Subjects.Controllers, d.String())
		}
	}
	user1, issuer := b.key("user1.id.primary"), b.key("issuer.id.primary")
	foobar := b.doc("foobar.id.json")
	b.resolveDID(foobar.Subject(), b.at(day(1))(idop.NewCreate(foobar, primary(user1), user1)))
	example := b.doc("examplecorp.id.json")
	b.resolveDID(example.Subject(), b.at(day(1).Add(time.Hour))(idop.NewCreate(example, primary(issuer), issuer)))

	license, err := did.ParseCredential(b.read("foobar.vc.license.json"))
	if err != nil {
		t.Fatal(err)
	}
	key2 := did.URL{DID: foobar.Subject(), Fragment: "key2"}
	declare := b.at(day(2))(idop.NewDeclare(license, key2, b.key("foobar.id.key2")))
	result, err := resolve.CredentialResult(license.ID, []resolve.Entry{declare}, did.DID{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b.add("did_resolveCredential", []any{map[string]string{"id": license.ID.String()}}, result)
	b.add("did_listCredentials", []any{map[string]string{"did": foobar.Subject().String()}},
		map[string]any{"did": foobar.Subject().String(), "credentials": []string{license.ID.String()}})

	migrated, tx := b.migrated(time.Date(2021, 6, 18, 12, 0, 0, 0, time.UTC))
	b.f.Subjects.Customized, b.f.Subjects.Credential, b.f.Subjects.Issuer = foobar.Subject().String(), license.ID.String(), license.Issuer.String()
	b.f.Subjects.Migrated, b.f.Subjects.MigratedTx = migrated.String(), tx

	head := fmt.Sprintf("%#x", fixtureHeadBlock)
	b.add("eth_chainId", []any{}, fmt.Sprintf("%#x", mainnetChainID))
	b.add("eth_blockNumber", []any{}, head)
	b.add("eth_getBlockByNumber", []any{head, true}, map[string]any{
		"number": head, "timestamp": fmt.Sprintf("%#x", fixtureHead.Unix()), "transactions": []any{},
	})
	out, err := json.MarshalIndent(b.f, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// The fixture the JS tests read is the one this generator makes.
func TestEIDFixture(t *testing.T) {
	want := buildFixture(t)
	if *update {
		if err := os.WriteFile(eidFixture, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(eidFixture)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what TestEIDFixture makes: go test ./wasm/js -run TestEIDFixture -update", eidFixture)
	}
}
