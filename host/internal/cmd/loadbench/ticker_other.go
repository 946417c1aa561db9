//go:build !linux

package main

import (
	"errors"
	"time"
)

// ticker is Linux's timerfd (ticker.go); elsewhere the open loop does not
// run.
type ticker struct{}

func newTicker(time.Duration) (*ticker, error) {
	return nil, errors.New("the open loop's generator needs Linux (timerfd)")
}

func (*ticker) wait() error { return nil }
func (*ticker) stop()       {}
