//go:build !unix

package cputime

import "time"

func process() (time.Duration, bool) { return time.Since(loaded), false }
