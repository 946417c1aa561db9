package sdkjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The want columns were produced by Node.js 20: JSON.stringify(JSON.parse(in))
// and JSON.stringify(sortJSONObject(JSON.parse(in))), sortJSONObject being
// the SDK's (src/json.ts).
var stringifyTests = []struct{ in, want, sorted string }{
	{
		`{"b":1,"10":2,"2":true,"a":null,"a":3}`,
		`{"2":true,"10":2,"b":1,"a":3}`,
		`{"2":true,"10":2,"a":3,"b":1}`,
	},
	{
		`[1e21,1e-7,1e-6,-0,0.1,123456789012345680000,5e-324,1.7976931348623157e308,1e400,-1e400,100,1.5e300,12345678901234567890]`,
		`[1e+21,1e-7,0.000001,0,0.1,123456789012345680000,5e-324,1.7976931348623157e+308,null,null,100,1.5e+300,12345678901234567000]`,
		``,
	},
	{
		`"\u2028\u0001\u001f\u007f\b\f\n\r\t\/\"\\ é\ud83d\ude00<>&"`,
		"\"\u2028\\u0001\\u001f\x7f\\b\\f\\n\\r\\t/\\\"\\\\ é😀<>&\"",
		``,
	},
	{
		`{"4294967295":1,"4294967294":2,"01":3,"1":4,"0":5,"-1":6,"":7}`,
		`{"0":5,"1":4,"4294967294":2,"4294967295":1,"01":3,"-1":6,"":7}`,
		`{"0":5,"1":4,"4294967294":2,"":7,"-1":6,"01":3,"4294967295":1}`,
	},
	{
		`{"z":{"b":[{"d":1,"c":2},[]],"a":{}},"\uffff":1,"\ud83d\ude00":2,"A":3}`,
		"{\"z\":{\"b\":[{\"d\":1,\"c\":2},[]],\"a\":{}},\"\uffff\":1,\"😀\":2,\"A\":3}",
		"{\"A\":3,\"z\":{\"a\":{},\"b\":[{\"c\":2,\"d\":1},[]]},\"😀\":2,\"\uffff\":1}",
	},
	{" \t\n\r[ ] ", `[]`, ``},
	{`{"a":[true,false,null,{}]}`, `{"a":[true,false,null,{}]}`, `{"a":[true,false,null,{}]}`},
}

func TestStringifyMatchesJavaScript(t *testing.T) {
	for _, tc := range stringifyTests {
		d := NewDecoder([]byte(tc.in))
		v := d.Value()
		if err := d.Finish(); err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if got := string(AppendValue(nil, v)); got != tc.want {
			t.Errorf("stringify %s\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if tc.sorted == "" {
			continue
		}
		if got := string(AppendValue(nil, NewDecoder([]byte(tc.in)).SortedValue())); got != tc.sorted {
			t.Errorf("sorted %s\n got %s\nwant %s", tc.in, got, tc.sorted)
		}
	}
}

func TestValueAccessors(t *testing.T) {
	v := NewDecoder([]byte(`{"a":[true,2,"x",null],"b":{}}`)).Value()
	a, ok := v.Get("a")
	if !ok || a.Kind() != Array || a.Len() != 4 || !a.Elem(0).Bool() || a.Elem(1).Num() != 2 || a.Elem(2).Str() != "x" || a.Elem(3).Kind() != Null {
		t.Errorf("a = %s", AppendValue(nil, a))
	}
	if _, ok := v.Get("c"); ok || a.Members() != nil || a.Elem(2).Num() != 0 || a.Elem(1).Bool() {
		t.Error("accessors of the wrong kind should return zero values")
	}
	got := string(AppendObject(nil, []Member{{Key: "id", Value: StringValue("x")}}, v.Members(), []Member{{Key: "7", Value: Value{}}}))
	if want := `{"id":"x","a":[true,2,"x",null],"b":{}}`; got != want {
		t.Errorf("AppendObject of groups = %s, want %s", got, want)
	}
}

func TestDecodeErrors(t *testing.T) {
	for i, tc := range []struct{ in, want string }{
		{``, "offset 0: want a value, found end of input"},
		{`{"a":1,}`, `offset 7: want string, found '}'`},
		{`{"a" 1}`, `want ':' after member name "a"`},
		{`{"a":[1 2]}`, "a[0] (offset 8): want ',' or ']' after an array element"},
		{`[1,]`, "[1] (offset 3): want a value"},
		{`{"publicKey":[{"id":7}]}`, ""},
		{`"abc`, "unterminated string"},
		{`"a` + "\x01" + `"`, "control character 0x01"},
		{`"\x"`, `invalid escape \x`},
		{`"\u12"`, `invalid \u escape`},
		{`"\ud800"`, `\ud800 is a lone surrogate`},
		{`"\udc00\ud800"`, `\udc00 is a lone surrogate`},
		{"\"\xff\"", "not valid UTF-8"},
		{`01`, "unexpected number after the JSON value"},
		{`-`, "invalid number"},
		{`1.`, "no digits after the decimal point"},
		{`1e+`, "no digits in the exponent"},
		{`tru`, "invalid literal, want true"},
		{`nul`, "invalid literal, want null"},
		{`[] x`, "unexpected 'x' after the JSON value"},
		{strings.Repeat("[", MaxDepth+1), "nested more than 128 levels deep"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			d := NewDecoder([]byte(tc.in))
			d.Value()
			err := d.Finish()
			if tc.want == "" {
				if err != nil {
					t.Errorf("%q: %v", tc.in, err)
				}
				return
			}
			var je *Error
			if !errors.As(err, &je) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q: error %v, want an *Error containing %q", tc.in, err, tc.want)
			}
		})
	}
}

func TestTypedReadsNameThePath(t *testing.T) {
	d := NewDecoder([]byte(`{"publicKey":[{"id":"#a"},{"id":7}]}`))
	var ids []string
	for m := d.Object(); m.Next(); {
		for e := d.Array(); e.Next(); {
			for k := d.Object(); k.Next(); {
				ids = append(ids, d.Str())
			}
		}
	}
	err := d.Finish()
	if err == nil || !strings.Contains(err.Error(), "publicKey[1].id (offset 32): want string, found number") {
		t.Fatalf("error %v", err)
	}
	if len(ids) != 2 || ids[0] != "#a" || ids[1] != "" {
		t.Errorf("read %q before the error, want [#a \"\"]", ids)
	}
}

func TestIntAndFail(t *testing.T) {
	d := NewDecoder([]byte(`[3, 2.5]`))
	e := d.Array()
	e.Next()
	if n := d.Int(); n != 3 {
		t.Errorf("Int = %d, want 3", n)
	}
	e.Next()
	d.Int()
	if err := d.Err(); err == nil || !strings.Contains(err.Error(), "[1] (offset 7): want an integer, found 2.5") {
		t.Errorf("error %v", err)
	}
	sentinel := errors.New("sentinel")
	d2 := NewDecoder([]byte(`{"x":"y"}`))
	for m := d2.Object(); m.Next(); {
		d2.Str()
		d2.Fail(sentinel)
	}
	if err := d2.Finish(); !errors.Is(err, sentinel) || !strings.Contains(err.Error(), "sdkjson: x (offset 8)") {
		t.Errorf("Fail recorded %v", err)
	}
}

func TestCompareUTF16(t *testing.T) {
	for i, tc := range []struct {
		a, b string
		want int
	}{
		{"a", "b", -1}, {"b", "a", 1}, {"a", "a", 0}, {"a", "ab", -1}, {"B", "a", -1},
		{"😀", "\uffff", -1}, // JavaScript: "\ud83d\ude00" < "\uffff"
		{"\uffff", "😀", 1},
		{"\ue000", "😀", 1},
		{"é", "ê", -1},
		{"z", "é", -1},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := CompareUTF16(tc.a, tc.b)
			if sign(got) != tc.want {
				t.Errorf("CompareUTF16(%q, %q) = %d, want sign %d", tc.a, tc.b, got, tc.want)
			}
		})
	}
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// Str reads long strings as the byte-at-a-time path (slowStr) does, with
// every byte at every offset of the first blocks: the same string, the
// same error, the same position after it.
func TestStrLong(t *testing.T) {
	base := "eyJpZCI6ImRpZDplbGFzdG9zOmlYY1JoWUIzOGdNdDFwaGk1"
	for at := range 24 {
		for v := range 256 {
			b := []byte(`"` + base + `"],"x":1`)
			b[1+at] = byte(v)
			fast := NewDecoder(b)
			got := fast.Str()
			slow := NewDecoder(b)
			slow.expect(String)
			want := slow.slowStr(slow.i+1, slow.i+1)
			if got != want || (fast.err == nil) != (slow.err == nil) || fast.i != slow.i {
				t.Fatalf("Str(%q) = %q, %v at %d; byte by byte %q, %v at %d", b, got, fast.err, fast.i, want, slow.err, slow.i)
			}
		}
	}
}

// FuzzValue checks that whatever the decoder accepts is JSON, and that
// writing is a fixed point: decode(write(v)) writes the same bytes.
func FuzzValue(f *testing.F) {
	for _, tc := range stringifyTests {
		f.Add([]byte(tc.in))
	}
	f.Add([]byte(`{"a":"\u0000","b":[1,{"c":null}]}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		d := NewDecoder(in)
		v := d.Value()
		if d.Finish() != nil {
			return
		}
		if !json.Valid(in) {
			t.Fatalf("accepted invalid JSON %q", in)
		}
		out := AppendValue(nil, v)
		d2 := NewDecoder(out)
		v2 := d2.Value()
		if err := d2.Finish(); err != nil {
			t.Fatalf("cannot read back %q: %v", out, err)
		}
		if again := AppendValue(nil, v2); string(again) != string(out) {
			t.Fatalf("not a fixed point: %q then %q", out, again)
		}
		sorted := AppendValue(nil, NewDecoder(in).SortedValue())
		if want := AppendValue(nil, sortedRef(v)); string(sorted) != string(want) {
			t.Fatalf("SortedValue(%q) = %s, want the value's members sorted: %s", in, sorted, want)
		}
	})
}

// sortedRef sorts the members of every object of v by key, the reference
// SortedValue must agree with.
func sortedRef(v Value) Value {
	if v.list == nil {
		return v
	}
	list := make([]Member, len(v.list))
	for i, m := range v.list {
		list[i] = Member{Key: m.Key, Value: sortedRef(m.Value)}
	}
	if v.kind == Object {
		slices.SortStableFunc(list, func(a, b Member) int { return CompareUTF16(a.Key, b.Key) })
	}
	return Value{kind: v.kind, list: list}
}

// A sorted object with a key repeated, among many, keeps its last value once.
func TestSortedValueRepeats(t *testing.T) {
	var in strings.Builder
	in.WriteString("{")
	for i := range 100 {
		fmt.Fprintf(&in, `"k%02d":%d,`, i%40, i)
	}
	in.WriteString(`"k00":"last"}`)
	v := NewDecoder([]byte(in.String())).SortedValue()
	if v.Len() != 40 {
		t.Fatalf("%d members, want 40", v.Len())
	}
	if got, _ := v.Get("k00"); got.Str() != "last" {
		t.Errorf("k00 = %v, want the last value", got)
	}
	if got, _ := v.Get("k39"); got.Num() != 79 {
		t.Errorf("k39 = %v, want 79", got.Num())
	}
	for i := 1; i < v.Len(); i++ {
		if CompareUTF16(v.list[i-1].Key, v.list[i].Key) >= 0 {
			t.Fatalf("members out of order at %d: %q, %q", i, v.list[i-1].Key, v.list[i].Key)
		}
	}
}

func TestRaw(t *testing.T) {
	d := NewDecoder([]byte(`{"a": {"b" : [1, "x"]} , "c":2}`))
	var raw []byte
	for m := d.Object(); m.Next(); {
		if m.Key() == "a" {
			raw = d.Raw()
			continue
		}
		d.Skip()
	}
	if err := d.Finish(); err != nil || string(raw) != `{"b" : [1, "x"]}` {
		t.Errorf("Raw = %q, %v", raw, err)
	}
	if got := NewDecoder([]byte(`[`)).Raw(); got != nil {
		t.Errorf("Raw of a broken value = %q, want nil", got)
	}
}

func TestFields(t *testing.T) {
	var a, b string
	d := NewDecoder([]byte(`{"a":"x","skip":[1,{"b":"no"}],"b":null,"a":"y"}`))
	d.Fields(Field{Key: "a", Dst: &a}, Field{Key: "b", Dst: &b})
	if err := d.Finish(); err != nil || a != "y" || b != "" {
		t.Errorf("a %q, b %q, %v", a, b, err)
	}
	d = NewDecoder([]byte(`{"a":1}`))
	d.Fields(Field{Key: "a", Dst: &a})
	if err := d.Finish(); err == nil || !strings.Contains(err.Error(), "a (offset 5): want string, found number") {
		t.Errorf("a number where a string belongs: %v", err)
	}
}
