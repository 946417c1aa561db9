package ela

import "math"

// Smallest encodings, used to reject counts the input has no room for.
const (
	minAttributeSize = 2             // usage + empty data
	inputSize        = HashSize + 6  // txid, index u16, sequence u32
	outputSize       = HashSize + 33 // asset, value, lock, program hash
	minProgramSize   = 2
	minTxSize        = 9 // type, payload version, three empty lists, lock time, no programs
)

// dialect says which chain's rules decode a transaction: the identity chain's
// (a side chain) or the main chain's, met inside a block's AuxPow.
type dialect uint8

const (
	sideChain dialect = iota
	mainChain
)

// ParseTx decodes a transaction in the identity chain's form. It rejects
// truncated input, trailing bytes, non-canonical varints, oversized counts
// and lengths, negative amounts and types the identity chain does not carry,
// with a *DecodeError saying what and where.
func ParseTx(b []byte) (*Tx, error) {
	if err := checkInputSize("tx", b); err != nil {
		return nil, err
	}
	r := newReader("tx", b)
	tx := decodeTx(r, sideChain)
	if err := r.end(); err != nil {
		return nil, err
	}
	return tx, nil
}

// TypeOf returns the type of an identity-chain transaction from its
// encoding without decoding the rest: the type is its first byte (the
// version-0 form has no version byte). It checks nothing else, so it is for
// encodings already known to be transactions, such as a chain's own.
func TypeOf(raw []byte) (TxType, error) {
	if len(raw) == 0 {
		return 0, &DecodeError{Object: "tx", Offset: 0, Field: "type", Err: ErrTruncated}
	}
	return TxType(raw[0]), nil
}

func decodeTx(r *reader, d dialect) *Tx {
	tx := new(Tx)
	at := r.off
	txType := TxType(r.u8("type"))
	if d == mainChain && byte(txType) >= TxVersion09 {
		tx.Version, txType = byte(txType), TxType(r.u8("type"))
	}
	tx.PayloadVersion = r.u8("payloadversion")
	if r.failed() {
		return nil
	}
	p, err := newPayload(txType, d)
	if err != nil {
		r.failf("type", at, ErrUnsupported, "%v", err)
		return nil
	}
	r.enter("payload")
	p.decode(r, tx.PayloadVersion)
	r.leave()
	tx.Payload = p
	tx.Attributes = decodeList(r, "attributes", minAttributeSize, func(r *reader) Attribute { return decodeAttribute(r, d) })
	tx.Inputs = decodeList(r, "inputs", inputSize, decodeInput)
	outSize := outputSize
	if tx.Version >= TxVersion09 {
		outSize++
	}
	tx.Outputs = decodeList(r, "outputs", outSize, func(r *reader) Output { return decodeOutput(r, tx.Version) })
	tx.LockTime = r.u32("locktime")
	tx.Programs = decodeList(r, "programs", minProgramSize, decodeProgram)
	return tx
}

// decodeList reads a varint count and that many elements.
func decodeList[T any](r *reader, name string, minSize int, decode func(*reader) T) []T {
	n := r.count(name, minSize, math.MaxInt32)
	list := make([]T, 0, n)
	for i := 0; i < n && !r.failed(); i++ {
		r.enterIndex(name, i)
		list = append(list, decode(r))
		r.leave()
	}
	return list
}

func decodeAttribute(r *reader, d dialect) Attribute {
	at := r.off
	a := Attribute{Usage: AttributeUsage(r.u8("usage"))}
	if !r.failed() && !validUsage(a.Usage, d) {
		r.failf("usage", at, ErrInvalid, "attribute usage 0x%02x is not defined", byte(a.Usage))
	}
	a.Data = r.varBytes("data", MaxPayloadDataSize)
	return a
}

func validUsage(u AttributeUsage, d dialect) bool {
	switch u {
	case AttrNonce, AttrScript, AttrMemo, AttrDescription, AttrDescriptionURL:
		return true
	case AttrConfirmations:
		return d == mainChain
	}
	return false
}

func decodeInput(r *reader) Input {
	return Input{TxID: r.hash("txid"), Index: r.u16("vout"), Sequence: r.u32("sequence")}
}

// outputTypeNone is the only main-chain output payload type this package
// decodes: no payload (Elastos.ELA core/types/common/output.go, OTNone).
const outputTypeNone = 0

func decodeOutput(r *reader, version byte) Output {
	o := Output{
		AssetID:     r.hash("assetid"),
		Value:       r.amount("value"),
		OutputLock:  r.u32("outputlock"),
		ProgramHash: r.programHash("programhash"),
	}
	if version >= TxVersion09 {
		at := r.off
		if t := r.u8("type"); t != outputTypeNone && !r.failed() {
			r.failf("type", at, ErrUnsupported, "output payload type %d (only 0, no payload, is decoded)", t)
		}
	}
	return o
}

func decodeProgram(r *reader) Program {
	p := Program{Parameter: r.varBytes("parameter", MaxProgramParamSize)}
	p.Code = r.varBytes("code", MaxProgramCodeSize)
	return p
}
