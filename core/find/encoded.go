package find

import (
	"encoding/binary"
	"math"
	"slices"
	"strings"
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
//	      | tagObject  uvarint(n) n bytes of members: name value ...
//	      | tagArray   uvarint(n) n bytes of elements: value ...
//	name  = byte k > 0: encNames[k-1]; or 0 uvarint(n) n bytes
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

// Encode returns the encoded form of the JSON document doc for a store to
// keep and scan with MatchEncoded, or the *SyntaxError of text that is not
// strict JSON.
func Encode(doc []byte) ([]byte, error) {
	v, err := ParseJSON(doc)
	if err != nil {
		return nil, err
	}
	var e encoder
	if v.kind == kindObject {
		if f := v.field("id"); f != nil && f.kind == kindString {
			e.id = f.str
		}
	}
	out := binary.AppendUvarint(make([]byte, 0, len(doc)/2), uint64(len(e.id)))
	out = append(out, e.id...)
	if v.kind != kindObject || repeatsName(v.keys) {
		return e.value(out, &v), nil
	}
	return e.container(out, tagObject, func(b []byte) []byte {
		for _, i := range scalarsFirst(&v) {
			b = e.value(appendName(b, v.keys[i]), &v.items[i])
		}
		return b
	}), nil
}

// scalarsFirst returns the positions of the members of the object v whose
// values are not objects or arrays, then those of the others, each in
// order.
func scalarsFirst(v *Value) []int {
	order := make([]int, 0, len(v.items))
	for _, scalars := range []bool{true, false} {
		for i := range v.items {
			if k := v.items[i].kind; (k != kindObject && k != kindArray) == scalars {
				order = append(order, i)
			}
		}
	}
	return order
}

func repeatsName(names []string) bool {
	for i, n := range names {
		if slices.Contains(names[:i], n) {
			return true
		}
	}
	return false
}

// encoder writes the encoded form of the values of a document.
type encoder struct{ id string }

func (e *encoder) value(b []byte, v *Value) []byte {
	switch v.kind {
	case kindBool:
		if v.num != 0 {
			return append(b, tagTrue)
		}
		return append(b, tagFalse)
	case kindNumber:
		return binary.LittleEndian.AppendUint64(append(b, tagNumber), math.Float64bits(v.num))
	case kindString:
		rest, ok := strings.CutPrefix(v.str, e.id)
		switch {
		case e.id == "" || !ok:
			return appendChunk(append(b, tagString), v.str)
		case rest == "":
			return append(b, tagID)
		}
		return appendChunk(append(b, tagIDMore), rest)
	case kindArray:
		return e.container(b, tagArray, func(b []byte) []byte {
			for i := range v.items {
				b = e.value(b, &v.items[i])
			}
			return b
		})
	case kindObject:
		return e.container(b, tagObject, func(b []byte) []byte {
			for i := range v.items {
				b = e.value(appendName(b, v.keys[i]), &v.items[i])
			}
			return b
		})
	}
	return append(b, tagNull)
}

// container appends tag, the length of what body appends and that.
func (e *encoder) container(b []byte, tag byte, body func([]byte) []byte) []byte {
	b = append(b, tag)
	start := len(b)
	b = body(b)
	n := len(b) - start
	var prefix [binary.MaxVarintLen64]byte
	k := binary.PutUvarint(prefix[:], uint64(n))
	b = append(b, prefix[:k]...)
	copy(b[start+k:], b[start:start+n])
	copy(b[start:], prefix[:k])
	return b
}

func appendName(b []byte, name string) []byte {
	if k := encCode(name); k != 0 {
		return append(b, k)
	}
	return appendChunk(append(b, 0), name)
}

func appendChunk(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
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

// encItems iterates over the members of an object or the elements of an
// array, in encoded form.
type encItems struct {
	s      string // the items not yet read
	object bool
}

func newEncItems(v string) encItems {
	return encItems{s: encBody(v), object: v[0] == tagObject}
}

// next returns the next member's name code (encCode, or 0 with the name
// in name), name and value, or ok false at the end.
func (it *encItems) next() (code byte, name, value string, ok bool) {
	s := it.s
	if it.object {
		if len(s) == 0 {
			return 0, "", "", false
		}
		if code = s[0]; code == 0 {
			if name, s, ok = encChunk(s[1:]); !ok {
				return 0, "", "", false
			}
		} else if int(code) <= len(encNames) {
			name, s = encNames[code-1], s[1:]
		} else {
			return 0, "", "", false
		}
	}
	n := encLen(s)
	if n == 0 {
		return 0, "", "", false
	}
	it.s = s[n:]
	return code, name, s[:n], true
}

// encMember returns the first member of the object v named by st, or "".
// It is encItems.next unrolled: a scan calls it for most of what it
// reads.
func encMember(v string, st *step) string {
	s := encBody(v)
	for len(s) > 0 {
		code := s[0]
		s = s[1:]
		match := code == st.code
		switch {
		case code == 0:
			var name string
			var ok bool
			if name, s, ok = encChunk(s); !ok {
				return ""
			}
			match = match && name == st.name
		case int(code) > len(encNames):
			return ""
		}
		n := encLen(s)
		if n == 0 {
			return ""
		}
		if match {
			return s[:n]
		}
		s = s[n:]
	}
	return ""
}

// encElement returns element n of the array v, or "".
func encElement(v string, n int) string {
	for it := newEncItems(v); ; n-- {
		_, _, value, ok := it.next()
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
	return head, root, ok && root != "" && encLen(root) == len(root)
}

// encID returns the id of an encoded form from its head (encRoot).
func encID(head string) string {
	id, _, _ := encChunk(head)
	return id
}
