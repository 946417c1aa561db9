package jsontext

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// PlainRun stops at the block of 8 holding the first byte that needs
// attention, for every byte value at every position, in strings and byte
// slices alike.
func TestPlainRun(t *testing.T) {
	special := func(c byte, ascii bool) bool { return c == '"' || c == '\\' || c < 0x20 || ascii && c >= 0x80 }
	for _, ascii := range []bool{false, true} {
		t.Run(fmt.Sprintf("ascii=%v", ascii), func(t *testing.T) {
			for c := range 256 {
				for pos := range 24 {
					b := bytes.Repeat([]byte{'a'}, 24)
					b[pos] = byte(c)
					got := PlainRun(b, 1, ascii)
					first := len(b)
					for i := 1; i < len(b); i++ {
						if special(b[i], ascii) {
							first = i
							break
						}
					}
					if got > first || got+8 <= len(b) && first >= got+8 {
						t.Fatalf("byte %#x at %d: PlainRun = %d, first special at %d", c, pos, got, first)
					}
					if s := PlainRun(string(b), 1, ascii); s != got {
						t.Fatalf("byte %#x at %d: PlainRun of a string %d, of bytes %d", c, pos, s, got)
					}
				}
			}
		})
	}
}

// PlainRun is exact for any two bytes at any positions of a block: it
// stops at the block that holds either when either needs attention.
func TestPlainRunPairs(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' }
	for p1 := range 8 {
		for p2 := p1; p2 < 8; p2++ {
			for v1 := range 256 {
				for v2 := range 256 {
					b := []byte("ABCDEFGHabcdefghXYZ")
					b[8+p1], b[8+p2] = byte(v1), byte(v2)
					want := 8
					if plain(b[8+p1]) && plain(b[8+p2]) {
						want = 16
					}
					if got := PlainRun(string(b), 0, true); got != want {
						t.Fatalf("PlainRun(%q) = %d, want %d", b, got, want)
					}
				}
			}
		}
	}
}

// jsReference writes s as JSON.stringify does, a rune at a time.
func jsReference(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteString("\\" + string(r))
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r) // invalid UTF-8 ranges as U+FFFD
		}
	}
	b.WriteByte('"')
	return b.String()
}

func TestJSAppendString(t *testing.T) {
	base := strings.Repeat("eyJpZCI6ImRpZDplbGFzdG9zOmlYY1JoWUIzOGdNdDFwaGk1SkpNamVY", 3)
	for _, special := range []string{`"`, `\`, "\n", "\x01", "\x1f", "é", "€", "😀", "\xff", "\u2028", "<"} {
		t.Run(fmt.Sprintf("%q", special), func(t *testing.T) {
			for i := range 40 {
				s := base[:i] + special + base[i:]
				if got, want := string(JS.AppendString(nil, s)), jsReference(s); got != want {
					t.Fatalf("AppendString(%q)\n got %s\nwant %s", s, got, want)
				}
			}
		})
	}
}

func FuzzJSAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c\b\f\n\r\t\x00\x1f\x7f", "<>&", "\u2028\u2029é😀", "\xff\xfe\xc3", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := JS.AppendString(nil, s)
		if want := jsReference(s); string(got) != want {
			t.Fatalf("%q: %s, a rune at a time %s", s, got, want)
		}
		if !utf8.Valid(got) || !json.Valid(got) {
			t.Fatalf("%q: %s is not valid UTF-8 JSON", s, got)
		}
	})
}

// Std and StdHTML write strings byte for byte as encoding/json's Encoder
// does, without and with HTML escaping.
func FuzzStdAppendStringIsEncodingJSONs(f *testing.F) {
	for _, s := range []string{"", "plain", "a\"b\\c\b\f\n\r\t\x00\x1f\x7f", "<>&", "\u2028\u2029é😀", "\xff\xfe\xc3", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range []Dialect{Std, StdHTML} {
			var b bytes.Buffer
			e := json.NewEncoder(&b)
			e.SetEscapeHTML(d == StdHTML)
			e.Encode(s)
			if got, want := d.AppendString(nil, s), bytes.TrimSuffix(b.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
				t.Fatalf("%q (dialect %d): %s, encoding/json %s", s, d, got, want)
			}
		}
	})
}
