//go:build !amd64 && !arm64

package kv

// prefetchLines does nothing here: Go has no portable prefetch, and a
// scan is only slower without one.
func prefetchLines([]byte) {}
