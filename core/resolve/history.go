package resolve

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"didlight/core/did"
	"didlight/core/idop"
)

// Entry is one operation of a DID's history as the chain recorded it.
type Entry struct {
	Txid     string
	Height   uint32
	Position int   // the transaction's index in its block
	Time     int64 // the block's time, Unix seconds
	Request  idop.Request
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
	slices.SortStableFunc(s, func(a, b Entry) int {
		return cmp.Or(cmp.Compare(b.Time, a.Time), cmp.Compare(b.Height, a.Height), cmp.Compare(b.Position, a.Position))
	})
	return s
}

// StatusOf derives the status of a DID from its history (in any order) and
// the block time of the chain tip (Unix seconds).
func StatusOf(h []Entry, tip int64) (Status, error) {
	s, _, err := derive(Sorted(h), tip)
	return s, err
}

// derive returns the status of a history sorted newest first and the index
// of its latest document transaction (-1 when there is none).
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
	op, err := idop.Decode(h[latest].Request)
	if err != nil {
		return 0, -1, fmt.Errorf("resolve: transaction %s: %w", h[latest].Txid, err)
	}
	return statusAt(op.Document, false, time.Unix(tip, 0)), latest, nil
}

// statusAt is the status of a DID whose latest document is doc at time now.
func statusAt(doc *did.Document, deactivated bool, now time.Time) Status {
	switch {
	case deactivated:
		return Deactivated
	case doc.Expires().Before(now):
		return Expired
	}
	return Valid
}
