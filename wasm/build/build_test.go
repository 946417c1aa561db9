package build

import (
	"bytes"
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
	for i, n := range []string{"m.f", "github.com_tidwall_gjson.Get", "didlight_core_did.__Document_.Sign"} {
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
	if len(got) != 2 || got["github.com/tidwall/gjson"] != 3 || got["didlight/core/did"] != 5 {
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

func TestPackageOf(t *testing.T) {
	for fn, want := range map[string]string{
		"runtime.mallocgc":                                  "runtime",
		"fmt.__pp_.doPrintf":                                "fmt",
		"github.com_tidwall_gjson.Get":                      "github.com/tidwall/gjson",
		"golang.org_x_crypto_ripemd160._Block":              "golang.org/x/crypto/ripemd160",
		"vendor_golang.org_x_crypto_cryptobyte.String.Read": "vendor/golang.org/x/crypto/cryptobyte",
		"crypto_internal_fips140_nistec_fiat.p256Mul":       "crypto/internal/fips140/nistec/fiat",
		"slices.insertionSortCmpFunc_go.shape.string_":      "slices",
		"type_.eq.didlight_core_ela.Input":                  "type:",
		"didlight_core_did.__Document_.Sign":                "didlight/core/did",
		"noPackage":                                         "noPackage",
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
