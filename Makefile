# didlight — build, test and run targets. Two commands matter on a fresh
# machine: `make run` and `make test`; the rest are for working on the code.

GO        ?= go
PKGS      ?= ./...
FUZZTIME  ?= 5s
BENCHTIME ?= 1s

.PHONY: run test lint vet staticcheck fmt-check unit fuzz bench wasm jstest

## run: start a node on the embedded default store with demo data.
run:
	$(GO) run ./cmd/didlight node --demo

## test: every check CI runs — formatting, vet, staticcheck, all tests, brief fuzzing.
test: lint unit jstest fuzz

## lint: gofmt, go vet and staticcheck; any finding fails.
lint: fmt-check vet staticcheck

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./core/...

staticcheck:
	$(GO) tool staticcheck $(PKGS)

## unit: every Go test, with the race detector where the host code runs concurrently.
unit:
	GOOS=wasip1 GOARCH=wasm $(GO) build ./core/...
	$(GO) test -count=1 $(PKGS)

## fuzz: run each fuzz target for FUZZTIME (default 5s); the corpus in testdata always runs in `unit`.
fuzz:
	FUZZTIME=$(FUZZTIME) .ci/fuzz

## bench: every benchmark, once, with allocation counts.
bench:
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) $(PKGS)

## wasm: build the WebAssembly module into wasm/js/didlight.wasm; report its size raw and gzipped, and what it is made of.
wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./wasm
	$(GO) run ./wasm/internal/cmd/wasmbuild -o wasm/js/didlight.wasm

## jstest: the JS loader's tests in Node (npm ci first on a fresh checkout).
jstest: wasm
	cd wasm/js && { [ -d node_modules ] || npm ci --no-audit --no-fund; } && node --test
