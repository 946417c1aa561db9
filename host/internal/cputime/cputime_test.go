package cputime

import (
	"crypto/sha256"
	"testing"
	"time"
)

// The busy work is a fixed amount of computation, not a stretch of wall
// time: on a loaded machine a 50 ms busy loop may get only a few ms of a
// core, while hashing 64 MiB costs the same CPU time however loaded the
// machine is (tens of ms on any current core).
func TestProcessCountsWorkNotSleep(t *testing.T) {
	before, ok := Process()
	time.Sleep(50 * time.Millisecond)
	slept, _ := Process()
	if !ok { // wall time since load is the fallback
		if slept-before < 50*time.Millisecond {
			t.Errorf("fallback clock advanced %v over a 50ms sleep", slept-before)
		}
		return
	}
	block := make([]byte, 1<<20)
	var sum [32]byte
	for range 64 {
		sum = sha256.Sum256(append(block[:len(block)-32], sum[:]...))
	}
	worked, _ := Process()
	if slept-before > 30*time.Millisecond {
		t.Errorf("sleeping 50ms counted %v of CPU time", slept-before)
	}
	if worked-slept < 2*time.Millisecond {
		t.Errorf("hashing 64 MiB counted only %v of CPU time (%x)", worked-slept, sum[:4])
	}
}
