package mem

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/didlight/didlight/host/internal/store/internal/kv"
)

// model is what a tree should hold.
type model map[string]string

func (m model) sortedKeys() []string { return slices.Sorted(maps.Keys(m)) }

// checkTree fails t unless tr is a valid B-tree holding exactly m, and its
// cursor walks it correctly in both directions and seeks correctly.
func checkTree(t *testing.T, tr *tree, m model) {
	t.Helper()
	if err := checkNodes(tr.root, true, nil, nil); err != nil {
		t.Fatal(err)
	}
	keys := m.sortedKeys()
	c := &cursor{root: tr.root}
	var got []string
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if m[string(k)] != string(v) {
			t.Fatalf("key %x: value %q, want %q", k, v, m[string(k)])
		}
		got = append(got, string(k))
	}
	if !slices.Equal(got, keys) {
		t.Fatalf("forward walk: %d keys %q, want %d %q", len(got), got, len(keys), keys)
	}
	got = got[:0]
	for k, _ := c.Last(); k != nil; k, _ = c.Prev() {
		got = append(got, string(k))
	}
	slices.Reverse(got)
	if !slices.Equal(got, keys) {
		t.Fatalf("backward walk: %d keys, want %d", len(got), len(keys))
	}
	for _, k := range keys {
		if v, ok := tr.get([]byte(k)); !ok || string(v) != m[k] {
			t.Fatalf("get %x = %q, %v; want %q", k, v, ok, m[k])
		}
		// Seeking just below k lands on k; just above lands on its successor.
		below := k[:len(k)-1] + string([]byte{k[len(k)-1] - 1})
		if k[len(k)-1] > 0 {
			checkSeek(t, c, below, keys)
		}
		checkSeek(t, c, k+"\x00", keys)
	}
}

func checkSeek(t *testing.T, c *cursor, seek string, keys []string) {
	t.Helper()
	i, _ := slices.BinarySearch(keys, seek)
	k, _ := c.Seek([]byte(seek))
	if i == len(keys) {
		if k != nil {
			t.Fatalf("seek %x = %x, want the end", seek, k)
		}
		return
	}
	if string(k) != keys[i] {
		t.Fatalf("seek %x = %x, want %x", seek, k, keys[i])
	}
	// The cursor must be able to go on from where Seek left it.
	next, _ := c.Next()
	if i+1 < len(keys) && string(next) != keys[i+1] || i+1 == len(keys) && next != nil {
		t.Fatalf("next after seek %x = %x", seek, next)
	}
}

// checkNodes returns an error if the subtree of n breaks a B-tree rule:
// items in order and within (lo, hi), node sizes in bounds, all leaves at
// the same depth.
func checkNodes(n *node, root bool, lo, hi []byte) error {
	_, err := depth(n, root, lo, hi)
	return err
}

func depth(n *node, root bool, lo, hi []byte) (int, error) {
	if n == nil {
		if root {
			return 0, nil
		}
		return 0, fmt.Errorf("nil child")
	}
	if len(n.items) > maxItems || len(n.items) < 1 || !root && len(n.items) < minItems {
		return 0, fmt.Errorf("node with %d items (root %v)", len(n.items), root)
	}
	for i, it := range n.items {
		if lo != nil && bytes.Compare(it.key(), lo) <= 0 || hi != nil && bytes.Compare(it.key(), hi) >= 0 {
			return 0, fmt.Errorf("key %x outside (%x, %x)", it.key(), lo, hi)
		}
		if i > 0 && bytes.Compare(n.items[i-1].key(), it.key()) >= 0 {
			return 0, fmt.Errorf("keys %x, %x out of order", n.items[i-1].key(), it.key())
		}
	}
	if n.leaf() {
		return 1, nil
	}
	if len(n.kids) != len(n.items)+1 {
		return 0, fmt.Errorf("%d items with %d children", len(n.items), len(n.kids))
	}
	want := -1
	for i, kid := range n.kids {
		klo, khi := lo, hi
		if i > 0 {
			klo = n.items[i-1].key()
		}
		if i < len(n.items) {
			khi = n.items[i].key()
		}
		d, err := depth(kid, false, klo, khi)
		if err != nil {
			return 0, err
		}
		if want >= 0 && d != want {
			return 0, fmt.Errorf("leaves at depths %d and %d", want, d)
		}
		want = d
	}
	return want + 1, nil
}

// TestKeyHead: comparing heads never contradicts comparing keys, so a
// search may decide on heads alone whenever they differ.
func TestKeyHead(t *testing.T) {
	keys := []string{"\x00", "\x00\x00", "a", "a\x00", "a\x01", "abcdefgh", "abcdefgh\x00", "abcdefgi",
		"abcdefg", "\xff", "\xff\xff\xff\xff\xff\xff\xff\xff", "\xff\xff\xff\xff\xff\xff\xff\xff\x00", "\x01\x00\x00\x00\x00\x00\x00\x00\x00"}
	for _, a := range keys {
		for _, b := range keys {
			byHead := cmp.Compare(keyHead([]byte(a)), keyHead([]byte(b)))
			if byKey := bytes.Compare([]byte(a), []byte(b)); byHead != 0 && byHead != byKey {
				t.Errorf("%q vs %q: heads compare %d, keys %d", a, b, byHead, byKey)
			}
		}
	}
}

// version is a committed tree and what it held, kept to prove that later
// generations never change it.
type version struct {
	tr tree
	m  model
}

// run applies random puts and deletes over keySpace keys in generations of
// genSize operations, checking the tree after every generation and every
// old version at the end.
func run(t *testing.T, r *rand.Rand, ops, keySpace, genSize int) {
	var (
		tr       tree
		m        = model{}
		versions []version
		gen      uint64 = 1
	)
	for op := range ops {
		var kb [4]byte
		binary.BigEndian.PutUint32(kb[:], uint32(r.IntN(keySpace))+1)
		key := kb[:]
		if r.IntN(3) == 0 {
			tr.delete(gen, key)
			delete(m, string(key))
		} else {
			v := fmt.Sprint(op)
			tr.put(gen, kv.Joined(key, []byte(v)))
			m[string(key)] = v
		}
		if (op+1)%genSize == 0 {
			checkTree(t, &tr, m)
			versions = append(versions, version{tr, maps.Clone(m)})
			gen++
		}
	}
	for _, v := range versions {
		checkTree(t, &v.tr, v.m)
	}
}

func TestTreeRandom(t *testing.T) {
	cases := []struct {
		name                   string
		ops, keySpace, genSize int
	}{
		{"small keyspace, churn", 20000, 300, 500},
		{"grow and shrink deep tree", 40000, 20000, 8000},
		{"one op per generation", 1500, 400, 1},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run(t, rand.New(rand.NewPCG(uint64(i), 7)), c.ops, c.keySpace, c.genSize)
		})
	}
}

// TestTreeDrain fills a tree in order and deletes everything, from the front
// and from the back, so every borrow and merge case runs at every level.
func TestTreeDrain(t *testing.T) {
	const n = 20000
	for _, fromBack := range []bool{false, true} {
		var tr tree
		m := model{}
		for i := range n {
			k := binary.BigEndian.AppendUint32(nil, uint32(i))
			tr.put(1, kv.Joined(k, k))
			m[string(k)] = string(k)
		}
		full := tr
		for i := range n {
			j := i
			if fromBack {
				j = n - 1 - i
			}
			k := binary.BigEndian.AppendUint32(nil, uint32(j))
			tr.delete(2, k)
			delete(m, string(k))
			if i%1999 == 0 {
				checkTree(t, &tr, m)
			}
		}
		if tr.root != nil {
			t.Fatalf("drained tree has a root with %d items", len(tr.root.items))
		}
		if err := checkNodes(full.root, true, nil, nil); err != nil {
			t.Fatalf("generation 1 changed by deletes in generation 2: %v", err)
		}
	}
}

// FuzzTree applies the operations encoded in the input to a tree and a map,
// committing a generation every 16 operations, and checks they agree. Each
// operation is two bytes: the top bit of the first says delete, the other 15
// bits are the key.
func FuzzTree(f *testing.F) {
	f.Add([]byte{0, 1, 0, 2, 0x80, 1})
	var grow, shrink []byte
	for i := range 1000 {
		grow = binary.BigEndian.AppendUint16(grow, uint16(i*7%4096))
		shrink = binary.BigEndian.AppendUint16(shrink, uint16(i*11%4096)|0x8000)
	}
	f.Add(append(grow, shrink...))
	f.Fuzz(func(t *testing.T, ops []byte) {
		var tr tree
		m := model{}
		for i := 0; i+1 < len(ops); i += 2 {
			gen := uint64(i/32) + 1
			op := binary.BigEndian.Uint16(ops[i:])
			key := binary.BigEndian.AppendUint16(nil, op&0x7fff)
			if op&0x8000 != 0 {
				tr.delete(gen, key)
				delete(m, string(key))
			} else {
				tr.put(gen, kv.Joined(key, []byte{byte(i)}))
				m[string(key)] = string([]byte{byte(i)})
			}
		}
		checkTree(t, &tr, m)
	})
}

// TestItemPair: an item gives back its key and value as put, an empty value
// as a non-nil empty slice, and a key that an append cannot grow into the
// value.
func TestItemPair(t *testing.T) {
	for i, c := range []struct{ key, value string }{
		{"k", "value"},
		{"key", ""},
		{"a longer key than eight bytes", "v"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			it := item{keyHead([]byte(c.key)), kv.Joined([]byte(c.key), []byte(c.value))}
			k, v := it.key(), it.value()
			if string(k) != c.key || string(v) != c.value || v == nil {
				t.Errorf("put %q=%q, got %q=%q (nil value %v)", c.key, c.value, k, v, v == nil)
			}
			if cap(k) != len(k) {
				t.Errorf("key %q has capacity %d past its length %d", c.key, cap(k), len(k))
			}
			_ = append(k, 'x')
			if string(it.value()) != c.value {
				t.Errorf("appending to key %q changed its value to %q", c.key, it.value())
			}
		})
	}
}
