package record

import (
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
)

// Tip is the chain's last block.
type Tip struct {
	Height uint32
	Hash   ela.Hash
	Time   uint32
}

// Bytes encodes t.
func (t Tip) Bytes() []byte {
	w := make(writer, 0, 40)
	w.u32(t.Height)
	w.hash(t.Hash)
	w.u32(t.Time)
	return w
}

// ParseTip decodes a Tip.
func ParseTip(b []byte) (Tip, error) {
	r := newReader("tip", b)
	t := Tip{Height: r.u32("height"), Hash: r.hash("hash"), Time: r.u32("time")}
	return t, r.end()
}

// U64 encodes a counter.
func U64(n uint64) []byte { return SeqKey(n) }

// ParseU64 decodes a counter.
func ParseU64(b []byte) (uint64, error) {
	r := newReader("counter", b)
	n := r.u64("value")
	return n, r.end()
}

// Amount encodes a balance.
func Amount(v ela.Fixed64) []byte { return U64(uint64(v)) }

// ParseAmount decodes a balance.
func ParseAmount(b []byte) (ela.Fixed64, error) {
	n, err := ParseU64(b)
	return ela.Fixed64(n), err
}

// Block is a block as stored under its height: its hash, its header and
// the ids of its transactions, which are stored on their own.
type Block struct {
	Hash   ela.Hash
	Header ela.Header
	TxIDs  []ela.Hash
}

// Bytes encodes b.
func (b *Block) Bytes() []byte {
	h := &b.Header
	w := make(writer, 0, 128+len(h.AuxPow)+len(b.TxIDs)*ela.HashSize)
	w.hash(b.Hash)
	w.u32(h.Version)
	w.hash(h.Previous)
	w.hash(h.MerkleRoot)
	w.u32(h.Timestamp)
	w.u32(h.Bits)
	w.u32(h.Nonce)
	w.u32(h.Height)
	w.bytes(h.AuxPow)
	w.u32(uint32(len(b.TxIDs)))
	for _, id := range b.TxIDs {
		w.hash(id)
	}
	return w
}

// ParseBlock decodes a Block.
func ParseBlock(data []byte) (*Block, error) {
	r := newReader("block", data)
	b := &Block{Hash: r.hash("hash")}
	b.Header = ela.Header{
		Version:    r.u32("version"),
		Previous:   r.hash("previous"),
		MerkleRoot: r.hash("merkle root"),
		Timestamp:  r.u32("time"),
		Bits:       r.u32("bits"),
		Nonce:      r.u32("nonce"),
		Height:     r.u32("height"),
		AuxPow:     r.bytes("auxpow"),
	}
	n := int(r.u32("tx count"))
	if r.err == nil && n > len(r.b)/ela.HashSize {
		r.fail("%d transaction ids in %d bytes", n, len(r.b))
	}
	if r.err == nil {
		b.TxIDs = make([]ela.Hash, n)
		for i := range b.TxIDs {
			b.TxIDs[i] = r.hash("txid")
		}
	}
	return b, r.end()
}

// Tx is a transaction as stored under its id: the height and position of
// its block, and its encoding.
type Tx struct {
	Height, Pos uint32
	Raw         []byte
}

// Bytes encodes t.
func (t *Tx) Bytes() []byte {
	w := make(writer, 0, 8+len(t.Raw))
	w.u32(t.Height)
	w.u32(t.Pos)
	return append(w, t.Raw...)
}

// ParseTx decodes a Tx; Raw shares data.
func ParseTx(data []byte) (*Tx, error) {
	r := newReader("tx", data)
	t := &Tx{Height: r.u32("height"), Pos: r.u32("position")}
	t.Raw = r.b
	if r.err == nil && len(t.Raw) == 0 {
		r.fail("no transaction bytes")
	}
	return t, r.err
}

// UTXO is an unspent output as stored under its OutpointKey, with where
// its transaction is and whether that is a coinbase.
type UTXO struct {
	Output      ela.Output
	Height, Pos uint32
	Coinbase    bool
}

// Bytes encodes u.
func (u *UTXO) Bytes() []byte {
	w := make(writer, 0, 80)
	w.hash(u.Output.AssetID)
	w.u64(uint64(u.Output.Value))
	w.u32(u.Output.OutputLock)
	w = append(w, u.Output.ProgramHash[:]...)
	w.u32(u.Height)
	w.u32(u.Pos)
	w.u8(flag(u.Coinbase))
	return w
}

// ParseUTXO decodes a UTXO.
func ParseUTXO(data []byte) (*UTXO, error) {
	r := newReader("utxo", data)
	u := &UTXO{Output: ela.Output{
		AssetID:    r.hash("asset"),
		Value:      ela.Fixed64(r.u64("value")),
		OutputLock: r.u32("output lock"),
	}}
	copy(u.Output.ProgramHash[:], r.take(ela.ProgramHashSize, "program hash"))
	u.Height, u.Pos = r.u32("height"), r.u32("position")
	u.Coinbase = r.flag("coinbase")
	return u, r.end()
}

// AddressUTXO is the value under an AddressKey: the output's transaction,
// asset and value.
type AddressUTXO struct {
	TxID, Asset ela.Hash
	Value       ela.Fixed64
}

// Bytes encodes a.
func (a *AddressUTXO) Bytes() []byte {
	w := make(writer, 0, 72)
	w.hash(a.TxID)
	w.hash(a.Asset)
	w.u64(uint64(a.Value))
	return w
}

// ParseAddressUTXO decodes an AddressUTXO.
func ParseAddressUTXO(data []byte) (*AddressUTXO, error) {
	r := newReader("address utxo", data)
	a := &AddressUTXO{TxID: r.hash("txid"), Asset: r.hash("asset"), Value: ela.Fixed64(r.u64("value"))}
	return a, r.end()
}

// DID is the state of a DID, stored under its key (did.DID.Key).
type DID struct {
	Seq         uint64   // creation order, from 1
	Deactivated bool     // whether a deactivate is its last operation
	LastTxid    ela.Hash // its last operation's transaction
	// DocHeight and DocPos say where the operation that published its
	// latest document is; DocTxid is its transaction.
	DocHeight, DocPos uint32
	DocTxid           ela.Hash
	// Services and Credentials are the service and credential types of the
	// latest document: the postings it has.
	Services, Credentials []string
}

// Bytes encodes d.
func (d *DID) Bytes() []byte {
	w := make(writer, 0, 96)
	w.u64(d.Seq)
	w.u8(flag(d.Deactivated))
	w.hash(d.LastTxid)
	w.u32(d.DocHeight)
	w.u32(d.DocPos)
	w.hash(d.DocTxid)
	w.strs(d.Services)
	w.strs(d.Credentials)
	return w
}

// ParseDID decodes a DID.
func ParseDID(data []byte) (*DID, error) {
	r := newReader("did", data)
	d := &DID{Seq: r.u64("seq"), Deactivated: r.flag("deactivated"), LastTxid: r.hash("last txid")}
	d.DocHeight, d.DocPos, d.DocTxid = r.u32("doc height"), r.u32("doc position"), r.hash("doc txid")
	d.Services, d.Credentials = r.strs("services"), r.strs("credentials")
	return d, r.end()
}

// Credential is the state of a credential id, stored under its
// did.URL.Key: where its declare is, if it was declared, and the DIDs that
// signed revokes of it, in chain order.
type Credential struct {
	DeclTxid            ela.Hash // zero when the id was never declared
	DeclHeight, DeclPos uint32
	Revokers            []string // full DID strings
}

// Bytes encodes c.
func (c *Credential) Bytes() []byte {
	w := make(writer, 0, 64)
	w.hash(c.DeclTxid)
	w.u32(c.DeclHeight)
	w.u32(c.DeclPos)
	w.strs(c.Revokers)
	return w
}

// ParseCredential decodes a Credential.
func ParseCredential(data []byte) (*Credential, error) {
	r := newReader("credential", data)
	c := &Credential{DeclTxid: r.hash("declare txid"), DeclHeight: r.u32("declare height"), DeclPos: r.u32("declare position")}
	c.Revokers = r.strs("revokers")
	return c, r.end()
}

// Entry is an operation of a DID's or a credential id's history, stored
// under its HistoryKey: the transaction, the block's time, the request and
// what deriving a status needs from it (resolve.Entry.Expires), so that a
// resolve decodes nothing.
type Entry struct {
	Txid    ela.Hash
	Time    uint32
	Request idop.Request
	Expires int64 // when the document the request publishes expires, Unix seconds; 0 for none
}

// Bytes encodes e.
func (e *Entry) Bytes() []byte {
	q := &e.Request
	w := make(writer, 0, 64+len(q.Header.Specification)+len(q.Header.Operation)+len(q.Header.PreviousTxid)+len(q.Header.Ticket)+
		len(q.Payload)+len(q.Proof.Type)+len(q.Proof.VerificationMethod)+len(q.Proof.Signature))
	w.hash(e.Txid)
	w.u32(e.Time)
	w.request(q)
	w.u64(uint64(e.Expires))
	return w
}

func (w *writer) request(q *idop.Request) {
	for _, s := range [...]string{q.Header.Specification, q.Header.Operation, q.Header.PreviousTxid, q.Header.Ticket,
		q.Payload, q.Proof.Type, q.Proof.VerificationMethod, q.Proof.Signature} {
		w.str(s)
	}
}

// ParseEntry decodes an Entry.
func ParseEntry(data []byte) (*Entry, error) {
	r := newReader("history entry", data)
	e := &Entry{Txid: r.hash("txid"), Time: r.u32("time")}
	r.request(&e.Request)
	e.Expires = int64(r.u64("expires"))
	return e, r.end()
}

// ParseEntryV1 decodes an Entry as stores of format 1 wrote it, without
// Expires, which the caller derives.
func ParseEntryV1(data []byte) (*Entry, error) {
	r := newReader("history entry (format 1)", data)
	e := &Entry{Txid: r.hash("txid"), Time: r.u32("time")}
	r.request(&e.Request)
	return e, r.end()
}

// request reads the strings of a request. They share one copy of the
// bytes they are read from (which a store may reuse once its transaction
// ends), so that a resolve, which reads many entries, allocates once per
// entry rather than once per string.
func (r *reader) request(q *idop.Request) {
	rest := r.b
	text := string(rest)
	for _, dst := range [...]*string{&q.Header.Specification, &q.Header.Operation, &q.Header.PreviousTxid, &q.Header.Ticket,
		&q.Payload, &q.Proof.Type, &q.Proof.VerificationMethod, &q.Proof.Signature} {
		b := r.bytes("request")
		end := len(rest) - len(r.b)
		*dst = text[end-len(b) : end]
	}
}

// View is the query view of a DID's latest document in the encoded form
// a scan matches (find.Encode), stored under the DID's creation sequence
// number: a walk steps over the parts of the view a condition does not
// reach, and the view is about half its JSON text. The document itself is
// kept apart (bucketDocs), so that a scan of the views reads only the
// views: they lie close together, a few to a page.
type View struct {
	Encoded []byte
}

// Bytes encodes v.
func (v *View) Bytes() []byte { return v.Encoded }

// ParseView decodes a View; Encoded shares data. Whether it is an encoded
// form is for the matcher to find: bytes that are not match nothing.
func ParseView(data []byte) (View, error) {
	r := newReader("view", data)
	if len(data) == 0 {
		r.fail("empty view")
	}
	return View{Encoded: data}, r.err
}

// ViewV6 is a view of store formats 4 to 6: its JSON text, with the DID's
// key in format 4 and older and with the DID's document in normalized
// form in format 5.
type ViewV6 struct {
	DIDKey string
	JSON   []byte
	Doc    []byte
}

// ParseViewV6 decodes a view of store format 6, its skip table before its
// JSON text (the table is dropped); JSON shares data.
func ParseViewV6(data []byte) (*ViewV6, error) {
	r := newReader("view", data)
	r.bytes("skips")
	v := &ViewV6{JSON: r.b}
	if r.err == nil && len(v.JSON) == 0 {
		r.fail("empty view")
	}
	return v, r.err
}

// ParseViewV5 decodes a view of store format 5: the DID's key, the skip
// table (dropped), the view and the document; the slices share data.
func ParseViewV5(data []byte) (*ViewV6, error) {
	r := newReader("view", data)
	v := &ViewV6{DIDKey: r.str("did key")}
	r.bytes("skips")
	v.JSON = r.bytes("view")
	v.Doc = r.b
	if r.err == nil && (v.DIDKey == "" || len(v.JSON) == 0 || len(v.Doc) == 0) {
		r.fail("empty DID key, view or document")
	}
	return v, r.err
}

// ParseViewV4 decodes a view of store format 4 and older, which has the
// DID's key and no skip table; JSON shares data.
func ParseViewV4(data []byte) (*ViewV6, error) {
	r := newReader("view", data)
	v := &ViewV6{DIDKey: r.str("did key")}
	v.JSON = r.b
	if r.err == nil && (v.DIDKey == "" || len(v.JSON) == 0) {
		r.fail("empty DID key or view")
	}
	return v, r.err
}

// PoolTx is a pooled transaction, stored under its arrival sequence number
// with the epoch of the chain it was accepted on (a reset starts a new
// epoch).
type PoolTx struct {
	Epoch uint64
	Raw   []byte
}

// Bytes encodes p.
func (p *PoolTx) Bytes() []byte {
	w := make(writer, 0, 8+len(p.Raw))
	w.u64(p.Epoch)
	return append(w, p.Raw...)
}

// ParsePoolTx decodes a PoolTx; Raw shares data.
func ParsePoolTx(data []byte) (*PoolTx, error) {
	r := newReader("pool tx", data)
	p := &PoolTx{Epoch: r.u64("epoch")}
	p.Raw = r.b
	if r.err == nil && len(p.Raw) == 0 {
		r.fail("no transaction bytes")
	}
	return p, r.err
}

func flag(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func (r *reader) flag(field string) bool {
	switch v := r.u8(field); v {
	case 0, 1:
		return v == 1
	default:
		r.fail("%s is %d, want 0 or 1", field, v)
		return false
	}
}
