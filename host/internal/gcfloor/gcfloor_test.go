package gcfloor

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	const mb = 1 << 20
	for i, c := range []struct {
		floor, live uint64
		base, want  int
	}{
		{64 * mb, 8 * mb, 100, 800},
		{64 * mb, 64 * mb, 100, 100},
		{64 * mb, 32 * mb, 100, 200},
		{64 * mb, 128 * mb, 100, 100},
		{64 * mb, 128 * mb, 300, 300},
		{64 * mb, 4 * mb, 100, 1600},
		{64 * mb, 2 * mb, 100, 1600},
		{64 * mb, 0, 100, 1600},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := percent(c.floor, c.live, c.base); got != c.want {
				t.Errorf("percent(%d MB, %d bytes, %d) = %d, want %d", c.floor/mb, c.live, c.base, got, c.want)
			}
		})
	}
}

// gogc is the GOGC percent in force.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// live is the live heap the last collection found.
func live() uint64 {
	s := []metrics.Sample{{Name: liveMetric}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Start sets the percent for the heap live now; after each collection the
// percent follows the live heap; stop restores the percent of before.
func TestStart(t *testing.T) {
	const floor = 32 << 20
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	runtime.GC()
	stop := Start(floor)
	if got, want := gogc(), percent(floor, live(), 100); got != want {
		t.Errorf("after Start: GOGC %d, want %d", got, want)
	}
	// A second floor, while the first runs, does nothing.
	Start(1 << 30)()
	if got, want := gogc(), percent(floor, live(), 100); got != want {
		t.Errorf("after a second Start and stop: GOGC %d, want %d", got, want)
	}
	// A heap that grows past the floor brings the percent down to GOGC's,
	// once a collection has found it live.
	held := make([][]byte, 8)
	for i := range held {
		held[i] = make([]byte, 8<<20)
	}
	for deadline := time.Now().Add(10 * time.Second); gogc() != 100 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := gogc(); got != 100 {
		t.Errorf("with %d MB live: GOGC %d, want 100", live()>>20, got)
	}
	runtime.KeepAlive(held)
	held = nil
	runtime.GC()
	for deadline := time.Now().Add(10 * time.Second); gogc() == 100 && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got := gogc(); got <= 100 {
		t.Errorf("with %d MB live again: GOGC %d, want more than 100", live()>>20, got)
	}
	stop()
	if got := gogc(); got != 100 {
		t.Errorf("after stop: GOGC %d, want 100", got)
	}
}
