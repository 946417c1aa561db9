package devnet

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// fakeChain is a Chain whose blocks are bare headers stamped as its clock
// says, with a wall clock that stands still.
type fakeChain struct {
	clock  ledger.Clock
	tip    uint32
	now    int64
	blocks int
	held   bool  // a control holds the block maker
	refuse error // what Control fails with, if anything

	db       *mem.DB     // the fake's store: its state is bucketState's
	restarts int         // Restarts done
	wall     int64       // what the last Restart's undo returned
	resets   []time.Time // what each Reset was asked for
}

func (f *fakeChain) Control(ctx context.Context) (Control, error) {
	if f.refuse != nil {
		return nil, f.refuse
	}
	if f.held {
		panic("two controls at once")
	}
	f.held = true
	return f, nil
}

func (f *fakeChain) Clock() (ledger.Clock, uint32, int64) { return f.clock, f.tip, f.now }

func (f *fakeChain) SetClock(clock ledger.Clock) error { f.clock = clock; return nil }

func (f *fakeChain) Mine() (*ela.Block, error) {
	t := f.clock.BlockTime(f.tip, f.now)
	f.tip, f.clock = t, f.clock.Mined(t, f.now)
	f.blocks++
	return &ela.Block{Header: ela.Header{Timestamp: t}}, nil
}

func (f *fakeChain) Update(fn func(store.Tx) error) (after, err error) {
	return nil, f.db.Update(func(tx store.Tx) error { return fn(Logged(tx, isState)) })
}

func (f *fakeChain) Restart(undo func(store.Tx) (int64, error)) (Head, error) {
	err := f.db.Update(func(tx store.Tx) (err error) {
		f.wall, err = undo(Logged(tx, isState))
		return err
	})
	if err != nil {
		return Head{}, err
	}
	f.restarts++
	return Head{Epoch: uint64(f.restarts)}, nil
}

func (f *fakeChain) Reset(asked time.Time) error {
	f.resets = append(f.resets, asked)
	return nil
}

func (f *fakeChain) Info(string, ...any) {}

func (f *fakeChain) Release() { f.held = false }

const wall = 1_800_000_000 // the fake's wall clock, in Unix seconds

// errAny stands for any error in a test case.
var errAny = errors.New("any error")

func newFake() *fakeChain { return &fakeChain{tip: wall - 10, now: wall, db: mem.New()} }

func TestControls(t *testing.T) {
	at := func(s int64) time.Time { return time.Unix(s, 0).UTC() }
	for _, tc := range []struct {
		name     string
		do       func(c Chain) (any, error)
		want     any   // what the control returns
		refused  error // the error it is refused with: ErrBadTime, errAny for any, or nil
		blocks   int   // blocks made
		wantTip  int64 // the tip's time after, if blocks were made
		wantSkew int64 // the clock's skew after
	}{
		{"increase time", func(c Chain) (any, error) { return IncreaseTime(c, time.Hour) }, at(wall + 3600), nil, 1, wall + 3600, 3600},
		{"increase time by less than a second", func(c Chain) (any, error) { return IncreaseTime(c, time.Millisecond) }, time.Time{}, ErrBadTime, 0, 0, 0},
		{"move the clock", func(c Chain) (any, error) { return MoveClock(c, time.Minute) }, time.Minute, nil, 0, 0, 60},
		{"move the clock back", func(c Chain) (any, error) { return MoveClock(c, -time.Minute) }, time.Duration(0), ErrBadTime, 0, 0, 0},
		{"set the next block time", func(c Chain) (any, error) { return SetNextBlockTime(c, at(wall+100)) }, at(wall + 100), nil, 0, 0, 100},
		{"set it at the tip's", func(c Chain) (any, error) { return SetNextBlockTime(c, at(wall-10)) }, time.Time{}, ErrBadTime, 0, 0, 0},
		{"mine 3 blocks an hour apart", func(c Chain) (any, error) {
			b, err := MineBlocks(context.Background(), c, 3, time.Hour)
			return b.Header.Timestamp, err
		}, uint32(wall + 7200), nil, 3, wall + 7200, 7200},
		{"mine 3 blocks at once", func(c Chain) (any, error) {
			b, err := MineBlocks(context.Background(), c, 3, 0)
			return b.Header.Timestamp, err
		}, uint32(wall + 2), nil, 3, wall + 2, 0},
		{"mine none", func(c Chain) (any, error) { return MineBlocks(context.Background(), c, 0, 0) }, (*ela.Block)(nil), errAny, 0, 0, 0},
		{"mine too many", func(c Chain) (any, error) { return MineBlocks(context.Background(), c, MaxMineBlocks+1, 0) }, (*ela.Block)(nil), errAny, 0, 0, 0},
		{"mine at half seconds", func(c Chain) (any, error) { return MineBlocks(context.Background(), c, 2, 1500*time.Millisecond) }, (*ela.Block)(nil), ErrBadTime, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			got, err := tc.do(f)
			switch {
			case tc.refused == nil && err != nil, tc.refused != nil && err == nil,
				tc.refused == ErrBadTime && !errors.Is(err, ErrBadTime):
				t.Fatalf("err %v, want %v", err, tc.refused)
			}
			if err == nil && got != tc.want {
				t.Errorf("returned %v, want %v", got, tc.want)
			}
			if f.held {
				t.Error("the control was not released")
			}
			if f.blocks != tc.blocks {
				t.Errorf("%d blocks made, want %d", f.blocks, tc.blocks)
			}
			if tc.blocks > 0 && int64(f.tip) != tc.wantTip {
				t.Errorf("tip's time %d, want %d", f.tip, tc.wantTip)
			}
			if f.clock.Skew != tc.wantSkew {
				t.Errorf("skew %d, want %d", f.clock.Skew, tc.wantSkew)
			}
		})
	}
}

// TestControlRefused checks that a chain refusing a control (a follower's,
// or one closed) has its error returned and nothing done.
func TestControlRefused(t *testing.T) {
	closed := errors.New("closed")
	for _, tc := range []struct {
		name string
		do   func(c Chain) error
	}{
		{"increase time", func(c Chain) error { _, err := IncreaseTime(c, time.Hour); return err }},
		{"move the clock", func(c Chain) error { _, err := MoveClock(c, time.Hour); return err }},
		{"set the next block time", func(c Chain) error { _, err := SetNextBlockTime(c, time.Unix(wall+5, 0)); return err }},
		{"mine", func(c Chain) error { _, err := MineBlocks(context.Background(), c, 1, 0); return err }},
		{"snapshot", func(c Chain) error { _, err := Snapshot(c); return err }},
		{"revert", func(c Chain) error { return Revert(context.Background(), c, 1) }},
		{"reset", func(c Chain) error { return Reset(context.Background(), c) }},
		{"reset at a time", func(c Chain) error { return ResetAt(context.Background(), c, time.Unix(wall, 0)) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			f.refuse = closed
			if err := tc.do(f); !errors.Is(err, closed) {
				t.Fatalf("err %v, want the chain's", err)
			}
			if f.blocks != 0 || f.clock != (ledger.Clock{}) || f.restarts != 0 || len(f.resets) != 0 {
				t.Errorf("%d blocks made, clock %+v, %d restarts, resets %v", f.blocks, f.clock, f.restarts, f.resets)
			}
		})
	}
}

// TestReset checks that Reset and ResetAt hand the chain the genesis time
// asked for, and that ResetAt refuses one the ledger cannot begin at.
func TestReset(t *testing.T) {
	at := time.Unix(wall, 0).UTC()
	for _, tc := range []struct {
		name  string
		do    func(c Chain) error
		asked []time.Time // the resets the chain is asked for
		bad   bool        // refused with ErrBadTime
	}{
		{"reset", func(c Chain) error { return Reset(context.Background(), c) }, []time.Time{{}}, false},
		{"reset at a time", func(c Chain) error { return ResetAt(context.Background(), c, at) }, []time.Time{at}, false},
		{"reset before 1970", func(c Chain) error { return ResetAt(context.Background(), c, time.Unix(-1, 0)) }, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake()
			err := tc.do(f)
			if tc.bad != errors.Is(err, ErrBadTime) || !tc.bad && err != nil {
				t.Fatalf("err %v, want ErrBadTime: %v", err, tc.bad)
			}
			if !slices.Equal(f.resets, tc.asked) {
				t.Errorf("resets asked %v, want %v", f.resets, tc.asked)
			}
			if f.held {
				t.Error("the control was not released")
			}
		})
	}
}
