package ledger

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestClockBlockTime(t *testing.T) {
	const now = 1_800_000_000
	for _, c := range []struct {
		name  string
		clock Clock
		prev  uint32
		want  uint32
	}{
		{"the wall clock", Clock{}, 1_700_000_000, now},
		{"a chain begun in the past", StartAt(1_600_000_000, now-10), 1_600_000_005, 1_600_000_010},
		{"a lead", Clock{Skew: 3600}, 1_700_000_000, now + 3600},
		{"never at or before the tip", Clock{Skew: -100}, now, now + 1},
		{"a pinned time", Clock{Skew: -5, Next: 1_750_000_000}, 1_700_000_000, 1_750_000_000},
		{"a pinned time the tip passed", Clock{Next: 1_750_000_000}, 1_760_000_000, 1_760_000_001},
		{"at most MaxBlockTime", Clock{Skew: MaxBlockTime}, 1, MaxBlockTime},
		{"MaxBlockTime after it", Clock{}, MaxBlockTime, MaxBlockTime},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := c.clock.BlockTime(c.prev, now); got != c.want {
				t.Errorf("%s: %+v.BlockTime(%d, %d) = %d, want %d", c.name, c.clock, c.prev, now, got, c.want)
			}
		})
	}
}

func TestClockMined(t *testing.T) {
	free := Clock{Skew: -77}
	if got := free.Mined(1_700_000_000, 1_800_000_000); got != free {
		t.Errorf("an unpinned clock after a block: %+v, want it unchanged", got)
	}
	pinned := Clock{Skew: -5, Next: 1_750_000_000}
	got := pinned.Mined(1_750_000_000, 1_800_000_000)
	if want := (Clock{Skew: 1_750_000_000 - 1_800_000_000}); got != want {
		t.Errorf("a pinned clock after its block: %+v, want %+v", got, want)
	}
	if r := got.Read(1_800_000_030); r != 1_750_000_030 {
		t.Errorf("30 s after the pinned block the clock reads %d, want 1750000030", r)
	}
}

func TestClockAdvance(t *testing.T) {
	const now = 1_800_000_000
	for _, c := range []struct {
		name  string
		clock Clock
		d     time.Duration
		want  Clock
		err   string
	}{
		{"a day", Clock{Skew: -10}, 24 * time.Hour, Clock{Skew: 86390}, ""},
		{"a pinned time moves too", Clock{Skew: -10, Next: 1_750_000_000}, time.Hour, Clock{Skew: 3590, Next: 1_750_003_600}, ""},
		{"less than a second", Clock{}, time.Millisecond, Clock{}, "want whole seconds"},
		{"a fraction", Clock{}, 1500 * time.Millisecond, Clock{}, "want whole seconds"},
		{"negative", Clock{}, -time.Second, Clock{}, "want whole seconds"},
		{"past 2106", Clock{}, 100 * 365 * 24 * time.Hour, Clock{}, "would pass 2106-02-07T06:28:15Z"},
		{"huge", Clock{}, time.Duration(1 << 62).Truncate(time.Second), Clock{}, "would pass"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.clock.Advance(c.d, now)
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Errorf("%s: Advance(%s) = %+v, %v; want an error containing %q", c.name, c.d, got, err, c.err)
			case c.err == "" && (err != nil || got != c.want):
				t.Errorf("%s: Advance(%s) = %+v, %v; want %+v", c.name, c.d, got, err, c.want)
			case c.err != "" && got != c.clock:
				t.Errorf("%s: a refused Advance returned %+v, want the clock unchanged", c.name, got)
			}
		})
	}
}

func TestClockSetNext(t *testing.T) {
	const now, tip = 1_800_000_000, 1_700_000_000
	got, err := Clock{Skew: 9}.SetNext(tip+1, tip, now)
	if want := (Clock{Skew: tip + 1 - now, Next: tip + 1}); err != nil || got != want {
		t.Errorf("SetNext(tip+1) = %+v, %v; want %+v", got, err, want)
	}
	for i, c := range []struct {
		t    int64
		want string
	}{
		{tip, "next block time 2023-11-14T22:13:20Z is not after the tip's 2023-11-14T22:13:20Z"},
		{tip - 1, "is not after the tip's"},
		{-1, "is not after the tip's"},
		{MaxBlockTime + 1, "next block time 4294967296 is past the last a block can carry, 2106-02-07T06:28:15Z"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, err := Clock{Skew: 9}.SetNext(c.t, tip, now)
			if err == nil || !strings.Contains(err.Error(), c.want) || got != (Clock{Skew: 9}) {
				t.Errorf("SetNext(%d) = %+v, %v; want the clock unchanged and an error containing %q", c.t, got, err, c.want)
			}
		})
	}
}

func TestCheckGenesisTime(t *testing.T) {
	for i, c := range []struct {
		t  int64
		ok bool
	}{{1, true}, {1_748_736_000, true}, {MaxBlockTime - 1, true}, {0, false}, {-86400, false}, {MaxBlockTime, false}, {1 << 40, false}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			err := CheckGenesisTime(c.t)
			if (err == nil) != c.ok {
				t.Errorf("CheckGenesisTime(%d) = %v, want ok %v", c.t, err, c.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "want a time after 1970-01-01T00:00:00Z and before 2106-02-07T06:28:15Z") {
				t.Errorf("CheckGenesisTime(%d) = %v: the error does not say the range", c.t, err)
			}
		})
	}
}

func TestClockRewound(t *testing.T) {
	for _, c := range []Clock{{}, {Skew: -86400}, {Skew: 5, Next: 1_750_000_000}} {
		got := c.Rewound(1_800_000_000, 1_800_000_600)
		if got.Read(1_800_000_600) != c.Read(1_800_000_000) || got.Next != c.Next {
			t.Errorf("%+v rewound 600 s: %+v reads %d, want %d", c, got, got.Read(1_800_000_600), c.Read(1_800_000_000))
		}
	}
}
