// Command wasmbuild builds the didlight WebAssembly module, with its brotli
// form beside it (the -o file with .br added), and reports its size: in
// bytes, gzipped and with brotli, its code and data, and the code of the
// largest Go packages in it. `make wasm` runs it.
//
//	go run ./host/internal/cmd/wasmbuild [-o wasm/js/didlight.wasm] [-top 20]
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/didlight/didlight/host/internal/wasmbuild"
)

func main() {
	out := flag.String("o", "wasm/js/didlight.wasm", "where to write the module")
	dir := flag.String("dir", "wasm", "the module's main package")
	top := flag.Int("top", 20, "how many packages to list")
	flag.Parse()
	log.SetFlags(0)
	module, err := wasmbuild.Build(context.Background(), *dir)
	if err != nil {
		log.Fatal(err)
	}
	sizes, err := wasmbuild.Measure(module)
	if err != nil {
		log.Fatal(err)
	}
	stripped, err := wasmbuild.Strip(module)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, stripped, 0o644); err != nil {
		log.Fatal(err)
	}
	br := wasmbuild.Brotli(stripped)
	if err := os.WriteFile(*out+".br", br, 0o644); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s: %d bytes, %d gzipped (%.2f MB gzipped), %d with brotli (%s.br)\n", *out, sizes.Module.Raw, sizes.Module.Gzip, float64(sizes.Module.Gzip)/1e6, len(br), *out)
	fmt.Printf("%10s %10s  part\n", "bytes", "gzipped")
	for _, p := range []wasmbuild.Part{sizes.Code, sizes.Data, sizes.Other} {
		fmt.Printf("%10d %10d  %s\n", p.Raw, p.Gzip, p.Name)
	}
	fmt.Printf("code of the %d largest packages (gzipped alone):\n", min(*top, len(sizes.Pkgs)))
	for _, p := range sizes.Pkgs[:min(*top, len(sizes.Pkgs))] {
		fmt.Printf("%10d %10d  %s\n", p.Raw, p.Gzip, p.Name)
	}
}
