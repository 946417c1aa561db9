package resolve

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/didlight/didlight/core/idop"
)

// Entry is one operation of a history as the chain recorded it, with what
// deriving a status needs from it, so that building a result decodes
// nothing. [NewEntry] makes one from a decoded operation; a store keeps
// Expires with the rest and gives it back.
type Entry struct {
	Txid     string
	Height   uint32
	Position int   // the transaction's index in its block
	Time     int64 // the block's time, Unix seconds
	Request  idop.Request
	// Expires is when the document the operation publishes (create,
	// update, transfer) expires, Unix seconds; 0 when it publishes none.
	Expires int64
}

// NewEntry returns the history entry of op, carried by transaction txid at
// position pos of the block at height, stamped t (Unix seconds).
func NewEntry(op *idop.Op, txid string, height uint32, pos int, t int64) Entry {
	e := Entry{Txid: txid, Height: height, Position: pos, Time: t, Request: op.Request}
	if op.Document != nil {
		e.Expires = op.Document.Expires().Unix()
	}
	return e
}

// Status is the state of a DID in a resolve result.
type Status int

// The statuses of a DID.
const (
	Valid       Status = 0
	Expired     Status = 1
	Deactivated Status = 2
	NotFound    Status = 3
)

var statusNames = [...]string{"valid", "expired", "deactivated", "not found"}

func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("status %d", int(s))
}

// Sorted returns a copy of h, newest first: by block time, then block
// height, then position in the block, each descending.
func Sorted(h []Entry) []Entry {
	s := slices.Clone(h)
	slices.SortStableFunc(s, Order)
	return s
}

// Order compares two entries as Sorted orders them: it is negative when a
// is newer than b, positive when it is older, 0 when they tie.
func Order(a, b Entry) int {
	return cmp.Or(cmp.Compare(b.Time, a.Time), cmp.Compare(b.Height, a.Height), cmp.Compare(b.Position, a.Position))
}

// StatusOf derives the status of a DID from its history (in any order) and
// the block time of the chain tip (Unix seconds).
func StatusOf(h []Entry, tip int64) (Status, error) {
	s, _, err := derive(Sorted(h), tip)
	return s, err
}

// derive returns the status of a history sorted newest first and the index
// of its latest document transaction (-1 when there is none). It reads the
// operations' headers and the latest document's Expires, and decodes
// nothing.
func derive(h []Entry, tip int64) (Status, int, error) {
	if len(h) == 0 {
		return NotFound, -1, nil
	}
	latest := slices.IndexFunc(h, func(e Entry) bool { return e.Request.Header.Operation != idop.Deactivate })
	if latest < 0 {
		return 0, -1, fmt.Errorf("resolve: the history of %d transactions has no document", len(h))
	}
	if h[0].Request.Header.Operation == idop.Deactivate {
		return Deactivated, latest, nil
	}
	e := h[latest]
	if e.Expires == 0 {
		return 0, -1, &idop.RuleError{Rule: idop.RuleMalformed, Err: fmt.Errorf("resolve: transaction %s (%s) has no Expires: make entries with NewEntry", e.Txid, e.Request.Header.Operation)}
	}
	return statusAt(time.Unix(e.Expires, 0), false, time.Unix(tip, 0)), latest, nil
}

// statusAt is the status at time now of a DID whose latest document
// expires at expires.
func statusAt(expires time.Time, deactivated bool, now time.Time) Status {
	switch {
	case deactivated:
		return Deactivated
	case expires.Before(now):
		return Expired
	}
	return Valid
}
