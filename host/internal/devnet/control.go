package devnet

import (
	"context"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/store"
)

// Chain is a devnet chain as its controls see it: one that makes its own
// blocks and lets one control at a time move its clock, mine, and take,
// revert to or reset its state.
//
// Locks: a control holds the chain's block maker from Control to Release;
// this package has no lock and no state of its own. What it keeps (the
// snapshots and the undo log) is in the chain's store, written only in a
// control's Update or Restart, and read by the chain's every write
// (Logged).
type Chain interface {
	// Control begins a control: it fails if ctx is done or the chain makes
	// no blocks of its own or is closed, and else holds the chain's block
	// maker until Release.
	Control(ctx context.Context) (Control, error)
}

// Control is a control under way, holding the chain's block maker.
type Control interface {
	// Clock returns the chain's clock, its tip's time and the wall clock's.
	Clock() (clock ledger.Clock, tip uint32, now int64)
	// SetClock stores clock (it survives a restart) and makes it the chain's.
	SetClock(clock ledger.Clock) error
	// Mine makes a block, from the mempool, stamped as the clock says.
	Mine() (*ela.Block, error)
	// Update runs fn in a store update of the chain (its writes Logged),
	// the mempool's entries not yet in the store stored in it first, so
	// that the store holds the whole chain when fn runs. err is the
	// update's; after is that of trimming the mempool log once the update
	// is committed.
	Update(fn func(tx store.Tx) error) (after, err error)
	// Restart runs undo in a store update of the chain; undo puts the
	// chain's state back as it was at wall (Unix seconds), which it
	// returns. The chain then begins a new epoch, with its clock's reading
	// of wall given back and the count of transactions received kept,
	// and reads its head, genesis, payee and mempool again from the store:
	// callers of its SubmitRequest still waiting get its ErrReset.
	Restart(undo func(tx store.Tx) (wall int64, err error)) (Head, error)
	// Reset wipes the chain back to a genesis block stamped asked (zero:
	// the chain's own genesis time), in a new epoch: blocks, indexes and
	// the mempool go, the node id and the snapshots stay.
	Reset(asked time.Time) error
	// Info logs what a control did.
	Info(msg string, args ...any)
	// Release ends the control.
	Release()
}

// Head is where a chain stands after a Restart.
type Head struct {
	Height uint32 // the tip's
	Epoch  uint64 // counts resets and reverts
}
