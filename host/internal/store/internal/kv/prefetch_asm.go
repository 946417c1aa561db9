//go:build amd64 || arm64

package kv

// prefetchLines issues a prefetch of each 64-byte cache line b starts in
// or covers (prefetch_$GOARCH.s). A prefetch never faults and changes
// nothing a program can observe but time.
//
//go:noescape
func prefetchLines(b []byte)
