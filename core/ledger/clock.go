package ledger

import (
	"fmt"
	"time"
)

// MaxBlockTime is the last time a block can carry: block times are 32-bit
// Unix seconds, which end in 2106.
const MaxBlockTime = 1<<32 - 1

// Clock is a development chain's clock: how the times of the blocks it
// makes follow the wall clock. It is a value; the node keeps the current
// one and passes the wall clock's reading in, so that every rule about a
// block's time is decided here.
//
// The zero Clock is the wall clock itself.
type Clock struct {
	// Skew is the chain's time minus the wall clock's, in seconds: negative
	// for a chain started in the past ([StartAt]), grown by Advance.
	Skew int64
	// Next, if not 0, is the exact time of the next block (SetNext).
	Next uint32
}

// StartAt returns the clock that reads t when the wall clock reads now
// (both Unix seconds), and runs on with the wall clock from there: a chain
// started at t carries t plus the time elapsed since.
func StartAt(t, now int64) Clock { return Clock{Skew: t - now} }

// Read returns the chain's time when the wall clock reads now: the pinned
// next block time if there is one, else now plus the skew.
func (c Clock) Read(now int64) int64 {
	if c.Next != 0 {
		return int64(c.Next)
	}
	return now + c.Skew
}

// BlockTime returns the time of the block after one stamped prev, made
// when the wall clock reads now: the clock's reading, but at least one
// second after prev (block times strictly increase) and at most
// [MaxBlockTime]. It is MaxBlockTime when prev is; the caller refuses to
// make a block then.
func (c Clock) BlockTime(prev uint32, now int64) uint32 {
	t := max(c.Read(now), int64(prev)+1)
	return uint32(min(t, MaxBlockTime))
}

// Mined returns the clock after a block stamped t was made when the wall
// clock read now: a pinned time is used once, and later blocks carry t
// plus the time elapsed since.
func (c Clock) Mined(t uint32, now int64) Clock {
	if c.Next == 0 {
		return c
	}
	return StartAt(int64(t), now)
}

// Rewound returns the clock that reads at now what c read at then (a
// snapshot's time, given back at a revert): the time that passed between
// is taken out of the skew; a pinned time stays pinned.
func (c Clock) Rewound(then, now int64) Clock {
	return Clock{Skew: c.Skew - (now - then), Next: c.Next}
}

// Advance returns the clock moved forward by d (whole seconds, at least
// one) when the wall clock reads now; it fails if the chain's time would
// pass [MaxBlockTime].
func (c Clock) Advance(d time.Duration, now int64) (Clock, error) {
	if d < time.Second || d%time.Second != 0 {
		return c, fmt.Errorf("increase time by %s: want whole seconds, at least one", d)
	}
	secs := int64(d / time.Second)
	if secs > MaxBlockTime || c.Read(now)+secs > MaxBlockTime {
		return c, fmt.Errorf("increase time by %s: the chain's clock would pass %s", d, formatTime(MaxBlockTime))
	}
	if c.Next != 0 {
		return Clock{Skew: c.Skew + secs, Next: c.Next + uint32(secs)}, nil
	}
	return Clock{Skew: c.Skew + secs}, nil
}

// SetNext returns the clock whose next block carries t exactly, for a
// chain whose tip is stamped tip, when the wall clock reads now. A block
// time must be after the tip's (CheckBlock's rule), so t not after tip is
// refused, as is a t past [MaxBlockTime].
func (c Clock) SetNext(t int64, tip uint32, now int64) (Clock, error) {
	switch {
	case t <= int64(tip):
		return c, fmt.Errorf("next block time %s is not after the tip's %s", formatTime(t), formatTime(int64(tip)))
	case t > MaxBlockTime:
		return c, fmt.Errorf("next block time %d is past the last a block can carry, %s", t, formatTime(MaxBlockTime))
	}
	return Clock{Skew: t - now, Next: uint32(t)}, nil
}

// CheckGenesisTime checks that t (Unix seconds) can stamp a genesis block:
// after 1970 and leaving room for later blocks before [MaxBlockTime].
func CheckGenesisTime(t int64) error {
	if t <= 0 || t >= MaxBlockTime {
		return fmt.Errorf("genesis time %d is out of range: want a time after %s and before %s", t, formatTime(0), formatTime(MaxBlockTime))
	}
	return nil
}

// formatTime shows Unix seconds t as RFC 3339 UTC.
func formatTime(t int64) string { return time.Unix(t, 0).UTC().Format(time.RFC3339) }
