package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// shape is an output written both by encoding/json and by an Object.
type shape struct {
	Name    string          `json:"name"`
	Note    string          `json:"note,omitempty"`
	OK      bool            `json:"ok"`
	Height  int64           `json:"height"`
	Amount  uint64          `json:"amount"`
	Raw     json.RawMessage `json:"raw"`
	RawOmit json.RawMessage `json:"rawOmit,omitempty"`
	List    []string        `json:"list"`
	Nested  struct {
		A string `json:"a"`
	} `json:"nested"`
}

func (s *shape) appendJSON(b []byte, d Dialect) []byte {
	o := NewObject(b, d)
	o.String("name", s.Name)
	o.StringOmit("note", s.Note)
	o.Bool("ok", s.OK)
	o.Int("height", s.Height)
	o.Uint("amount", s.Amount)
	o.Raw("raw", s.Raw)
	o.RawOmit("rawOmit", s.RawOmit)
	o.Strings("list", s.List)
	o.Value("nested", func(b []byte) []byte {
		n := NewObject(b, d)
		n.String("a", s.Nested.A)
		return n.End()
	})
	return o.End()
}

// An Object writes what encoding/json writes for the same struct, in both
// of its escapings.
func TestObjectIsEncodingJSONs(t *testing.T) {
	full := shape{Name: "<a&b>\u2028", Note: "n", OK: true, Height: -7, Amount: 1 << 63, Raw: json.RawMessage(`{"x":[1,2]}`), RawOmit: json.RawMessage(`3`), List: []string{"x", "\x01"}}
	full.Nested.A = "é"
	for name, s := range map[string]shape{"zero": {}, "full": full, "empty list": {List: []string{}}} {
		for _, d := range []Dialect{Std, StdHTML} {
			t.Run(fmt.Sprintf("%s/%d", name, d), func(t *testing.T) {
				var b bytes.Buffer
				e := json.NewEncoder(&b)
				e.SetEscapeHTML(d == StdHTML)
				if err := e.Encode(&s); err != nil {
					t.Fatal(err)
				}
				want := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
				if got := s.appendJSON([]byte("x"), d); !bytes.Equal(got[1:], want) || got[0] != 'x' {
					t.Errorf("\n got  %s\n want x%s", got, want)
				}
			})
		}
	}
}

func ExampleObject() {
	o := NewObject(nil, JS)
	o.String("id", "did:elastos:iXcRhYB38gMt1phi5JJMjeY1ro8XzsZnqH")
	o.Int("status", 0)
	o.Strings("types", []string{"<Profile>"})
	fmt.Println(string(o.End()))
	// Output: {"id":"did:elastos:iXcRhYB38gMt1phi5JJMjeY1ro8XzsZnqH","status":0,"types":["<Profile>"]}
}
