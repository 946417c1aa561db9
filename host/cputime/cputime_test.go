package cputime

import (
	"testing"
	"time"
)

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
	x := 0
	for deadline := time.Now().Add(50 * time.Millisecond); time.Now().Before(deadline); {
		x++
	}
	worked, _ := Process()
	if slept-before > 30*time.Millisecond {
		t.Errorf("sleeping 50ms counted %v of CPU time", slept-before)
	}
	if worked-slept < 10*time.Millisecond {
		t.Errorf("50ms of busy work counted only %v of CPU time (%d loops)", worked-slept, x)
	}
}
