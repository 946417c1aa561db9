package wasmbuild

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// Strip returns the module as it ships: without its name section (the
// function names), as the linker's -s flag leaves it, and without the Go
// runtime's file and line tables (see dropLines), its data segments
// re-cut around the runs of zeros left.
func Strip(module []byte) ([]byte, error) {
	ss, err := sections(module)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), magic...)
	segments := -1
	for _, s := range ss {
		switch {
		case s.id == sectionCustom && s.name == "name":
			continue
		case s.id == sectionData:
			image, err := memoryImage(s.body)
			if err == nil {
				err = dropLines(image)
			}
			if err != nil {
				return nil, err
			}
			var body []byte
			body, segments = dataSection(image)
			out = appendSection(out, sectionData, body)
			continue
		}
		out = append(out, s.raw...)
	}
	if segments >= 0 {
		return setDataCount(out, segments)
	}
	return out, nil
}

// appendSection appends a section: its id, its size and body.
func appendSection(b []byte, id byte, body []byte) []byte {
	b = binary.AppendUvarint(append(b, id), uint64(len(body)))
	return append(b, body...)
}

// setDataCount rewrites the data count section, when there is one, to n.
func setDataCount(module []byte, n int) ([]byte, error) {
	ss, err := sections(module)
	if err != nil {
		return nil, err
	}
	out := append([]byte(nil), magic...)
	for _, s := range ss {
		if s.id == sectionDataCount {
			out = appendSection(out, sectionDataCount, binary.AppendUvarint(nil, uint64(n)))
			continue
		}
		out = append(out, s.raw...)
	}
	return out, nil
}

// Sizes says what a module is made of, in bytes as stored and gzipped
// (level 9, the way servers precompress).
type Sizes struct {
	Module Part   // the stripped module
	Code   Part   // its code section: the functions
	Data   Part   // its data section (stripped): constants, type data, tables
	Other  Part   // everything else (imports, exports, types, tables...)
	Pkgs   []Part // the code of each Go package, largest gzipped first
}

// Part is a named part of a module. The gzipped size is that of the part
// compressed on its own.
type Part struct {
	Name      string
	Raw, Gzip int
}

// Measure measures a module built with its name section (see Build): the
// stripped module, its sections, and the code each Go package contributes.
func Measure(module []byte) (*Sizes, error) {
	stripped, err := Strip(module)
	if err != nil {
		return nil, err
	}
	ss, err := sections(module)
	if err != nil {
		return nil, err
	}
	sz := &Sizes{Module: part("module", stripped)}
	var imports int
	var names map[uint64]string
	var code []byte
	for _, s := range ss {
		switch {
		case s.id == sectionCode:
			code = s.body
			sz.Code = part("code", s.raw)
		case s.id == sectionImport:
			if imports, err = functionImports(s.body); err != nil {
				return nil, err
			}
		case s.id == sectionCustom && s.name == "name":
			if names, err = functionNames(s.body); err != nil {
				return nil, err
			}
			continue
		}
		if s.id != sectionCode && s.id != sectionData {
			sz.Other.Raw += len(s.raw)
		}
	}
	if names == nil {
		return nil, fmt.Errorf("build: the module has no function names (built with -s?)")
	}
	shipped, _ := sections(stripped) // Strip wrote it
	for _, s := range shipped {
		if s.id == sectionData {
			sz.Data = part("data", s.raw)
		}
	}
	sz.Other = Part{Name: "other", Raw: sz.Other.Raw, Gzip: sz.Module.Gzip - sz.Code.Gzip - sz.Data.Gzip}
	if sz.Pkgs, err = packages(code, imports, names); err != nil {
		return nil, err
	}
	return sz, nil
}

func part(name string, b []byte) Part { return Part{Name: name, Raw: len(b), Gzip: gzipSize(b)} }

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression) // a valid level never fails
	w.Write(b)
	w.Close()
	return buf.Len()
}

// functionImports counts the imported functions, which come first in the
// function index space.
func functionImports(body []byte) (int, error) {
	r := reader{b: body}
	n := 0
	for range r.count() {
		r.bytes(int(r.uint())) // module
		r.bytes(int(r.uint())) // name
		switch kind := r.byte(); kind {
		case 0: // function: type index
			r.uint()
			n++
		default:
			r.fail(fmt.Sprintf("import of kind %d", kind)) // Go modules import functions only
		}
	}
	return n, r.err
}

// functionNames reads the function names subsection of the name section.
func functionNames(body []byte) (map[uint64]string, error) {
	r := reader{b: body}
	for r.off < len(r.b) && r.err == nil {
		id := r.byte()
		sub := reader{b: r.bytes(int(r.uint()))}
		if id != 1 {
			continue
		}
		names := map[uint64]string{}
		for range sub.count() {
			idx := sub.uint()
			names[idx] = string(sub.bytes(int(sub.uint())))
		}
		return names, sub.err
	}
	return nil, r.err
}

// packages adds up the function bodies of the code section by Go package.
func packages(code []byte, imports int, names map[uint64]string) ([]Part, error) {
	r := reader{b: code}
	bodies := map[string][]byte{}
	for i := range r.count() {
		start := r.off
		r.bytes(int(r.uint()))
		pkg := packageOf(names[uint64(imports)+i])
		bodies[pkg] = append(bodies[pkg], code[start:r.off]...)
	}
	if r.err != nil {
		return nil, r.err
	}
	var out []Part
	for name, b := range bodies {
		out = append(out, part(name, b))
	}
	slices.SortFunc(out, func(a, b Part) int { return cmp.Or(cmp.Compare(b.Gzip, a.Gzip), strings.Compare(a.Name, b.Name)) })
	return out, nil
}

// packageOf returns the package of a function as the Go linker names it in
// WebAssembly: the import path with '/' written '_', a '.', then the
// function ("github.com_tidwall_gjson.Get", "fmt.__pp_.doPrintf").
// Functions the compiler generates (type equality and hashing) form "type:".
func packageOf(fn string) string {
	prefix, rest := "", fn
	if strings.HasPrefix(rest, "vendor_") {
		prefix, rest = "vendor_", rest[len("vendor_"):]
	}
	if i := strings.IndexByte(rest, '_'); i > 0 && isHost(rest[:i]) {
		prefix, rest = prefix+rest[:i+1], rest[i+1:]
	}
	i := strings.IndexByte(rest, '.')
	if i < 0 {
		return fn
	}
	pkg := prefix + rest[:i]
	if pkg == "type_" {
		return "type:"
	}
	return strings.ReplaceAll(pkg, "_", "/")
}

// isHost reports whether s is a host name that starts import paths, such
// as github.com or go.etcd.io.
func isHost(s string) bool {
	i := strings.LastIndexByte(s, '.')
	return i > 0 && slices.Contains([]string{"com", "org", "io", "in", "co", "net", "dev"}, s[i+1:])
}
