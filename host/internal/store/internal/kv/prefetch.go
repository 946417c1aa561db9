package kv

// prefetchBytes bounds what prefetch asks for of one value: a view is 0.5
// to 4 KB, and the rest of a larger value may never be read.
const prefetchBytes = 4096

// prefetch asks the processor to bring the first prefetchBytes of b into
// its caches and goes on without waiting for them. A scan prefetches the
// pair after the one it yields: the caller's reads of each key and value
// would otherwise each wait on memory in turn (a store's pages are mostly
// not in the caches), while with it the fetches of the next pair's lines
// overlap the caller's work on this one.
func prefetch(b []byte) {
	prefetchLines(b[:min(len(b), prefetchBytes)])
}
