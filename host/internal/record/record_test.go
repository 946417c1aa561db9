package record

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/store"
)

var (
	h1 = ela.Hash{1, 2, 3}
	h2 = ela.Hash{9, 8, 7}
	ph = ela.ProgramHash{0x21, 5, 6}
)

// samples are values of every record type, each with its encoding's
// parser.
var samples = []struct {
	name  string
	value any
	bytes func() []byte
	parse func([]byte) (any, error)
}{
	{"tip", Tip{Height: 7, Hash: h1, Time: 1767225600}, func() []byte { return Tip{Height: 7, Hash: h1, Time: 1767225600}.Bytes() },
		func(b []byte) (any, error) { return ParseTip(b) }},
	{"block", &Block{Hash: h1, Header: ela.Header{Version: 1, Previous: h2, MerkleRoot: h1, Timestamp: 5, Bits: 6, Nonce: 7, Height: 8, AuxPow: []byte{1, 2}}, TxIDs: []ela.Hash{h1, h2}},
		nil, func(b []byte) (any, error) { return ParseBlock(b) }},
	{"tx", &Tx{Height: 3, Pos: 4, Raw: []byte{1, 2, 3}}, nil, func(b []byte) (any, error) { return ParseTx(b) }},
	{"utxo", &UTXO{Output: ela.Output{AssetID: h1, Value: 12345, OutputLock: 9, ProgramHash: ph}, Height: 2, Pos: 1, Coinbase: true},
		nil, func(b []byte) (any, error) { return ParseUTXO(b) }},
	{"address utxo", &AddressUTXO{TxID: h1, Asset: h2, Value: 99}, nil, func(b []byte) (any, error) { return ParseAddressUTXO(b) }},
	{"did", &DID{Seq: 4, Deactivated: true, LastTxid: h1, DocHeight: 3, DocPos: 2, DocTxid: h2, Services: []string{"Hub", ""}, Credentials: []string{"KYC"}},
		nil, func(b []byte) (any, error) { return ParseDID(b) }},
	{"credential", &Credential{DeclTxid: h1, DeclHeight: 5, DeclPos: 6, Revokers: []string{"did:elastos:a", "did:elastos:b"}},
		nil, func(b []byte) (any, error) { return ParseCredential(b) }},
	{"entry", &Entry{Txid: h2, Time: 77, Request: idop.Request{
		Header:  idop.Header{Specification: idop.SpecDID, Operation: idop.Update, PreviousTxid: "ab", Ticket: "t"},
		Payload: "payload", Proof: idop.Proof{Type: "ECDSAsecp256r1", VerificationMethod: "#primary", Signature: "sig"}}, Expires: 1798761600},
		nil, func(b []byte) (any, error) { return ParseEntry(b) }},
	{"view", &View{Encoded: []byte{0, 7, 0}}, nil,
		func(b []byte) (any, error) { v, err := ParseView(b); return &v, err }},
	{"pool tx", &PoolTx{Epoch: 3, Raw: []byte{4, 5}}, nil, func(b []byte) (any, error) { return ParsePoolTx(b) }},
	{"snapshot", &Snapshot{Wall: 1767225600, Mark: 42}, nil,
		func(b []byte) (any, error) { return ParseSnapshot(b) }},
	{"snapshot v1", &SnapshotV1{Wall: 1767225600, Buckets: []string{"meta", "dids"}}, nil,
		func(b []byte) (any, error) { return ParseSnapshotV1(b) }},
	{"undo value", &Undo{Kind: UndoValue, Bucket: "dids", Key: []byte{1, 2}, Value: []byte{3, 4, 5}}, nil,
		func(b []byte) (any, error) { return ParseUndo(b) }},
	{"undo empty value", &Undo{Kind: UndoValue, Bucket: "meta", Key: []byte("paydev"), Value: []byte{}}, nil,
		func(b []byte) (any, error) { return ParseUndo(b) }},
	{"undo absent", &Undo{Kind: UndoAbsent, Bucket: "utxos", Key: []byte{9}}, nil,
		func(b []byte) (any, error) { return ParseUndo(b) }},
	{"undo sequence", &Undo{Kind: UndoSequence, Bucket: "dids", Seq: 1 << 40}, nil,
		func(b []byte) (any, error) { return ParseUndo(b) }},
	{"clock", ledger.Clock{Skew: -86400 * 300, Next: 1767225601}, nil, func(b []byte) (any, error) { return ParseClock(b) }},
}

type encoder interface{ Bytes() []byte }

func encode(s any) []byte {
	if e, ok := s.(encoder); ok {
		return e.Bytes()
	}
	if c, ok := s.(ledger.Clock); ok {
		return Clock(c)
	}
	return s.(Tip).Bytes()
}

func TestRoundTrip(t *testing.T) {
	for _, s := range samples {
		b := encode(s.value)
		got, err := s.parse(b)
		if err != nil {
			t.Errorf("%s: %v", s.name, err)
			continue
		}
		if d := cmp.Diff(s.value, got, cmpopts.EquateEmpty()); d != "" {
			t.Errorf("%s: (-want +got)\n%s", s.name, d)
		}
	}
}

// Every value cut short, or with a byte more, is corrupt; no value decodes
// from nothing.
func TestCorrupt(t *testing.T) {
	for _, s := range samples {
		b := encode(s.value)
		trailingOK := s.name == "tx" || s.name == "view" || s.name == "pool tx" // their last field is the rest
		for n := range len(b) {
			if _, err := s.parse(b[:n]); !errors.Is(err, store.ErrCorrupt) && !(trailingOK && n > len(b)-len(tail(s.value))) {
				t.Errorf("%s cut to %d of %d bytes: %v", s.name, n, len(b), err)
			}
		}
		if _, err := s.parse(append(slices.Clone(b), 0)); !trailingOK && !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("%s with a byte more: %v", s.name, err)
		}
	}
	if _, err := ParseDID(append((&DID{}).Bytes()[:8], 2)); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("a flag of 2: %v", err)
	}
	huge := append(make([]byte, 32+7*4+32*2), 0xff, 0xff, 0xff, 0xff, 0x0f)
	if _, err := ParseBlock(huge); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("a block with a huge AuxPow length: %v", err)
	}
}

// tail is the bytes of the field that runs to the end of a value.
func tail(v any) []byte {
	switch v := v.(type) {
	case *Tx:
		return v.Raw
	case *View:
		return v.Encoded
	case *PoolTx:
		return v.Raw
	}
	return nil
}

func TestKeys(t *testing.T) {
	if h, err := ParseHeightKey(HeightKey(513)); h != 513 || err != nil {
		t.Errorf("height key: %d %v", h, err)
	}
	if s, err := ParseSeqKey(SeqKey(1 << 40)); s != 1<<40 || err != nil {
		t.Errorf("seq key: %d %v", s, err)
	}
	if i, err := ParseAddressKey(AddressKey(ph, 1, 2, 300)); i != 300 || err != nil || !bytes.HasPrefix(AddressKey(ph, 1, 2, 300), AddressPrefix(ph)) {
		t.Errorf("address key: %d %v", i, err)
	}
	p := HistoryPrefix("foo")
	if h, pos, err := ParseHistoryKey(p, HistoryKey("foo", 5, 6)); h != 5 || pos != 6 || err != nil {
		t.Errorf("history key: %d %d %v", h, pos, err)
	}
	pp := PostingPrefix("Hub")
	if s, err := ParsePostingKey(pp, PostingKey("Hub", 77)); s != 77 || err != nil {
		t.Errorf("posting key: %d %v", s, err)
	}
	// A key's strings are length-prefixed: one DID's keys never start with
	// another's prefix, and numbers sort numerically.
	if bytes.HasPrefix(HistoryKey("foobar", 1, 1), HistoryPrefix("foo")) || bytes.HasPrefix(PostingKey("Hubs", 1), PostingPrefix("Hub")) {
		t.Error("a longer string's key has a shorter one's prefix")
	}
	if bytes.Compare(PostingKey("a", 2), PostingKey("a", 256)) >= 0 || bytes.Compare(AddressKey(ph, 1, 9, 0), AddressKey(ph, 2, 0, 0)) >= 0 {
		t.Error("keys do not sort numerically")
	}
	for _, err := range []error{
		func() error { _, err := ParseHeightKey([]byte{1}); return err }(),
		func() error { _, err := ParseSeqKey([]byte{1}); return err }(),
		func() error { _, err := ParseAddressKey([]byte{1}); return err }(),
		func() error { _, _, err := ParseHistoryKey(p, p); return err }(),
		func() error { _, err := ParsePostingKey(pp, pp); return err }(),
		func() error { _, err := ParseU64([]byte{1}); return err }(),
		func() error { _, err := ParseAmount(nil); return err }(),
	} {
		if !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("a short key or counter: %v", err)
		}
	}
	if v, err := ParseAmount(Amount(-5)); v != -5 || err != nil {
		t.Errorf("amount %d %v", v, err)
	}
}

// A format 1 entry is a format 2 entry without its trailing Expires: only
// ParseEntryV1 reads it, and it reads nothing else.
func TestEntryV1(t *testing.T) {
	e := &Entry{Txid: h1, Time: 9, Request: idop.Request{Header: idop.Header{Specification: idop.SpecDID, Operation: idop.Create},
		Payload: "p", Proof: idop.Proof{VerificationMethod: "#primary", Signature: "s"}}, Expires: 1798761600}
	b := e.Bytes()
	v1 := b[:len(b)-8]
	got, err := ParseEntryV1(v1)
	want := *e
	want.Expires = 0
	if err != nil || !cmp.Equal(got, &want) {
		t.Errorf("ParseEntryV1 = %+v, %v; want %+v", got, err, want)
	}
	if _, err := ParseEntry(v1); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("ParseEntry of a format 1 entry: %v", err)
	}
	if _, err := ParseEntryV1(b); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("ParseEntryV1 of a format 2 entry: %v", err)
	}
}

// A view of store format 4 has no skip table and no document: the JSON
// follows the key.
func TestParseViewV4(t *testing.T) {
	v, err := ParseViewV4(append([]byte{3}, `foo{"id":"x"}`...))
	if err != nil || v.DIDKey != "foo" || string(v.JSON) != `{"id":"x"}` || v.Doc != nil {
		t.Errorf("ParseViewV4 = %+v, %v", v, err)
	}
	if _, err := ParseViewV4([]byte{3, 'f', 'o', 'o'}); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("a format 4 view without JSON: %v", err)
	}
}

// A view of store format 5 has the key, the skip table, the view and the
// document, in that order.
func TestParseViewV5(t *testing.T) {
	v, err := ParseViewV5(append([]byte{3, 'f', 'o', 'o', 2, 0, 7, 10}, `{"id":"x"}{"id":"y"}`...))
	want := &ViewV6{DIDKey: "foo", JSON: []byte(`{"id":"x"}`), Doc: []byte(`{"id":"y"}`)}
	if err != nil || !cmp.Equal(v, want) {
		t.Errorf("ParseViewV5 = %+v, %v; want %+v", v, err, want)
	}
	if _, err := ParseViewV5(append([]byte{3, 'f', 'o', 'o', 0, 10}, `{"id":"x"}`...)); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("a format 5 view without a document: %v", err)
	}
}

// A view of store format 6 has the skip table and the view's JSON text.
func TestParseViewV6(t *testing.T) {
	v, err := ParseViewV6(append([]byte{2, 0, 7}, `{"id":"x"}`...))
	want := &ViewV6{JSON: []byte(`{"id":"x"}`)}
	if err != nil || !cmp.Equal(v, want) {
		t.Errorf("ParseViewV6 = %+v, %v; want %+v", v, err, want)
	}
	for _, b := range [][]byte{{2, 0, 7}, {9, 0}, nil} {
		if _, err := ParseViewV6(b); !errors.Is(err, store.ErrCorrupt) {
			t.Errorf("ParseViewV6(%x): %v", b, err)
		}
	}
	if _, err := ParseView(nil); !errors.Is(err, store.ErrCorrupt) {
		t.Errorf("ParseView of no bytes: %v", err)
	}
}
