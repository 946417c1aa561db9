// Package eidfollow runs an EID follower: an eidsync scan of an EID node feeding an eidindex, and what its server shows.
//
// A Follower is an api.EIDFollower: the DID reads and query come from its
// index (didreads over eidindex), its head is the last EID block indexed,
// and its status tells how far behind the upstream the scan is and what
// the index refused.
package eidfollow

import (
	"context"
	"encoding/hex"
	"time"

	"github.com/didlight/didlight/host/internal/didreads"
	"github.com/didlight/didlight/host/internal/eidindex"
	"github.com/didlight/didlight/host/internal/eidsync"
)

// Follower is an EID follower: an index and the scan that feeds it.
type Follower struct {
	*didreads.Reads // the DID reads and query, from the index

	index    *eidindex.Index
	scan     *eidsync.Scanner
	upstream string
}

// New returns the follower of upstream (its URL, as the status shows it)
// whose scan feeds index. The scan's sink must be index.
func New(index *eidindex.Index, scan *eidsync.Scanner, upstream string) *Follower {
	return &Follower{Reads: index.Reads, index: index, scan: scan, upstream: upstream}
}

// Run scans until ctx ends (eidsync.Scanner.Run).
func (f *Follower) Run(ctx context.Context) error { return f.scan.Run(ctx) }

// Head returns the last EID block indexed, its number and time; ok is
// false before the first.
func (f *Follower) Head() (height uint64, at time.Time, ok bool) {
	h, ok := f.index.HeadBlock()
	return h.Number, time.Unix(int64(h.Time), 0).UTC(), ok
}

// ChainID returns the chain id of the EID chain indexed.
func (f *Follower) ChainID() (uint64, bool) { return f.index.Network().ChainID, true }

// Status is what the node state shows of an EID follower, as its Light
// member.
type Status struct {
	Mode     string // "eid-follower"
	Upstream string
	ChainID  uint64
	Synced   *Block `json:",omitempty"` // the last block indexed; absent before the first
	// Head is the upstream's head as the scan last asked it, Behind how
	// many blocks the index is from it; CaughtUp says it has reached it.
	Head, Behind uint64
	CaughtUp     bool
	Rate         float64 // blocks indexed a second, lately
	Reorgs       int     // reorganisations followed since start
	LastError    string  `json:",omitempty"` // the upstream's last failure, until a pass succeeds
	// Operations counts what the index took and refused since it was made.
	Operations  Operations
	LastRefused *eidindex.Refusal `json:",omitempty"`
}

// Block is an EID block as the status shows it.
type Block struct {
	Number uint64
	Hash   string // 0x and 64 hex digits
	Time   time.Time
}

// Operations counts operations of the index (eidindex.Counts).
type Operations struct {
	Applied, Waived, Refused uint64
}

// Status returns the follower's status (api.Light).
func (f *Follower) Status() any {
	c := f.index.Counts()
	p := f.scan.Progress()
	st := Status{Mode: "eid-follower", Upstream: f.upstream, ChainID: f.index.Network().ChainID,
		Head: p.Head, Behind: p.Lag, CaughtUp: p.CaughtUp, Rate: p.Rate, Reorgs: p.Reorgs,
		Operations: Operations{Applied: c.Applied, Waived: c.Waived, Refused: c.Refused}, LastRefused: c.LastRefused}
	if h, ok := f.index.HeadBlock(); ok {
		st.Synced = &Block{Number: h.Number, Hash: "0x" + hex.EncodeToString(h.Hash[:]), Time: time.Unix(int64(h.Time), 0).UTC()}
		if p.Head > h.Number {
			st.Behind = p.Head - h.Number
		}
	}
	if p.Err != nil {
		st.LastError = p.Err.Error()
	}
	return st
}
