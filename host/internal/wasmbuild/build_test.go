package wasmbuild

import (
	"bytes"
	"encoding/binary"
	"slices"
	"strings"
	"testing"
)

// section encodes a section (id, LEB128 size, body).
func sectionBytes(id byte, body []byte) []byte {
	return append([]byte{id, byte(len(body))}, body...)
}

func custom(name string, body []byte) []byte {
	return sectionBytes(sectionCustom, append(append([]byte{byte(len(name))}, name...), body...))
}

// testModule is a module with one imported and two defined functions and a
// name section naming them as the Go linker does.
func testModule() []byte {
	m := slices.Clone(magic)
	m = append(m, sectionBytes(1, []byte{1, 0x60, 0, 0})...)                                   // type: () -> ()
	m = append(m, sectionBytes(sectionImport, []byte{1, 1, 'm', 1, 'f', 0, 0})...)             // import m.f: func 0
	m = append(m, sectionBytes(3, []byte{2, 0, 0})...)                                         // two functions of type 0
	m = append(m, sectionBytes(sectionCode, []byte{2, 2, 0, 0x0b, 4, 0, 0x01, 0x01, 0x0b})...) // bodies: end; nop nop end
	names := []byte{3}
	for i, n := range []string{"m.f", "github.com_tidwall_gjson.Get", "github.com_didlight_didlight_core_did.__Document_.Sign"} {
		names = append(append(names, byte(i), byte(len(n))), n...)
	}
	m = append(m, custom("name", append([]byte{1, byte(len(names))}, names...))...)
	return m
}

func TestStripAndMeasure(t *testing.T) {
	m := testModule()
	stripped, err := Strip(m)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stripped, []byte("gjson")) || !bytes.HasPrefix(m, stripped) {
		t.Errorf("stripped module %x", stripped)
	}
	sz, err := Measure(m)
	if err != nil {
		t.Fatal(err)
	}
	if sz.Module.Raw != len(stripped) || sz.Code.Raw != 11 {
		t.Errorf("sizes %+v", sz)
	}
	got := map[string]int{}
	for _, p := range sz.Pkgs {
		got[p.Name] = p.Raw
	}
	if len(got) != 2 || got["github.com/tidwall/gjson"] != 3 || got["github.com/didlight/didlight/core/did"] != 5 {
		t.Errorf("packages %+v", sz.Pkgs)
	}
	if _, err := Measure(stripped); err == nil || !strings.Contains(err.Error(), "no function names") {
		t.Errorf("measuring a stripped module: %v", err)
	}
}

func TestMalformedModules(t *testing.T) {
	m := testModule()
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not wasm":  []byte("\x7fELF\x02\x01\x01\x00"),
		"truncated": m[:len(m)-3],
		"bad size":  append(slices.Clone(magic), 1, 0xff),
	} {
		if _, err := Strip(b); err == nil {
			t.Errorf("Strip(%s): no error", name)
		}
		if _, err := Measure(b); err == nil {
			t.Errorf("Measure(%s): no error", name)
		}
	}
}

// TestVectorLengths pins that a vector claiming more elements than the
// bytes left fails at once: a loop over 2^62 elements, each failing to
// read, would not end (FuzzMeasure found one in the import section).
func TestVectorLengths(t *testing.T) {
	huge := binary.AppendUvarint(nil, 1<<62)
	module := func(sections ...[]byte) []byte { return slices.Concat(append([][]byte{magic}, sections...)...) }
	noNames := custom("name", []byte{1, 1, 0})
	for name, m := range map[string][]byte{
		"imports": module(sectionBytes(sectionImport, huge), noNames),
		"code":    module(sectionBytes(sectionCode, huge), noNames),
		"names":   module(custom("name", append([]byte{1, byte(len(huge))}, huge...))),
		"data":    module(sectionBytes(sectionData, huge), noNames),
	} {
		if _, err := Measure(m); err == nil || !strings.Contains(err.Error(), "vector of 4611686018427387904 elements") {
			t.Errorf("Measure(%s): %v, want a vector too long for its bytes", name, err)
		}
	}
}

func TestPackageOf(t *testing.T) {
	for fn, want := range map[string]string{
		"runtime.mallocgc":                                       "runtime",
		"fmt.__pp_.doPrintf":                                     "fmt",
		"github.com_tidwall_gjson.Get":                           "github.com/tidwall/gjson",
		"golang.org_x_crypto_ripemd160._Block":                   "golang.org/x/crypto/ripemd160",
		"vendor_golang.org_x_crypto_cryptobyte.String.Read":      "vendor/golang.org/x/crypto/cryptobyte",
		"crypto_internal_fips140_nistec_fiat.p256Mul":            "crypto/internal/fips140/nistec/fiat",
		"slices.insertionSortCmpFunc_go.shape.string_":           "slices",
		"type_.eq.github.com_didlight_didlight_core_ela.Input":   "type:",
		"github.com_didlight_didlight_core_did.__Document_.Sign": "github.com/didlight/didlight/core/did",
		"noPackage": "noPackage",
	} {
		if got := packageOf(fn); got != want {
			t.Errorf("packageOf(%q) = %q, want %q", fn, got, want)
		}
	}
}

// FuzzMeasure reads any bytes as a module: errors, never a panic.
func FuzzMeasure(f *testing.F) {
	f.Add(testModule())
	f.Add(slices.Clone(magic))
	f.Fuzz(func(t *testing.T, b []byte) {
		if sz, err := Measure(b); err == nil && sz.Module.Raw > len(b) {
			t.Fatalf("stripped module of %d bytes from %d", sz.Module.Raw, len(b))
		}
		Strip(b)
	})
}

// symbolTable builds a memory image holding a runtime symbol table header
// at 64, the tables pctab and a _func per element of funcs (pcsp, pcfile,
// pcln, npcdata, pcdata[0]); it returns the image and where each _func is.
func symbolTable(t testing.TB, pctab []byte, funcs [][5]uint32) ([]byte, []int) {
	t.Helper()
	const h = 64
	image := make([]byte, 1024)
	binary.LittleEndian.PutUint32(image[h:], pclntabMagic)
	image[h+6], image[h+7] = 1, ptrSize
	pctabOff, pclnOff := 128, 256
	for i, v := range []int{len(funcs), 0, 0, 0, 0, 0, pctabOff, pclnOff} {
		binary.LittleEndian.PutUint64(image[h+8+8*i:], uint64(v))
	}
	copy(image[h+pctabOff:], pctab)
	var at []int
	for k, f := range funcs { // pcsp, pcfile, pcln, npcdata=1, pcdata[0]
		funcOff := 64 + 64*k
		binary.LittleEndian.PutUint32(image[h+pclnOff+8*k+4:], uint32(funcOff))
		p := h + pclnOff + funcOff
		for i, m := range []int{funcPCSP, funcPCFile, funcPCLine, funcNPCData, funcSize} {
			binary.LittleEndian.PutUint32(image[p+m:], f[i])
		}
		at = append(at, p)
	}

	return image, at
}

// FuzzDropLines edits any bytes as a module's memory holding the runtime's
// symbol table: never a panic, and a refusal leaves the bytes as they were.
func FuzzDropLines(f *testing.F) {
	image, _ := symbolTable(f, []byte{0xee, 2, 3, 0, 4, 5, 6, 7, 0, 8, 9, 0}, [][5]uint32{{1, 4, 9, 1, 0}, {4, 9, 1, 1, 4}})
	f.Add(image)
	f.Add(image[:300])
	f.Fuzz(func(t *testing.T, image []byte) {
		before := slices.Clone(image)
		if dropLines(image) != nil && !bytes.Equal(image, before) {
			t.Errorf("refused, but changed the image")
		}
	})
}

func TestDropLines(t *testing.T) {
	// Three tables of (value delta, pc delta) pairs ended by a zero: at 1,
	// 4 and 9. The first function's file table is the second one's stack
	// table and the second's line table the first's stack table: they stay.
	pctab := []byte{0xee, 2, 3, 0, 4, 5, 6, 7, 0, 8, 9, 0}
	image, funcs := symbolTable(t, pctab, [][5]uint32{{1, 4, 9, 1, 0}, {4, 9, 1, 1, 4}})
	if err := dropLines(image); err != nil {
		t.Fatal(err)
	}
	want := []byte{0xee, 2, 3, 0, 4, 5, 6, 7, 0, 0, 0, 0}
	if got := image[64+128 : 64+128+len(pctab)]; !bytes.Equal(got, want) {
		t.Errorf("pctab % x, want % x", got, want)
	}
	for _, p := range funcs {
		if f, l := binary.LittleEndian.Uint32(image[p+funcPCFile:]), binary.LittleEndian.Uint32(image[p+funcPCLine:]); f != 0 || l != 0 {
			t.Errorf("_func at %d still refers to file and line tables %d, %d", p, f, l)
		}
		if sp := binary.LittleEndian.Uint32(image[p+funcPCSP:]); sp == 0 {
			t.Errorf("_func at %d lost its stack table", p)
		}
	}
}

func TestDropLinesRefuses(t *testing.T) {
	image, _ := symbolTable(t, []byte{0, 2, 3, 0}, [][5]uint32{{1, 1, 1, 0, 0}})
	twice := append(slices.Clone(image), image...)
	truncated := image[:300]
	unended, _ := symbolTable(t, []byte{0, 2, 3}, [][5]uint32{{1, 1, 1, 0, 0}})
	header := func(word int, v uint64) []byte { // image with a header word set
		b := slices.Clone(image)
		binary.LittleEndian.PutUint64(b[64+8+8*word:], v)
		return b
	}
	pcdata, _ := symbolTable(t, []byte{0, 2, 3, 0}, [][5]uint32{{1, 1, 1, 1 << 30, 0}})
	past, _ := symbolTable(t, []byte{0, 2, 3, 0}, [][5]uint32{{200, 1, 1, 0, 0}})
	// Tables at 1, 3 and 5 all run to the same end: 357 bytes read of 128.
	long := append(append([]byte{0}, bytes.Repeat([]byte{2}, 120)...), 0)
	overlapping, _ := symbolTable(t, long, [][5]uint32{{1, 0, 0, 0, 0}, {3, 0, 0, 0, 0}, {5, 0, 0, 0, 0}})
	for name, b := range map[string][]byte{
		"no table":          make([]byte, 1024),
		"two":               twice,
		"truncated":         truncated,
		"unended":           unended[:64+128+4],
		"nfunc overflows":   header(0, 1<<61),
		"pctab before":      header(6, 1<<63),
		"pcdata past data":  pcdata,
		"table past pctab":  past,
		"overlapping table": overlapping,
	} {
		if err := dropLines(b); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// The data section round-trips through an image, leaving out runs of
// zeros.
func TestDataSection(t *testing.T) {
	image := make([]byte, 300)
	copy(image[10:], "abc")
	copy(image[20:], "d\x00\x00e") // a short run of zeros stays inside a segment
	copy(image[200:], "fgh")
	body, n := dataSection(image)
	if n != 2 {
		t.Errorf("%d segments, want 2", n)
	}
	got, err := memoryImage(body)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, image[:203]) {
		t.Errorf("image %q", got)
	}
	for _, v := range []int64{0, 63, 64, -1, -65, 1 << 20, 1<<31 - 1} {
		r := reader{b: appendSLEB(nil, v)}
		if got := r.sint(); int64(got) != v || r.err != nil {
			t.Errorf("SLEB %d: read %d (%v)", v, got, r.err)
		}
	}
}
