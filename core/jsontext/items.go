package jsontext

// Items iterates over the members of an object or the elements of an
// array, in text already known to be JSON, finding where each ends
// without decoding it. It is the one walker of members and elements that
// the readers of valid text share; its zero value has no items.
type Items[T string | []byte] struct {
	_      [0]func() // not comparable: no equality function to link
	s      T
	i      int // just past the opening bracket or the last value
	closer byte
	esc    bool // the last key read holds an escape
}

// NewItems starts iterating over the object or array whose opening
// bracket is s[i].
func NewItems[T string | []byte](s T, i int) Items[T] {
	it := Items[T]{s: s, i: i + 1, closer: ']'}
	if i < len(s) && s[i] == '{' {
		it.closer = '}'
	}
	return it
}

// Next returns the next member's key, as its quoted text, and value, or
// the next element with an empty key; ok is false after the last item.
// On text that is not JSON it stops where an item cannot be read, and
// never panics.
func (it *Items[T]) Next() (key, value T, ok bool) {
	s := it.s
	i := SkipSpace(s, it.i)
	if i < len(s) && s[i] == ',' {
		i = SkipSpace(s, i+1)
	}
	ok = i < len(s) && s[i] != it.closer
	if ok && it.closer == '}' {
		k := i + 1 // names are short and seldom escaped: a byte loop
		for k < len(s) && s[k] != '"' && s[k] != '\\' {
			k++
		}
		if it.esc = k < len(s) && s[k] == '\\'; it.esc {
			k = StringEnd(s, i)
		} else {
			k = min(k+1, len(s)) // past the quote, if there is one
		}
		key = s[i:k]
		ok = s[i] == '"'
		i = SkipSpace(s, k)
		ok = ok && i < len(s) && s[i] == ':'
		i = SkipSpace(s, i+1)
	}
	if !ok {
		it.i = len(s) // and so at the end from now on
		return key, value, false
	}
	end := End(s, i)
	it.i = max(end, i+1) // forward, even on text that is not JSON
	return key, s[i:end], true
}

// Escaped reports whether the key [Items.Next] returned last holds an
// escape, so that a caller unescapes only such keys, and the others by
// cutting off their quotes.
func (it *Items[T]) Escaped() bool { return it.esc }

// Checked iterates over the members of an object or the elements of an
// array in text not yet known to be JSON, checking each as [Scan] does, so
// that a caller checks and splits a container in one pass.
type Checked struct {
	s      scanner
	closer byte
	n      int // items read
	done   bool
}

// NewChecked starts iterating over the object or array that starts at
// b[i] (white space before it allowed); anything else is a syntax error.
func NewChecked(b []byte, i int) Checked {
	c := Checked{s: scanner{s: b, i: SkipSpace(b, i)}, closer: ']'}
	switch {
	case c.s.i < len(b) && b[c.s.i] == '{':
		c.closer = '}'
	case c.s.i < len(b) && b[c.s.i] == '[':
	default:
		c.s.fail("looking for beginning of object or array")
		c.done = true
		return c
	}
	c.done = !c.s.open()
	return c
}

// Next returns the next member's key, as its quoted text, and value, or
// the next element with a nil key; ok is false after the last item and on
// a syntax error, which [Checked.End] then reports.
func (c *Checked) Next() (key, value []byte, ok bool) {
	if c.done {
		return nil, nil, false
	}
	key, ok = c.s.next(c.closer, c.n == 0)
	if ok {
		start := SkipSpace(c.s.s, c.s.i)
		if c.s.value(); c.s.err == nil {
			c.n++
			return key, c.s.s[start:c.s.i], true
		}
	}
	c.done = true
	return nil, nil, false
}

// End returns, once [Checked.Next] has returned false, the offset just
// after the container and the first syntax error in it, if any.
func (c *Checked) End() (int, error) { return c.s.i, c.s.err }
