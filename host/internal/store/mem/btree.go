package mem

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
)

// Node sizes of the B-tree. A node holds between minItems and maxItems items
// (the root may hold fewer). At a million keys, degrees from 16 to 64
// measured alike for reads; 16 keeps the node a put copies near 1 KiB (31
// items of 32 bytes), which puts and the collector pay for.
const (
	degree   = 16
	maxItems = 2*degree - 1
	minItems = degree - 1
)

// tree is one bucket's contents: a copy-on-write B-tree plus the bucket's
// sequence counter. Every node records the generation (one per Update) that
// made it. An Update changes its own nodes in place and copies any other node
// before changing it, so the nodes of a committed tree never change and
// readers share them without locks.
type tree struct {
	root *node // nil when empty
	seq  uint64
}

type node struct {
	gen   uint64
	items []item  // in ascending key order
	kids  []*node // empty in a leaf; else len(items)+1 subtrees
}

// item is a key and its value. head holds the key's first 8 bytes (zero
// padded), so most comparisons in a search need not load the key itself:
// at a million keys those loads are cache misses that dominate a lookup.
// kv is the key, with the value after it up to kv's capacity (kv.Joined):
// one slice header for both makes an item 32 bytes rather than 56, and the
// nodes an Update copies smaller by as much.
type item struct {
	head uint64
	kv   []byte
}

// key returns the item's key, capped so that no append reaches the value.
func (it item) key() []byte { return it.kv[:len(it.kv):len(it.kv)] }

// value returns the item's value: never nil, empty or not.
func (it item) value() []byte { return it.kv[len(it.kv):cap(it.kv)] }

// keyHead returns the first 8 bytes of key, big-endian, zero padded. Keys
// whose heads differ are ordered as their heads.
func keyHead(key []byte) uint64 {
	var b [8]byte
	copy(b[:], key)
	return binary.BigEndian.Uint64(b[:])
}

func (n *node) leaf() bool { return len(n.kids) == 0 }

// find returns the index of key in n's items, or where it would go.
func (n *node) find(key []byte) (int, bool) {
	head := keyHead(key)
	return slices.BinarySearchFunc(n.items, key, func(it item, key []byte) int {
		if c := cmp.Compare(it.head, head); c != 0 {
			return c
		}
		return bytes.Compare(it.kv, key)
	})
}

// mutable returns n itself if generation gen made it, else a copy made by gen.
func (n *node) mutable(gen uint64) *node {
	if n.gen == gen {
		return n
	}
	// Room for the item (and child) an insert or a borrow adds.
	c := &node{gen: gen, items: append(make([]item, 0, len(n.items)+1), n.items...)}
	if !n.leaf() {
		c.kids = append(make([]*node, 0, len(n.kids)+1), n.kids...)
	}
	return c
}

func (t *tree) get(key []byte) ([]byte, bool) {
	for n := t.root; n != nil; {
		i, found := n.find(key)
		if found {
			return n.items[i].value(), true
		}
		if n.leaf() {
			break
		}
		n = n.kids[i]
	}
	return nil, false
}

// put stores the pair kv (a key with its value up to kv's capacity, which
// the tree then owns) in generation gen. Full nodes are split on the way
// down, so there is always room below.
func (t *tree) put(gen uint64, kv []byte) {
	key := kv // kv's length is the key's
	it := item{keyHead(key), kv}
	if t.root == nil {
		t.root = &node{gen: gen, items: []item{it}}
		return
	}
	n := t.root.mutable(gen)
	if len(n.items) == maxItems {
		mid, right := n.split(gen)
		n = &node{gen: gen, items: []item{mid}, kids: []*node{n, right}}
	}
	t.root = n
	for {
		i, found := n.find(key)
		if found {
			n.items[i] = it
			return
		}
		if n.leaf() {
			n.items = slices.Insert(room(n.items, maxItems), i, it)
			return
		}
		child := n.own(gen, i)
		if len(child.items) == maxItems {
			mid, right := child.split(gen)
			n.items = slices.Insert(room(n.items, maxItems), i, mid)
			n.kids = slices.Insert(room(n.kids, maxItems+1), i+1, right)
			switch c := bytes.Compare(key, mid.kv); {
			case c == 0:
				n.items[i] = it
				return
			case c > 0:
				child = right
			}
		}
		n = child
	}
}

// room returns s if it has room for one more element, else a copy with room
// for limit, the most a node holds: a node that one Update inserts into again
// and again (the keys appended at a bucket's end) grows once, not by doubling
// past what it can hold.
func room[T any](s []T, limit int) []T {
	if len(s) < cap(s) {
		return s
	}
	return append(make([]T, 0, limit), s...)
}

// split moves the upper half of the full node n (made by gen) into a new
// node and returns the middle item that separates them.
func (n *node) split(gen uint64) (item, *node) {
	const i = maxItems / 2
	mid := n.items[i]
	right := &node{gen: gen, items: slices.Clone(n.items[i+1:])}
	clear(n.items[i:])
	n.items = n.items[:i]
	if !n.leaf() {
		right.kids = slices.Clone(n.kids[i+1:])
		clear(n.kids[i+1:])
		n.kids = n.kids[:i+1]
	}
	return mid, right
}

// delete removes key, if present, in generation gen.
func (t *tree) delete(gen uint64, key []byte) {
	if _, ok := t.get(key); !ok {
		return // leave the shared nodes alone
	}
	n := t.root.mutable(gen)
	n.remove(gen, key)
	switch {
	case len(n.items) > 0:
		t.root = n
	case n.leaf():
		t.root = nil
	default:
		t.root = n.kids[0] // the root's last two children merged
	}
}

// remove deletes key, which is present, from the subtree of n (made by gen).
// Before descending into a child it makes sure the child can lose an item.
func (n *node) remove(gen uint64, key []byte) {
	for {
		i, found := n.find(key)
		if n.leaf() {
			n.items = slices.Delete(n.items, i, i+1)
			return
		}
		if len(n.kids[i].items) <= minItems {
			n.grow(gen, i)
			continue // items moved between n and its children; look again
		}
		child := n.own(gen, i)
		if found {
			n.items[i] = child.removeMax(gen) // the predecessor takes its place
			return
		}
		n = child
	}
}

// removeMax deletes and returns the greatest item under n (made by gen).
func (n *node) removeMax(gen uint64) item {
	for {
		if n.leaf() {
			last := n.items[len(n.items)-1]
			n.items = slices.Delete(n.items, len(n.items)-1, len(n.items))
			return last
		}
		i := len(n.kids) - 1
		if len(n.kids[i].items) <= minItems {
			n.grow(gen, i)
			continue
		}
		child := n.own(gen, i)
		n = child
	}
}

// grow gives child i of n (made by gen) more than minItems items: it borrows
// one through n from a sibling that can spare one, or else merges the child
// with a sibling and the item between them.
func (n *node) grow(gen uint64, i int) {
	switch {
	case i > 0 && len(n.kids[i-1].items) > minItems:
		left, child := n.own(gen, i-1), n.own(gen, i)
		last := len(left.items) - 1
		child.items = slices.Insert(child.items, 0, n.items[i-1])
		n.items[i-1] = left.items[last]
		left.items = slices.Delete(left.items, last, last+1)
		if !left.leaf() {
			child.kids = slices.Insert(child.kids, 0, left.kids[last+1])
			left.kids = slices.Delete(left.kids, last+1, last+2)
		}
	case i < len(n.items) && len(n.kids[i+1].items) > minItems:
		child, right := n.own(gen, i), n.own(gen, i+1)
		child.items = append(child.items, n.items[i])
		n.items[i] = right.items[0]
		right.items = slices.Delete(right.items, 0, 1)
		if !right.leaf() {
			child.kids = append(child.kids, right.kids[0])
			right.kids = slices.Delete(right.kids, 0, 1)
		}
	default:
		if i == len(n.items) {
			i-- // the last child merges with its left sibling
		}
		child, right := n.own(gen, i), n.kids[i+1]
		child.items = append(child.items, n.items[i])
		child.items = append(child.items, right.items...)
		child.kids = append(child.kids, right.kids...)
		n.items = slices.Delete(n.items, i, i+1)
		n.kids = slices.Delete(n.kids, i+1, i+2)
	}
}

// own makes child i of n (made by gen) a node of gen too, and returns it.
func (n *node) own(gen uint64, i int) *node {
	n.kids[i] = n.kids[i].mutable(gen)
	return n.kids[i]
}
