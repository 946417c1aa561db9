// Package fork decides what a fork of an EID chain keeps of a DID: its operations up to the fork height.
//
// A fork (didlight node --fork of an EID node) takes each DID from its
// upstream when first asked, as the upstream's whole history, verified.
// What it keeps is the DID as it stood at the fork height: the operations
// whose blocks are at or below it. Cut decides which those are; Kept is
// the record a fork stores of a DID, so that a restart answers without its
// upstream, and a DID the upstream did not know (or that was created above
// the fork height) is kept as absent rather than asked again.
package fork

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
)

// MaxOps is the most operations a kept DID holds: well above the longest
// history an EID answer carries.
const MaxOps = 1 << 12

// Kept is what a fork keeps of a DID, or of a credential: its operations
// at or below Height, oldest first; none when it did not exist there
// (Absent).
type Kept struct {
	DID    string `json:"did"`    // the DID, or the credential's id (a DID URL with a fragment)
	Height uint64 `json:"height"` // the fork height
	Ops    []Op   `json:"ops,omitempty"`
}

// Op is one kept operation, with what the upstream said of its
// transaction.
type Op struct {
	Txid    string       `json:"txid"`  // as EID's answers write it
	Block   uint64       `json:"block"` // the block that carried it; for an operation older than the newest kept, whose block was not asked, that one's (a bound)
	Time    int64        `json:"time"`  // that block's time, Unix seconds
	Request idop.Request `json:"request"`
}

// Absent reports whether the DID did not exist at the fork height.
func (k *Kept) Absent() bool { return len(k.Ops) == 0 }

// Cut returns how many of a history's operations, newest first, a fork at
// height keeps, given the blocks of its newest ones (blocks[i] the block of
// operation i): they are kept from the first at or below height on. known
// is false when every block given is above height, and the next one's is
// needed; a block above the one before it (the history out of order) is
// an error.
func Cut(blocks []uint64, height uint64) (drop int, known bool, err error) {
	for i, b := range blocks {
		if i > 0 && b > blocks[i-1] {
			return 0, false, fmt.Errorf("fork: operation %d is in block %d, above the newer one's %d", i, b, blocks[i-1])
		}
		if b <= height {
			return i, true, nil
		}
	}
	return len(blocks), false, nil
}

// Encode returns k as a fork stores it.
func (k *Kept) Encode() []byte {
	b, err := json.Marshal(k)
	if err != nil {
		panic(fmt.Sprintf("fork: encoding a kept DID: %v", err)) // every field marshals
	}
	return b
}

// Decode reads a kept DID as Encode wrote it, and checks it: a DID, at
// most MaxOps operations, each a request that parses, in blocks that do
// not go down, none above the fork height.
func Decode(b []byte) (*Kept, error) {
	var raw struct {
		DID    string `json:"did"`
		Height uint64 `json:"height"`
		Ops    []struct {
			Txid    string          `json:"txid"`
			Block   uint64          `json:"block"`
			Time    int64           `json:"time"`
			Request json.RawMessage `json:"request"`
		} `json:"ops"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("fork: a kept DID: %w", err)
	}
	if _, _, err := ParseSubject(raw.DID); err != nil {
		return nil, fmt.Errorf("fork: a kept DID: %w", err)
	}
	if len(raw.Ops) > MaxOps {
		return nil, fmt.Errorf("fork: kept DID %s has %d operations, more than %d", raw.DID, len(raw.Ops), MaxOps)
	}
	k := &Kept{DID: raw.DID, Height: raw.Height, Ops: make([]Op, 0, len(raw.Ops))}
	for i, o := range raw.Ops {
		switch {
		case o.Txid == "":
			return nil, fmt.Errorf("fork: kept DID %s: operation %d has no txid", raw.DID, i)
		case o.Block > raw.Height:
			return nil, fmt.Errorf("fork: kept DID %s: operation %d is in block %d, above the fork height %d", raw.DID, i, o.Block, raw.Height)
		case i > 0 && o.Block < raw.Ops[i-1].Block:
			return nil, errors.New("fork: kept DID " + raw.DID + ": operations out of block order")
		}
		req, err := idop.ParseRequest(o.Request)
		if err != nil {
			return nil, fmt.Errorf("fork: kept DID %s: operation %d: %w", raw.DID, i, err)
		}
		k.Ops = append(k.Ops, Op{Txid: o.Txid, Block: o.Block, Time: o.Time, Request: req})
	}
	return k, nil
}

// ParseSubject reads what a Kept is about: a DID, or a credential's id
// (credential true), and returns the key the DID index files it under.
func ParseSubject(s string) (key string, credential bool, err error) {
	if d, err := did.Parse(s); err == nil {
		return d.Key(), false, nil
	}
	u, err := did.ParseURL(s, did.DID{})
	if err != nil {
		return "", false, err
	}
	if u.Fragment == "" || u.DID.Key() == "" {
		return "", false, fmt.Errorf("%q is neither a DID nor a credential's id", s)
	}
	return u.Key(), true, nil
}
