package find

import (
	"slices"
	"strings"
	"unsafe"
)

// Limits of what an Index posts: longer strings get no posting of their
// own value (the path's presence is still posted), and longer member names
// no posting at all.
const (
	MaxPostedValue = 64  // bytes of a string value
	MaxPostedName  = 128 // bytes of a member name under an Index's Members path
)

// Index describes the postings a document store keeps so that a
// condition's Plan can find documents without reading them all. For each
// indexed path it posts every scalar value the path reaches in a document,
// read as the matcher reads paths (through arrays, the elements of an array
// the path ends at included), and the path's presence (a value, null
// included, reached: what $exists: true asks).
type Index struct {
	// Paths are indexed paths, such as "service.type".
	Paths []string
	// Members are paths reaching objects whose members are indexed by
	// name: "credential.subject" indexes "credential.subject.email" for
	// every document with such a member. A name is indexed if it could be
	// one step of a path: not empty, without a dot, not led by $, not an
	// array position, at most MaxPostedName bytes.
	Members []string
}

// Posting is one index entry of a document: Path holds Value (a string of
// at most MaxPostedValue bytes, a float64 or a bool), or with a nil Value
// Path is present.
type Posting struct {
	Path  string
	Value any
}

// Postings returns the postings of the JSON document doc (valid JSON, as
// for Match), each once, in a deterministic order.
func (ix *Index) Postings(doc []byte) []Posting {
	return ix.postings(elem{raw: strings.TrimLeft(unsafe.String(unsafe.SliceData(doc), len(doc)), " \t\r\n")})
}

// EncodedPostings returns the postings of a document in encoded form
// (Encode), as Postings does of its JSON text; none for bytes that are
// not an encoded form.
func (ix *Index) EncodedPostings(form []byte) []Posting {
	head, root, ok := encRoot(form)
	if !ok {
		return nil
	}
	return ix.postings(elem{raw: root, enc: head})
}

func (ix *Index) postings(root elem) []Posting {
	c := &postingCollector{out: make([]Posting, 0, 16)}
	for _, path := range ix.Paths {
		c.collect(root, path)
	}
	for _, path := range ix.Members {
		var names []string
		reach(root, path, func(e elem) {
			if e.kind() == kindObject {
				e.each(func(name string, _ elem) bool {
					if postedName(name) && !slices.Contains(names, name) {
						names = append(names, name)
					}
					return false
				})
			}
		})
		for _, name := range names {
			c.collect(root, path+"."+name)
		}
	}
	return c.out
}

// postingCollector gathers a document's postings path by path: walk
// hands it, as the matcher, every value the path reaches. One serves a
// whole document, so that a path's walk allocates no state of its own.
type postingCollector struct {
	out     []Posting
	path    string // the path collected
	start   int    // where its postings begin in out
	present bool   // whether it reached a value
}

// collect appends the postings of one path.
func (c *postingCollector) collect(root elem, path string) {
	c.path, c.start, c.present = path, len(c.out), false
	walk(root, splitPath(path), endElems|endArray, c)
	if c.present {
		c.out = append(c.out, Posting{Path: path})
	}
}

// match posts the scalar e holds, once per path, and notes the path's
// presence; it matches nothing, so that walk visits every value.
func (c *postingCollector) match(e elem) bool {
	var v any
	switch e.kind() {
	case kindMissing:
		return false
	case kindString:
		if s := e.string(); len(s) <= MaxPostedValue {
			v = s
		}
	case kindNumber:
		v = postedNumber(e.number())
	case kindBool:
		v = e.boolean()
	}
	c.present = true
	if v != nil && !slices.Contains(c.out[c.start:], Posting{c.path, v}) {
		c.out = append(c.out, Posting{c.path, v})
	}
	return false
}

// postedNumber is the value a number is posted under: -0 is 0, as the
// matcher compares them equal.
func postedNumber(f float64) float64 {
	if f == 0 {
		return 0
	}
	return f
}

// postedName reports whether a member name is indexed (see Index.Members).
func postedName(name string) bool {
	return name != "" && len(name) <= MaxPostedName && !strings.ContainsRune(name, '.') &&
		!strings.HasPrefix(name, "$") && arrayIndex(name) < 0
}

// collector is a matcher that sees every value a path reaches and
// matches none, so that walk visits them all.
type collector func(e elem)

func (c collector) match(e elem) bool {
	c(e)
	return false
}

// reach calls visit with every value path reaches from root, as the
// matcher's walk yields them (missing values included).
func reach(root elem, path string, visit func(elem)) {
	walk(root, splitPath(path), endElems|endArray, collector(visit))
}

// indexed reports whether ix posts path.
func (ix *Index) indexed(path string) bool {
	if slices.Contains(ix.Paths, path) {
		return true
	}
	for _, m := range ix.Members {
		if name, ok := strings.CutPrefix(path, m+"."); ok && postedName(name) {
			return true
		}
	}
	return false
}

// present returns the longest indexed path that path starts with (path
// itself included), whose presence every document in which path reaches
// a value shares, or "".
func (ix *Index) present(path string) string {
	for p := path; ; {
		if ix.indexed(p) {
			return p
		}
		i := strings.LastIndexByte(p, '.')
		if i < 0 {
			return ""
		}
		p = p[:i]
	}
}
