//go:build linux

package main

import (
	"testing"
	"time"
)

// The ticker fires again and again, the periods it missed counted as one
// wait, and once stopped, waiting fails rather than blocks.
func TestTicker(t *testing.T) {
	tk, err := newTicker(time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for range 3 {
		if err := tk.wait(); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took < 2*time.Millisecond {
		t.Errorf("three ticks of 1ms came in %v", took)
	}
	tk.stop()
	if err := tk.wait(); err == nil {
		t.Error("a stopped ticker's wait: no error")
	}
}
