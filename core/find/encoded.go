package find

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// The encoded form of a document is a binary form made for the matcher,
// which a store keeps and scans in place of the JSON text (Encode,
// Condition.MatchEncoded). Every object and array is led by its length,
// so a walk steps over what a condition's paths do not lead to in one
// read; member names are small numbers; numbers are the float64s the
// parser reads, ready to compare; and the document's own id, which a DID
// document repeats about twenty times (controller, issuer, subject, the
// "did#fragment" ids), is written once:
//
//	form  = uvarint(len(id)) id value   (id: the outermost "id" member's string, or empty)
//	value = tagNull | tagFalse | tagTrue | tagID
//	      | tagNumber  8 bytes          (the float64's bits, little-endian)
//	      | tagString  uvarint(n) n bytes
//	      | tagIDMore  uvarint(n) n bytes  (the id followed by these bytes)
//	      | tagObject  uvarint(n) n bytes: object
//	      | tagArray   uvarint(n) n bytes of elements: value ...
//	object = uvarint(m) width codes ends slots   (m members)
//	codes  = m bytes: member i's name is encNames[codes[i]-1], or written in its slot if codes[i] is 0
//	ends   = m numbers of width bytes (1, 2 or 4), little-endian: where each slot ends in slots
//	slot   = [uvarint(n) n bytes: the name, if written out] value
//
// An object lists its members' names before their values, and where each
// value ends, so finding a member is a search of a few bytes (the codes)
// and two reads, and a missing member costs no more.
//
// The outermost object lists the members whose values are not objects or
// arrays first, each group in its order, unless it repeats a name (a path
// leads to the first member of that name): a condition on such a member
// (the id, expires) then reads the first bytes of the form only. No
// condition can tell: the order of the outermost object's members is
// nothing a condition can test.
const (
	tagNull byte = iota
	tagFalse
	tagTrue
	tagNumber
	tagString
	tagID
	tagIDMore
	tagObject
	tagArray
)

// encNames are the member names the encoded form writes as one byte, the
// names of DID documents (https://github.com/elastos/Elastos.DID.Spec) and
// of the query view (resolve.View) with common credential subject members.
// The list is part of the stored form: changing it changes the form.
var encNames = [...]string{
	"id", "type", "controller", "publicKey", "publicKeyBase58", "authentication",
	"authorization", "verifiableCredential", "credentialSubject", "issuer",
	"issuanceDate", "expirationDate", "proof", "created", "creator", "signatureValue",
	"verificationMethod", "signature", "service", "serviceEndpoint", "expires",
	"credential", "subject", "multisig", "@context", "realm", "nonce", "jws",
	"name", "email", "age", "country", "zip", "address", "city", "languages",
	"verified", "score",
}

// encCode returns the byte the encoded form writes name as, or 0 when it
// writes name out.
func encCode(name string) byte {
	for i, n := range encNames {
		if n == name {
			return byte(i + 1)
		}
	}
	return 0
}

// The functions below read the encoded form in place. They check every
// length against the bytes there are: on bytes that are not an encoded
// form they give some answer, never a panic or a read outside them.

// encUvarint returns the number s starts with and its length in bytes, or
// a length of 0 when s does not start with one.
func encUvarint(s string) (uint64, int) {
	switch { // the common cases: a string or container shorter than 128 bytes, or than 16 KiB
	case len(s) > 0 && s[0] < 0x80:
		return uint64(s[0]), 1
	case len(s) > 1 && s[1] < 0x80:
		return uint64(s[0]&0x7f) | uint64(s[1])<<7, 2
	}
	var n uint64
	for i := 0; i < len(s) && i < binary.MaxVarintLen64; i++ {
		n |= uint64(s[i]&0x7f) << (7 * i)
		if s[i] < 0x80 {
			return n, i + 1
		}
	}
	return 0, 0
}

// encChunk splits s after the uvarint length it starts with and that many
// bytes: the bytes and what follows them, ok false when s is too short.
func encChunk(s string) (chunk, rest string, ok bool) {
	n, k := encUvarint(s)
	if k == 0 || n > uint64(len(s)-k) {
		return "", "", false
	}
	return s[k : k+int(n)], s[k+int(n):], true
}

// encLen returns the length of the value that s starts with, or 0 when s
// does not start with a whole value.
func encLen(s string) int {
	if len(s) == 0 {
		return 0
	}
	n := int(encSizes[s[0]])
	if n == chunked {
		size, k := encUvarint(s[1:])
		if k == 0 || size > uint64(len(s)-1-k) {
			return 0
		}
		return 1 + k + int(size)
	}
	if n > len(s) {
		return 0
	}
	return n
}

// chunked is the encSizes of a tag whose payload is a length and that
// many bytes.
const chunked = 0xff

// encSizes are the lengths of the values of each tag, 0 for no tag.
var encSizes = [256]byte{
	tagNull: 1, tagFalse: 1, tagTrue: 1, tagID: 1, tagNumber: 9,
	tagString: chunked, tagIDMore: chunked, tagObject: chunked, tagArray: chunked,
}

// encBody returns the bytes of a string's or container's value v.
func encBody(v string) string {
	body, _, _ := encChunk(v[1:])
	return body
}

// encObject is an object in encoded form, split into its parts.
type encObject struct {
	codes string // the name code of each member
	ends  string // where each member's slot ends in slots, width bytes each
	width int
	slots string
}

// split sets o to the parts of the object v and reports whether they
// fit; when they do not, o has no members. It fills o in place, rather
// than returning one: a struct returned and then copied is read back
// before its stores have landed, which stalls a walk at every object.
func (o *encObject) split(v string) bool {
	body := encBody(v)
	m, k := encUvarint(body)
	if k == 0 || k == len(body) {
		return false
	}
	width, body := int(body[k]), body[k+1:]
	// m fits the bytes when each member has its code and end: m <= len(body)
	// first, so that the product cannot overflow (and no division is needed).
	if width != 1 && width != 2 && width != 4 || m > uint64(len(body)) || m*uint64(1+width) > uint64(len(body)) {
		return false
	}
	n := int(m)
	o.width, o.codes, o.ends, o.slots = width, body[:n], body[n:n+n*width], body[n+n*width:]
	return true
}

// end returns where slot i ends.
func (o *encObject) end(i int) int {
	switch o.width {
	case 1:
		return int(o.ends[i])
	case 2:
		return int(o.ends[2*i]) | int(o.ends[2*i+1])<<8
	}
	b := o.ends[4*i : 4*i+4]
	return int(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)
}

// member returns the name and value of member i, ok false when its slot
// does not hold one whole value (after the name, if written out).
func (o *encObject) member(i int) (name, value string, ok bool) {
	if value, ok = o.slot(i); !ok {
		return "", "", false
	}
	switch code := o.codes[i]; {
	case code == 0:
		if name, value, ok = encChunk(value); !ok {
			return "", "", false
		}
	case int(code) > len(encNames):
		return "", "", false
	default:
		name = encNames[code-1]
	}
	if !encWhole(value) {
		return "", "", false
	}
	return name, value, true
}

// slot returns the bytes of member i's slot, ok false when they do not fit.
func (o *encObject) slot(i int) (string, bool) {
	start, end := 0, o.end(i)
	if i > 0 {
		start = o.end(i - 1)
	}
	if start > end || end > len(o.slots) {
		return "", false
	}
	return o.slots[start:end], true
}

// encWhole reports whether v is one whole encoded value.
func encWhole(v string) bool { return v != "" && encLen(v) == len(v) }

// encItems iterates over the members of an object or the elements of an
// array, in encoded form.
type encItems struct {
	elems  string    // of an array: the elements not yet read
	obj    encObject // of an object
	i      int       // of an object: the next member
	object bool
}

func newEncItems(v string) encItems {
	if v[0] != tagObject {
		return encItems{elems: encBody(v)}
	}
	it := encItems{object: true}
	it.obj.split(v) // an object that does not fit has no members
	return it
}

// next returns the next member's name and value (the name of an element
// is ""), or ok false at the end.
func (it *encItems) next() (name, value string, ok bool) {
	if it.object {
		if it.i == len(it.obj.codes) {
			return "", "", false
		}
		it.i++
		return it.obj.member(it.i - 1)
	}
	value, it.elems = encNext(it.elems)
	return "", value, value != ""
}

// encNext splits the elements of an array, or the rest of them, into the
// first one and the others; it returns "" for the first at the end.
func encNext(elems string) (value, rest string) {
	n := encLen(elems)
	return elems[:n], elems[n:]
}

// encMember returns the first member of the object v named by st, or "".
func encMember(v string, st *step) string {
	var o encObject
	if !o.split(v) {
		return ""
	}
	if st.code != 0 {
		return o.find(st.code)
	}
	for i := range len(o.codes) {
		if o.codes[i] != 0 {
			continue
		}
		if name, value, ok := o.member(i); !ok || name == st.name {
			return value
		}
	}
	return ""
}

// find returns the value of the first member whose name is written as
// code, or "".
func (o *encObject) find(code byte) string {
	// A loop, not strings.IndexByte: an object has a few members, too few
	// for a vector search to pay for its call.
	for i := range len(o.codes) {
		if o.codes[i] == code {
			return o.value(i)
		}
	}
	return ""
}

// value returns the value of member i, whose name is written as a code,
// or "" when its slot does not hold one whole value.
func (o *encObject) value(i int) string {
	if v, ok := o.slot(i); ok && encWhole(v) {
		return v
	}
	return ""
}

// encElement returns element n of the array v, or "".
func encElement(v string, n int) string {
	for it := newEncItems(v); ; n-- {
		_, value, ok := it.next()
		if !ok || n == 0 {
			return value
		}
	}
}

// encNumber returns the number value v holds.
func encNumber(v string) float64 {
	_ = v[8]
	bits := uint64(v[1]) | uint64(v[2])<<8 | uint64(v[3])<<16 | uint64(v[4])<<24 |
		uint64(v[5])<<32 | uint64(v[6])<<40 | uint64(v[7])<<48 | uint64(v[8])<<56
	return math.Float64frombits(bits)
}

// encRoot splits an encoded form into its head (the id with its length,
// see encID) and its value, ok false when it is not one id and one whole
// value.
func encRoot(form []byte) (head, root string, ok bool) {
	s := unsafe.String(unsafe.SliceData(form), len(form))
	_, root, ok = encChunk(s)
	head = s[:len(s)-len(root)]
	return head, root, ok && encWhole(root)
}

// encID returns the id of an encoded form from its head (encRoot).
func encID(head string) string {
	id, _, _ := encChunk(head)
	return id
}
