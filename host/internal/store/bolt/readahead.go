package bolt

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"slices"
	"sync"
)

// The page layout of a bbolt file (go.etcd.io/bbolt internal/common/page.go,
// v1.5.0), in the machine's byte order: a page starts with a 16-byte header
// (id uint64, flags uint16, count uint16, overflow uint32: the pages that
// follow it as part of it); a branch page's header is followed by count
// 16-byte elements (pos uint32, the key's offset from the element; ksize
// uint32; the child's page id uint64).
const (
	pageHeaderSize = 16
	branchElemSize = 16
	branchFlag     = 0x01
	leafFlag       = 0x02
)

// leaf is a leaf page of a bucket and the smallest key it may hold.
type leaf struct {
	id    uint64
	first []byte
}

// leaves returns the leaf pages of the B+tree at page root of the store
// file f, in key order. It reads the branch pages and the first leaf of
// each branch (all of a branch's children are of one kind). A file that
// does not read as such a tree gives an error, never a panic.
func leaves(f io.ReaderAt, pageSize int, root uint64) ([]leaf, error) {
	var out []leaf
	seen := map[uint64]bool{} // branch pages, each read once
	var walk func(id uint64, first []byte) error
	walk = func(id uint64, first []byte) error {
		if seen[id] {
			return fmt.Errorf("page %d: in the tree twice", id)
		}
		seen[id] = true
		p, err := readPage(f, pageSize, id)
		if err != nil {
			return err
		}
		flags := binary.NativeEndian.Uint16(p[8:])
		switch {
		case flags == leafFlag:
			out = append(out, leaf{id, first})
			return nil
		case flags != branchFlag:
			return fmt.Errorf("page %d: flags %#x, not a branch or leaf page", id, flags)
		}
		children, err := branchChildren(p, id)
		if err != nil {
			return err
		}
		if len(children) == 0 {
			return nil
		}
		if q, err := readPage(f, pageSize, children[0].id); err != nil {
			return err
		} else if binary.NativeEndian.Uint16(q[8:]) == leafFlag {
			out = append(out, children...)
			return nil
		}
		for _, c := range children {
			if err := walk(c.id, c.first); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(root, nil)
}

// branchChildren returns the children of branch page p, numbered id.
func branchChildren(p []byte, id uint64) ([]leaf, error) {
	count := int(binary.NativeEndian.Uint16(p[10:]))
	if pageHeaderSize+count*branchElemSize > len(p) {
		return nil, fmt.Errorf("page %d: %d elements do not fit in %d bytes", id, count, len(p))
	}
	children := make([]leaf, count)
	for i := range children {
		at := pageHeaderSize + i*branchElemSize
		e := p[at:]
		pos, size := int(binary.NativeEndian.Uint32(e)), int(binary.NativeEndian.Uint32(e[4:]))
		if pos > len(e) || size > len(e)-pos {
			return nil, fmt.Errorf("page %d: key %d (%d bytes at %d) is past the page's end", id, i, size, pos)
		}
		children[i] = leaf{binary.NativeEndian.Uint64(e[8:]), bytes.Clone(e[pos : pos+size])}
	}
	return children, nil
}

// maxTreePage bounds the pages, overflow included, of a branch page
// leaves reads: bbolt's branch pages hold keys, and a store's keys are short.
const maxTreePage = 256

// readPage reads page id of f, of at most maxTreePage pages.
func readPage(f io.ReaderAt, pageSize int, id uint64) ([]byte, error) {
	p := make([]byte, pageSize)
	over, err := readPageHead(f, p, id)
	if err != nil || over == 0 {
		return p, err
	}
	if over >= maxTreePage {
		return nil, fmt.Errorf("page %d: %d overflow pages, want fewer than %d", id, over, maxTreePage)
	}
	p = append(p, make([]byte, over*pageSize)...)
	return p, readAt(f, p[pageSize:], id+1, pageSize)
}

// readPageHead reads page id of f, without its overflow, into p (a page's
// size) and returns how many overflow pages follow it.
func readPageHead(f io.ReaderAt, p []byte, id uint64) (int, error) {
	if err := readAt(f, p, id, len(p)); err != nil {
		return 0, err
	}
	if got := binary.NativeEndian.Uint64(p); got != id {
		return 0, fmt.Errorf("page %d: its header says page %d", id, got)
	}
	return int(binary.NativeEndian.Uint32(p[12:])), nil
}

// touch reads page id of f with its overflow pages, a buf at a time (buf
// is at least a page), for the page cache to hold them.
func touch(f io.ReaderAt, buf []byte, pageSize int, id uint64) error {
	over, err := readPageHead(f, buf[:pageSize], id)
	for next := id + 1; err == nil && over > 0; {
		n := min(over, len(buf)/pageSize)
		err = readAt(f, buf[:n*pageSize], next, pageSize)
		next, over = next+uint64(n), over-n
	}
	return err
}

// readAt fills p from page id of f on.
func readAt(f io.ReaderAt, p []byte, id uint64, pageSize int) error {
	if id > 1<<40 {
		return fmt.Errorf("page %d: past any file", id)
	}
	if _, err := f.ReadAt(p, int64(id)*int64(pageSize)); err != nil {
		return fmt.Errorf("page %d: %w", id, err)
	}
	return nil
}

// Prefetching: a copy reads a bucket in key order, and a bucket written
// block by block has its pages all over the file, so a copy of a store
// larger than the page cache waits on one random read after another. A
// prefetcher reads the pages of the next segments of the bucket first, in
// file order and on several goroutines at once, into the page cache.
const (
	segmentLeaves   = 16384   // leaf pages per segment: 64 MiB and their overflow
	segmentsAhead   = 2       // segments read ahead of the one being copied
	prefetchReaders = 16      // reads in flight at once
	touchBuffer     = 1 << 20 // bytes of overflow pages read at once
)

// prefetcher reads the segments of a bucket's leaves ahead of its copy.
// The copier owns at and reports it through advance; mu guards at and
// stop, which the prefetching goroutine only reads.
type prefetcher struct {
	f        io.ReaderAt
	pageSize int
	segments [][]leaf // in key order

	mu   sync.Mutex
	cond sync.Cond
	at   int  // the segment being copied
	stop bool // the copy is over
	done sync.WaitGroup
}

// startPrefetch starts reading the leaves of the bucket at page root of f,
// in segments of perSegment leaves, ahead of the copy; a tree it cannot
// read is only not prefetched (the copy reads it through bbolt).
func startPrefetch(f io.ReaderAt, pageSize int, root uint64, perSegment int) *prefetcher {
	p := &prefetcher{f: f, pageSize: pageSize}
	p.cond.L = &p.mu
	if root == 0 { // an inline bucket: no pages of its own
		return p
	}
	all, err := leaves(f, pageSize, root)
	if err != nil {
		return p
	}
	for s := range slices.Chunk(all, perSegment) {
		p.segments = append(p.segments, s)
	}
	p.done.Go(p.run)
	return p
}

// segmentAt returns the segment that holds key k, from segment i on.
func (p *prefetcher) segmentAt(i int, k []byte) int {
	for i+1 < len(p.segments) && bytes.Compare(k, p.segments[i+1][0].first) >= 0 {
		i++
	}
	return i
}

// advance says the copy has reached segment i.
func (p *prefetcher) advance(i int) {
	p.mu.Lock()
	if i != p.at {
		p.at = i
		p.cond.Broadcast()
	}
	p.mu.Unlock()
}

// close stops the prefetching and waits for it.
func (p *prefetcher) close() {
	p.mu.Lock()
	p.stop = true
	p.cond.Broadcast()
	p.mu.Unlock()
	p.done.Wait()
}

// run reads each segment, once the copy is close enough to it.
func (p *prefetcher) run() {
	for i, seg := range p.segments {
		p.mu.Lock()
		for !p.stop && i > p.at+segmentsAhead {
			p.cond.Wait()
		}
		stop, passed := p.stop, i < p.at
		p.mu.Unlock()
		switch {
		case stop:
			return
		case !passed:
			p.read(seg)
		}
	}
}

// read reads the pages of seg in file order, prefetchReaders at a time.
func (p *prefetcher) read(seg []leaf) {
	ids := make([]uint64, len(seg))
	for i, l := range seg {
		ids[i] = l.id
	}
	slices.Sort(ids)
	next := make(chan uint64)
	var wg sync.WaitGroup
	for range prefetchReaders {
		wg.Go(func() {
			buf := make([]byte, max(p.pageSize, touchBuffer))
			for id := range next {
				touch(p.f, buf, p.pageSize, id) // a hint: an error only leaves pages unread
			}
		})
	}
	for _, id := range ids {
		next <- id
	}
	close(next)
	wg.Wait()
}
