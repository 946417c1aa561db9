package find

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func mustEncode(t testing.TB, doc []byte) []byte {
	t.Helper()
	form, err := Encode(doc)
	if err != nil {
		t.Fatalf("Encode(%s): %v", doc, err)
	}
	return form
}

// decodeEncoded decodes an encoded form strictly: every length must hold
// exactly its items, names written out must not be in encNames, and
// nothing may follow the value.
func decodeEncoded(form []byte) (Value, error) {
	head, root, ok := encRoot(form)
	if !ok {
		return Value{}, errors.New("not an id and one whole value")
	}
	return decodeValue(encID(head), root, 0)
}

func decodeValue(id, s string, depth int) (Value, error) {
	if depth > maxDepth {
		return Value{}, errors.New("too deep")
	}
	switch s[0] {
	case tagNull:
		return Value{}, nil
	case tagFalse, tagTrue:
		return Value{kind: kindBool, num: float64(s[0] - tagFalse)}, nil
	case tagNumber:
		return Value{kind: kindNumber, num: encNumber(s)}, nil
	case tagString:
		return Value{kind: kindString, str: encBody(s)}, nil
	case tagID:
		return Value{kind: kindString, str: id}, nil
	case tagIDMore:
		return Value{kind: kindString, str: id + encBody(s)}, nil
	}
	v := Value{kind: encKinds[s[0]]}
	if v.kind == kindObject {
		var o encObject
		ok := o.split(s)
		if n := len(o.codes); !ok || n > 0 && o.end(n-1) != len(o.slots) {
			return Value{}, errors.New("an object's parts do not fit")
		}
		for i := range o.codes {
			if name, _, _ := o.member(i); o.codes[i] == 0 && encCode(name) != 0 {
				return Value{}, fmt.Errorf("name %q written out", name)
			}
		}
	}
	it := newEncItems(s)
	for {
		name, item, ok := it.next()
		if !ok {
			break
		}
		x, err := decodeValue(id, item, depth+1)
		if err != nil {
			return Value{}, err
		}
		if v.kind == kindObject {
			v.keys = append(v.keys, name)
		}
		v.items = append(v.items, x)
	}
	if it.elems != "" || it.i < len(it.obj.codes) {
		return Value{}, errors.New("a container's items do not fit")
	}
	return v, nil
}

// sameMembers reports whether got is want with the members of its
// outermost object in the order Encode writes them.
func sameMembers(got, want Value) bool {
	if want.kind == kindObject && len(slices.Compact(slices.Sorted(slices.Values(want.keys)))) == len(want.keys) {
		w := Value{kind: kindObject}
		for _, nested := range []bool{false, true} {
			for i, item := range want.items {
				if (item.kind == kindObject || item.kind == kindArray) == nested {
					w.keys, w.items = append(w.keys, want.keys[i]), append(w.items, item)
				}
			}
		}
		want = w
	}
	return got.String() == want.String()
}

func TestEncode(t *testing.T) {
	for i, tc := range []struct{ doc, want string }{
		{`null`, "00 00"},
		{`[true,false,1.5]`, "00 08 0b 02 01 03 000000000000f83f"},
		{`"x"`, "00 04 01 78"},
		// The id once; the outermost object's scalars first; strings that
		// are the id or start with it as a token; an object's member count,
		// the width of its ends, its codes and ends, then its slots, with
		// names not in encNames written out.
		{`{"c":{"zz":"d:a"},"id":"d:a","k":["d:a#1","d:b"]}`,
			"03 643a61 07 22 03 01 01 00 00 01 0d 1a 05 0163 07 08 01 01 00 04 02 7a7a 05 016b 08 09 06 02 2331 04 03 643a62"},
		{`{"id":5,"name":""}`, "00 07 11 02 01 011d 090b 03 0000000000001440 04 00"},
		{`{"a":[],"a":1}`, "00 07 15 02 01 0000 040f 0161 0800 0161 03 000000000000f03f"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			form := mustEncode(t, []byte(tc.doc))
			if got := spaced(form, tc.want); got != tc.want {
				t.Errorf("Encode(%s) = %s, want %s", tc.doc, got, tc.want)
			}
			v, _ := ParseJSON([]byte(tc.doc))
			if back, err := decodeEncoded(form); err != nil || !sameMembers(back, v) {
				t.Errorf("Encode(%s) decodes to %s, %v", tc.doc, back, err)
			}
		})
	}
	if _, err := Encode([]byte(`{"a":}`)); err == nil {
		t.Error("Encode of invalid JSON gave no error")
	}
}

// spaced renders b in hex, spaced as like is.
func spaced(b []byte, like string) string {
	var out []string
	for _, field := range strings.Fields(like) {
		n := min(len(field)/2, len(b))
		out, b = append(out, fmt.Sprintf("%x", b[:n])), b[n:]
	}
	if len(b) > 0 {
		out = append(out, fmt.Sprintf("%x", b))
	}
	return strings.Join(out, " ")
}

// Strings that are the id, start with it or are a prefix of it compare as
// the strings they stand for.
func TestEncodedCompareString(t *testing.T) {
	form := mustEncode(t, []byte(`{"id":"d:a","k":["d:a#1","d:a","d:","d:a#","x"]}`))
	head, root, _ := encRoot(form)
	k := elem{raw: root, enc: head}
	k.enter(&step{name: "k", index: -1, code: encCode("k")})
	for _, s := range []string{"", "d", "d:", "d:a", "d:a#", "d:a#0", "d:a#1", "d:a#10", "d:b", "x", "y"} {
		for i := range 5 {
			e := k
			e.enter(&step{index: i})
			if got, want := e.compareString(s), strings.Compare(e.string(), s); got != want {
				t.Errorf("element %d (%q) against %q: %d, want %d", i, e.string(), s, got, want)
			}
		}
	}
}

// Bytes that are not an encoded form match nothing, not even {}.
func TestMatchEncodedInvalid(t *testing.T) {
	all := mustCompile(t, `{}`)
	good := mustEncode(t, []byte(`{"a":[1,2]}`))
	for _, form := range [][]byte{nil, {}, {0}, {5, 'x'}, good[:len(good)-1], append(slices.Clone(good), 0), {0, 9}, {0, tagNumber, 1}} {
		if all.MatchEncoded(form) {
			t.Errorf("{} matches % x", form)
		}
	}
	if !all.MatchEncoded(good) {
		t.Errorf("{} does not match % x", good)
	}
	// {"age":1} with its member's end past its slots, or a width of 3.
	age := mustEncode(t, []byte(`{"age":1}`))
	cond := mustCompile(t, `{"age":1}`)
	if !cond.MatchEncoded(age) {
		t.Fatalf("%s does not match % x", cond, age)
	}
	for at, b := range map[int]byte{6: 11, 4: 3} {
		bad := slices.Clone(age)
		bad[at] = b
		if cond.MatchEncoded(bad) {
			t.Errorf("%s matches % x", cond, bad)
		}
	}
}
