// Package wal is an append-only log of records in one file: records are
// appended in batches and synced once per batch, replayed in order when the
// log is opened, and dropped once their owner no longer needs them. The
// chain keeps its mempool in one, so that acknowledging a transaction costs
// one sync of an appended record rather than a store commit.
//
// A record is its body's length (4 bytes, little-endian), the CRC-32C of
// the length and the body (4 bytes, little-endian), then the body. A crash
// may leave the last records torn: replay stops at the first record that is
// short or fails its checksum, and the log continues from there. Only
// records a sync covered are ever acknowledged, and a sync covers every
// record before it, so nothing acknowledged sits past a torn record.
package wal

import (
	"encoding/binary"
	"hash/crc32"
)

// headerSize is the length and checksum before each body.
const headerSize = 8

// MaxBody is the largest record body: the store's largest value
// (store.MaxValueSize), more than any pooled transaction takes.
const MaxBody = 64 << 20

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// appendRecord appends body, framed as a record, to dst.
func appendRecord(dst, body []byte) []byte {
	var h [headerSize]byte
	binary.LittleEndian.PutUint32(h[:4], uint32(len(body)))
	binary.LittleEndian.PutUint32(h[4:], checksum(h[:4], body))
	return append(append(dst, h[:]...), body...)
}

func checksum(length, body []byte) uint32 {
	return crc32.Update(crc32.Checksum(length, castagnoli), castagnoli, body)
}

// Decode returns the bodies of the intact records at the start of data, in
// order, each sharing data, and the offset of each record; end is where the
// first record that is torn or corrupt (or the data) ends: what follows it
// is dropped.
func Decode(data []byte) (bodies [][]byte, offsets []int64, end int) {
	for end < len(data) {
		rest := data[end:]
		if len(rest) < headerSize {
			break
		}
		n := binary.LittleEndian.Uint32(rest[:4])
		if n > MaxBody || uint64(n) > uint64(len(rest)-headerSize) {
			break
		}
		body := rest[headerSize : headerSize+int(n)]
		if binary.LittleEndian.Uint32(rest[4:headerSize]) != checksum(rest[:4], body) {
			break
		}
		bodies, offsets = append(bodies, body), append(offsets, int64(end))
		end += headerSize + int(n)
	}
	return bodies, offsets, end
}
