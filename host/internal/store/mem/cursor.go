package mem

// cursor walks a tree in key order; it implements kv.Cursor. The top frame
// of its stack holds the current item; each frame below holds a node and the
// index of the child the path continues into, so that node's next item is
// items[i] and its previous one items[i-1]. An empty stack means the cursor
// is past either end.
type cursor struct {
	root  *node
	stack []frame
}

type frame struct {
	n *node
	i int
}

func (c *cursor) First() (key, value []byte) {
	c.stack = c.stack[:0]
	return c.descend(c.root, false)
}

func (c *cursor) Last() (key, value []byte) {
	c.stack = c.stack[:0]
	return c.descend(c.root, true)
}

// Seek moves to the first key >= key.
func (c *cursor) Seek(key []byte) (key2, value []byte) {
	c.stack = c.stack[:0]
	n := c.root
	for n != nil {
		i, found := n.find(key)
		c.stack = append(c.stack, frame{n, i})
		switch {
		case found:
			return c.current()
		case !n.leaf():
			n = n.kids[i]
		case i < len(n.items):
			return c.current()
		default:
			return c.ascend()
		}
	}
	return nil, nil
}

func (c *cursor) Next() (key, value []byte) {
	if len(c.stack) == 0 {
		return nil, nil
	}
	f := &c.stack[len(c.stack)-1]
	switch {
	case !f.n.leaf():
		f.i++
		return c.descend(f.n.kids[f.i], false)
	case f.i+1 < len(f.n.items):
		f.i++
		return c.current()
	}
	return c.ascend()
}

func (c *cursor) Prev() (key, value []byte) {
	if len(c.stack) == 0 {
		return nil, nil
	}
	f := &c.stack[len(c.stack)-1]
	switch {
	case !f.n.leaf():
		return c.descend(f.n.kids[f.i], true)
	case f.i > 0:
		f.i--
		return c.current()
	}
	return c.ascendBack()
}

// descend pushes the path from n down to its first (or last) item, and
// returns that item.
func (c *cursor) descend(n *node, last bool) (key, value []byte) {
	if n == nil {
		return nil, nil
	}
	for !n.leaf() {
		i := 0
		if last {
			i = len(n.kids) - 1
		}
		c.stack = append(c.stack, frame{n, i})
		n = n.kids[i]
	}
	i := 0
	if last {
		i = len(n.items) - 1
	}
	c.stack = append(c.stack, frame{n, i})
	return c.current()
}

// ascend leaves the current leaf forwards: it pops frames until one has an
// item after the child the path went through, and moves there.
func (c *cursor) ascend() (key, value []byte) {
	for c.stack = c.stack[:len(c.stack)-1]; len(c.stack) > 0; c.stack = c.stack[:len(c.stack)-1] {
		if f := c.stack[len(c.stack)-1]; f.i < len(f.n.items) {
			return c.current()
		}
	}
	return nil, nil
}

// ascendBack leaves the current leaf backwards: it pops frames until one has
// an item before the child the path went through, and moves there.
func (c *cursor) ascendBack() (key, value []byte) {
	for c.stack = c.stack[:len(c.stack)-1]; len(c.stack) > 0; c.stack = c.stack[:len(c.stack)-1] {
		if f := &c.stack[len(c.stack)-1]; f.i > 0 {
			f.i--
			return c.current()
		}
	}
	return nil, nil
}

func (c *cursor) current() (key, value []byte) {
	f := c.stack[len(c.stack)-1]
	it := f.n.items[f.i]
	return it.key(), it.value()
}
