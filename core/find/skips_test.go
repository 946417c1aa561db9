package find

import (
	"encoding/binary"
	"strings"
	"testing"
)

func TestSkips(t *testing.T) {
	doc := `{"a": [1, {"b": "}]"}], "c": {}, "d": "x"}`
	got := buildSkips(doc, 3)
	// the whole, [1, {...}] and {"b": "}]"}; {} is shorter than 3
	want := []uint16{0, uint16(len(doc)), 6, 22, 10, 21}
	if len(got) != 2*len(want) {
		t.Fatalf("table %v, want offsets %v", got, want)
	}
	for i, w := range want {
		if o := binary.LittleEndian.Uint16(got[2*i:]); o != w {
			t.Errorf("offset %d = %d, want %d (table %v)", i, o, w, got)
		}
	}
	if n := len(Skips([]byte(doc))); n != 0 {
		t.Errorf("a document of %d bytes has %d bytes of table with containers of %d bytes or more", len(doc), n, skipMin)
	}
	long := `{"a":"` + strings.Repeat("x", 1<<16) + `","b":[` + strings.Repeat(`"y",`, 20) + `0]}`
	if got := Skips([]byte(long)); len(got) != 16 || binary.LittleEndian.Uint32(got[12:]) != uint32(len(long)-1) {
		t.Errorf("table of a document over 64 KiB: %v", got)
	}
}

func TestScanForm(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{`{"credential":[{"a":1}],"id":"x","p":{"b":[]},"expires":"2030","n":null}`, `{"id":"x","expires":"2030","n":null,"credential":[{"a":1}],"p":{"b":[]}}`},
		{` {"a" : [1], "b\u00e9": 2 } `, `{"bé":2,"a":[1]}`},
		{`{}`, `{}`},
		{`{"a":[],"b":1,"a":2}`, `{"a":[],"b":1,"a":2}`}, // a repeated name: as it is
		{`{"a":[],"b":1`, `{"a":[],"b":1`},               // not valid: as it is
		{`{"a":[],"b":1} x`, `{"a":[],"b":1} x`},
		{`[1,{"a":2}]`, `[1,{"a":2}]`},
		{`"s"`, `"s"`},
	} {
		if got := ScanForm([]byte(tc.doc)); string(got) != tc.want {
			t.Errorf("ScanForm(%s) = %s, want %s", tc.doc, got, tc.want)
		}
	}
}
