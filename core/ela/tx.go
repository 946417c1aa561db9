package ela

import "fmt"

// TxType says what a transaction does and how its payload is encoded.
// Values from Elastos.ELA.SideChain types/transaction.go; [TxDIDOperation] from
// Elastos.ELA.SideChain.ID types/transaction.go (RegisterDID).
type TxType byte

// Transaction types.
const (
	TxCoinBase                TxType = 0x00
	TxRegisterAsset           TxType = 0x01
	TxTransferAsset           TxType = 0x02
	TxRecord                  TxType = 0x03
	TxDeploy                  TxType = 0x04 // never decoded: no payload format on the side chains
	TxSideChainPow            TxType = 0x05
	TxRechargeToSideChain     TxType = 0x06
	TxWithdrawFromSideChain   TxType = 0x07 // main chain only: the identity chain cannot decode it
	TxTransferCrossChainAsset TxType = 0x08
	TxRegisterIdentification  TxType = 0x09 // the ID chain's retired first identity format; not decoded
	TxDIDOperation            TxType = 0x0a // a DID or credential operation
)

var txTypeNames = [...]string{
	"CoinBase", "RegisterAsset", "TransferAsset", "Record", "Deploy", "SideChainPow",
	"RechargeToSideChain", "WithdrawFromSideChain", "TransferCrossChainAsset",
	"RegisterIdentification", "DIDOperation",
}

// String returns the type's name, or its number in hex for an unknown type.
func (t TxType) String() string {
	if int(t) < len(txTypeNames) {
		return txTypeNames[t]
	}
	return fmt.Sprintf("TxType(0x%02x)", byte(t))
}

// TxVersion09 is the first main-chain transaction version. A main-chain
// transaction whose first byte is at least 0x09 starts with its version,
// then its type; older ones start with the type (Elastos.ELA
// core/types/common/transaction.go, core/transaction/common.go). Side
// chains, the identity chain among them, never write a version byte: their
// type 0x0a would read as a version.
const TxVersion09 byte = 0x09

// Tx is a ledger transaction. The zero Version is the form every identity
// chain transaction has; main-chain transactions (inside a block's AuxPow)
// may carry a version of [TxVersion09] or more, which adds the version byte
// and an output type byte to the encoding. Versions 1 to 8 cannot be
// encoded and are written as version 0.
type Tx struct {
	Version        byte
	PayloadVersion byte
	Payload        Payload // decides the transaction type; must not be nil
	Attributes     []Attribute
	Inputs         []Input
	Outputs        []Output
	LockTime       uint32
	Programs       []Program // signatures; not covered by the transaction hash
}

// Type returns the transaction type, which its payload decides.
func (tx *Tx) Type() TxType { return tx.Payload.TxType() }

// AttributeUsage says what an attribute's data is.
type AttributeUsage byte

// Attribute usages (Elastos.ELA.SideChain types/attribute.go; the main chain
// adds [AttrConfirmations], Elastos.ELA core/types/common/attribute.go).
const (
	AttrNonce          AttributeUsage = 0x00 // random bytes that make equal transactions differ
	AttrScript         AttributeUsage = 0x20 // a 21-byte program hash that must also sign
	AttrMemo           AttributeUsage = 0x81
	AttrDescription    AttributeUsage = 0x90
	AttrDescriptionURL AttributeUsage = 0x91
	AttrConfirmations  AttributeUsage = 0x92 // main chain only
)

// Attribute is a typed piece of data attached to a transaction.
type Attribute struct {
	Usage AttributeUsage
	Data  []byte
}

// Input spends output Index of transaction TxID.
type Input struct {
	TxID     Hash
	Index    uint16
	Sequence uint32
}

// Output locks Value of an asset to a program hash (an address).
type Output struct {
	AssetID     Hash
	Value       Fixed64
	OutputLock  uint32 // block height before which the output cannot be spent
	ProgramHash ProgramHash
}

// Program unlocks inputs: Code is a redeem script whose program hash an
// input's output (or a Script attribute) names; Parameter holds the
// signatures. On the wire the parameter comes first.
type Program struct {
	Code      []byte
	Parameter []byte
}

// Limits on decoded data. Those marked as the chain's come from the
// reference implementation; the others are this package's sanity caps.
const (
	MaxBlockSize        = 8_000_000 // the chain's; also the largest transaction accepted
	MaxTxPerBlock       = 100_000   // the chain's
	MaxPayloadDataSize  = 1 << 20   // the chain's cap on payload byte fields; also caps every text field and attribute
	MaxProgramCodeSize  = 10_000    // the chain's
	MaxProgramParamSize = 20_000    // the chain's
)

// Bytes returns the transaction's full encoding, programs included.
func (tx *Tx) Bytes() []byte {
	n := tx.unsignedSizeHint()
	for _, p := range tx.Programs {
		n += 2*9 + len(p.Code) + len(p.Parameter)
	}
	w := &writer{b: make([]byte, 0, n)}
	tx.encode(w)
	return w.b
}

// UnsignedBytes returns the encoding without the programs: the data every
// program signs (its SHA-256 is the signed digest) and whose double SHA-256
// is the transaction hash.
func (tx *Tx) UnsignedBytes() []byte {
	w := &writer{b: make([]byte, 0, tx.unsignedSizeHint())}
	tx.encodeUnsigned(w)
	return w.b
}

// Hash returns the transaction id: the double SHA-256 of UnsignedBytes.
func (tx *Tx) Hash() Hash { return hashOf(tx.UnsignedBytes()) }

// Size returns the length of the full encoding in bytes.
func (tx *Tx) Size() int { return len(tx.Bytes()) }

// unsignedSizeHint is room for the unsigned encoding: its lists and, for a
// payload that may be large (a sizer: a DID operation's is kilobytes), the
// payload, so that encoding a transaction allocates its buffer once rather
// than doubling it a few times.
func (tx *Tx) unsignedSizeHint() int {
	n := 128 + len(tx.Inputs)*inputSize + len(tx.Outputs)*(outputSize+1)
	for _, a := range tx.Attributes {
		n += 1 + 9 + len(a.Data)
	}
	if s, ok := tx.Payload.(sizer); ok {
		n += s.size()
	}
	return n
}

// sizer is a Payload that tells how long its encoding is at most.
type sizer interface{ size() int }

func (tx *Tx) encode(w *writer) {
	tx.encodeUnsigned(w)
	w.varint(uint64(len(tx.Programs)))
	for _, p := range tx.Programs {
		w.varBytes(p.Parameter)
		w.varBytes(p.Code)
	}
}

func (tx *Tx) encodeUnsigned(w *writer) {
	if tx.Version >= TxVersion09 {
		w.u8(tx.Version)
	}
	w.u8(byte(tx.Type()))
	w.u8(tx.PayloadVersion)
	tx.Payload.encode(w, tx.PayloadVersion)
	w.varint(uint64(len(tx.Attributes)))
	for _, a := range tx.Attributes {
		w.u8(byte(a.Usage))
		w.varBytes(a.Data)
	}
	w.varint(uint64(len(tx.Inputs)))
	for _, in := range tx.Inputs {
		w.hash(in.TxID)
		w.u16(in.Index)
		w.u32(in.Sequence)
	}
	w.varint(uint64(len(tx.Outputs)))
	for _, o := range tx.Outputs {
		w.hash(o.AssetID)
		w.u64(uint64(o.Value))
		w.u32(o.OutputLock)
		w.raw(o.ProgramHash[:])
		if tx.Version >= TxVersion09 {
			w.u8(outputTypeNone)
		}
	}
	w.u32(tx.LockTime)
}
