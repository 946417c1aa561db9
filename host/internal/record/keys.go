package record

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/store"
)

// HeightKey is the key of a block's records: its height.
func HeightKey(h uint32) []byte { return binary.BigEndian.AppendUint32(nil, h) }

// ParseHeightKey reads a HeightKey.
func ParseHeightKey(k []byte) (uint32, error) {
	if len(k) != 4 {
		return 0, fmt.Errorf("%w: height key of %d bytes", store.ErrCorrupt, len(k))
	}
	return binary.BigEndian.Uint32(k), nil
}

// SeqKey is the key of a sequence number: a DID's creation order, a
// pooled transaction's arrival order.
func SeqKey(n uint64) []byte { return binary.BigEndian.AppendUint64(nil, n) }

// ParseSeqKey reads a SeqKey.
func ParseSeqKey(k []byte) (uint64, error) {
	if len(k) != 8 {
		return 0, fmt.Errorf("%w: sequence key of %d bytes", store.ErrCorrupt, len(k))
	}
	return binary.BigEndian.Uint64(k), nil
}

// OutpointKey is the key of an unspent output: its transaction and index.
func OutpointKey(txid ela.Hash, index uint16) []byte {
	return binary.BigEndian.AppendUint16(append(make([]byte, 0, ela.HashSize+2), txid[:]...), index)
}

// AddressKey is the key of an address's unspent output, so that an
// address's outputs sort in chain order: program hash, the height and
// position of the transaction, the output index.
func AddressKey(ph ela.ProgramHash, height, pos uint32, index uint16) []byte {
	k := append(make([]byte, 0, ela.ProgramHashSize+10), ph[:]...)
	k = binary.BigEndian.AppendUint32(k, height)
	k = binary.BigEndian.AppendUint32(k, pos)
	return binary.BigEndian.AppendUint16(k, index)
}

// AddressPrefix is the prefix of every AddressKey of ph.
func AddressPrefix(ph ela.ProgramHash) []byte { return ph[:] }

// ParseAddressKey reads an AddressKey's output index.
func ParseAddressKey(k []byte) (index uint16, err error) {
	if len(k) != ela.ProgramHashSize+10 {
		return 0, fmt.Errorf("%w: address key of %d bytes", store.ErrCorrupt, len(k))
	}
	return binary.BigEndian.Uint16(k[len(k)-2:]), nil
}

// BalanceKey is the key of an address's balance of an asset.
func BalanceKey(ph ela.ProgramHash, asset ela.Hash) []byte {
	return append(append(make([]byte, 0, ela.ProgramHashSize+ela.HashSize), ph[:]...), asset[:]...)
}

// prefixed appends s with its length.
func prefixed(k []byte, s string) []byte {
	return append(binary.AppendUvarint(k, uint64(len(s))), s...)
}

// HistoryPrefix is the prefix of the history keys of the DID with key
// didKey (did.DID.Key).
func HistoryPrefix(didKey string) []byte { return prefixed(nil, didKey) }

// HistoryKey is the key of a DID's operation: the DID, the height and the
// position of its transaction.
func HistoryKey(didKey string, height, pos uint32) []byte {
	k := binary.BigEndian.AppendUint32(HistoryPrefix(didKey), height)
	return binary.BigEndian.AppendUint32(k, pos)
}

// ParseHistoryKey reads the height and position of a HistoryKey with the
// given prefix.
func ParseHistoryKey(prefix, k []byte) (height, pos uint32, err error) {
	if len(k) != len(prefix)+8 {
		return 0, 0, fmt.Errorf("%w: history key of %d bytes after a %d-byte prefix", store.ErrCorrupt, len(k), len(prefix))
	}
	k = k[len(prefix):]
	return binary.BigEndian.Uint32(k), binary.BigEndian.Uint32(k[4:]), nil
}

// PostingPrefix is the prefix of the postings of a service or credential
// type.
func PostingPrefix(typ string) []byte { return prefixed(nil, typ) }

// PostingKey is the key of a posting: the type, then the creation sequence
// number of a DID whose latest document has it, so that a type's DIDs sort
// in creation order.
func PostingKey(typ string, seq uint64) []byte {
	return binary.BigEndian.AppendUint64(PostingPrefix(typ), seq)
}

// ParsePostingKey reads the number that ends a PostingKey (a sequence
// number) or a FieldKey (a chunk) with the given prefix.
func ParsePostingKey(prefix, k []byte) (uint64, error) {
	if len(k) != len(prefix)+8 {
		return 0, fmt.Errorf("%w: posting key of %d bytes after a %d-byte prefix", store.ErrCorrupt, len(k), len(prefix))
	}
	return binary.BigEndian.Uint64(k[len(prefix):]), nil
}

// Tags of the values in a FieldPrefix.
const (
	fieldPresent = 'p'
	fieldString  = 's'
	fieldNumber  = 'n'
	fieldBool    = 'b'
)

// FieldPrefix is the prefix of the postings of a path of the query views
// (find.Posting): the path, then the value (a string, a float64 or a
// bool, tagged by its kind) or, for a nil value, the path's presence.
// Other values have no prefix: ok is false.
func FieldPrefix(path string, value any) (k []byte, ok bool) {
	return AppendFieldPrefix(nil, path, value)
}

// AppendFieldPrefix appends the FieldPrefix of path and value to b.
func AppendFieldPrefix(b []byte, path string, value any) (k []byte, ok bool) {
	k = prefixed(b, path)
	switch v := value.(type) {
	case nil:
		return append(k, fieldPresent), true
	case string:
		return prefixed(append(k, fieldString), v), true
	case float64:
		return binary.BigEndian.AppendUint64(append(k, fieldNumber), math.Float64bits(v)), true
	case bool:
		return append(k, fieldBool, flag(v)), true
	}
	return nil, false
}

// FieldKey is the key of a container of postings of a path of the query
// views (package bitmap): its FieldPrefix, then its chunk, the creation
// sequence numbers it holds shifted right by bitmap.ChunkBits, so that a
// prefix's containers sort in creation order.
func FieldKey(prefix []byte, chunk uint64) []byte {
	return AppendFieldKey(slices.Clip(prefix), chunk)
}

// AppendFieldKey appends the chunk of a FieldKey to its prefix, which may
// share its array with the key.
func AppendFieldKey(prefix []byte, chunk uint64) []byte {
	return binary.BigEndian.AppendUint64(prefix, chunk)
}

// CountKey is the key of the number of postings under prefix in the
// bucket named name.
func CountKey(name string, prefix []byte) []byte {
	return append(append([]byte(name), 0), prefix...)
}
