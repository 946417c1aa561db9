# didlight — build, test and run targets. Two commands matter on a fresh
# machine: `make run` and `make test`; the rest are for working on the code.

GO        ?= go
PKGS      ?= ./...
FUZZTIME  ?= 5s
BENCHTIME ?= 1s

.PHONY: run build noshim test deps chromium haproxy clustertest jsdeps lint vet staticcheck fmt-check unit soak fuzz bench wasm jstest npmpack sdkinterop sdkbench loadbench w3cbench servicebench lightbench scalebench wrk eidrecord eidtest eidgeth eidbench

## run: start a node on the embedded default store with demo data (and the browser app, with its module).
run: build
	./didlight node --demo

# The browser app runs the module under a WASI shim from npm (wasm/js's
# lockfile). Without npm, `make build` and `make run` still succeed: the
# binary embeds the module (--engine wasm, the CLI) but not the shim, so the
# browser app shows answers unverified and says why (as a binary without the
# module does), and the build prints how to get it. We chose this over
# installing Node with apt, as `chromium` installs Chromium for the tests,
# because `make run` is a newcomer's first command: it should not ask for
# root or change the system, should work where there is no apt, and Debian
# 12's own nodejs (18) is older than the loader supports (20). `make test`
# does need Node and npm: the loader's tests run in Node.
SHIM := wasm/js/node_modules/@bjorn3/browser_wasi_shim/package.json
ifneq ($(wildcard $(SHIM)),)
BUILD_TAGS := didlight_wasm
SHIM_STEP  :=
else ifneq ($(shell command -v npm 2>/dev/null),)
BUILD_TAGS := didlight_wasm
SHIM_STEP  := jsdeps
else
BUILD_TAGS := didlight_wasm,didlight_noshim
SHIM_STEP  := noshim
endif

## build: ./didlight with the WebAssembly module and its WASI shim embedded (the browser app and --engine wasm need them).
build: wasm $(SHIM_STEP)
	$(GO) build -tags $(BUILD_TAGS) -o didlight ./cmd/didlight

noshim:
	@echo "note: npm not found: building without the browser's WASI shim. The node, the CLI and --engine wasm"
	@echo "      work; the browser app shows answers unverified. Install Node.js 20+ with npm, then make build."

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

## deps: what the tests need beyond Go: Debian's Chromium (browser tests) and the loader's npm packages.
deps: chromium jsdeps

chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "installing Debian's chromium for the browser tests"; \
		sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends chromium; \
	fi

wrk:
	@if ! command -v wrk >/dev/null; then \
		echo "installing Debian's wrk for the load benchmark"; \
		sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends wrk; \
	fi

haproxy:
	@if ! command -v haproxy >/dev/null; then \
		echo "installing Debian's haproxy for the cluster test"; \
		sudo=$$([ "$$(id -u)" = 0 ] || echo sudo); \
		$$sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -q --no-install-recommends haproxy; \
	fi

jsdeps:
	@command -v npm >/dev/null || { echo "npm not found: the loader's tests and the browser's WASI shim need Node.js 20+ with npm"; exit 1; }
	cd wasm/js && { [ -d node_modules ] || npm ci --no-audit --no-fund; }

## unit: every Go test; host/ (the concurrent node) runs under the race detector, but for host/cli, whose
## nodes run as child processes the detector does not reach.
unit: deps
	GOOS=wasip1 GOARCH=wasm $(GO) build ./core/...
	@pkgs=$$($(GO) list $(PKGS)); \
	racy=$$(echo "$$pkgs" | grep '^github.com/didlight/didlight/host/' | grep -v '/host/cli$$' || true); \
	plain=$$(echo "$$pkgs" | grep -vxF "$$racy" || true); \
	if [ -n "$$plain" ]; then echo "go test $(PKGS) (outside host/, and host/cli)"; $(GO) test -count=1 $$plain || exit 1; fi; \
	if [ -n "$$racy" ]; then echo "go test -race (host/ but host/cli)"; $(GO) test -race -count=1 $$racy || exit 1; fi

## soak: the long crash tests (thousands of SIGKILLs of a committing node), not part of `test`.
soak:
	DIDLIGHT_SOAK=1 $(GO) test -count=1 -run '^TestCrash' -timeout 60m ./host/internal/store/bolt ./host/internal/chain

## fuzz: run each fuzz target for FUZZTIME (default 5s); the corpus in testdata always runs in `unit`.
fuzz:
	FUZZTIME=$(FUZZTIME) .ci/fuzz

## bench: every benchmark, once, with allocation counts.
bench:
	$(GO) test -run='^$$' -bench=. -benchmem -benchtime=$(BENCHTIME) $(PKGS)

## wasm: build the WebAssembly module into wasm/js/didlight.wasm, and its brotli form (served to browsers) beside it; report its size and what it is made of.
wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./wasm
	$(GO) run ./host/internal/cmd/wasmbuild -o wasm/js/didlight.wasm

## jstest: the JS loader's tests in Node (npm ci first on a fresh checkout).
jstest: wasm jsdeps
	cd wasm/js && node --test

## npmpack: the npm package didlight (wasm/js/README.md) as a tarball in wasm/js, from the module just built.
npmpack: wasm jsdeps
	cd wasm/js && npm pack

## sdkinterop: the official Elastos DID JS SDK against a fresh `didlight node --mem`, verbosely (`unit` runs it too).
sdkinterop:
	$(GO) test -count=1 -race -v -run '^TestSDKInterop$$' ./host/internal/api/sdkinterop

## sdkbench: verify a 10-operation history with didlight's JS loaders and with the SDK's own verification, in one run.
sdkbench: wasm jsdeps
	cd host/internal/api/sdkinterop && { [ -d node_modules ] || npm ci --ignore-scripts --no-audit --no-fund; }
	cd wasm/js && node --no-warnings bench.mjs ../../host/internal/api/sdkinterop/sdkverify.mjs

## loadbench: the node's serving speed measured from outside: wrk (its own process) drives the node and a trivial
## handler (another process) in turn, A/B per request kind and round; req/s, p50/p99 and server CPU per request, each
## as a ratio to the handler; then an open loop at a fixed rate (its own generator process): p50/p99/p99.9 from each request's due time.
## LOADBENCH_FLAGS passes flags (-duration, -rounds, -connections, -dids, -kinds, -versus, -sized-ref, -open-share, -open-rate, -datadir, -json).
loadbench: wrk
	$(GO) run ./host/internal/cmd/loadbench $(LOADBENCH_FLAGS)

## clustertest: a producer, three followers and HAProxy (deploy/haproxy.cfg, as deploy/compose.yaml runs them) as processes, driven by wrk
## through the balancer: a follower killed with SIGKILL and started again, a follower whose upstream link is slowed, then cut; fails on a request
## failed outside the balancer's check window, or a follower not taken out by /ready and put back (docs/operations.md). CLUSTERTEST_FLAGS adds flags.
clustertest: wrk haproxy
	$(GO) run ./host/internal/cmd/clustertest $(CLUSTERTEST_FLAGS)

## w3cbench: W3C resolution (GET /1.0/identifiers/{did}) against resolvedid, both measured by loadbench in one run,
## with their ratio (-versus resolvedid); LOADBENCH_FLAGS adds flags (-duration, -rounds, …).
w3cbench: wrk
	$(GO) run ./host/internal/cmd/loadbench -kinds resolvedid,w3c -versus resolvedid $(LOADBENCH_FLAGS)

## servicebench: the node as a public service, measured by loadbench in one run (-service): with and without metrics
## (bare-*), with a rate limit counting every request (limited-*), answers compressed (*-gzip, w3c-br), revalidated
## (w3c-304) and asked afresh (w3c-fresh), beside resolvedid and w3c; LOADBENCH_FLAGS adds flags (-duration, -rounds, …).
servicebench: wrk
	$(GO) run ./host/internal/cmd/loadbench -service -kinds resolvedid,bare-resolvedid,limited-resolvedid,resolvedid-gzip,w3c,bare-w3c,limited-w3c,w3c-gzip,w3c-br,w3c-304,w3c-fresh $(LOADBENCH_FLAGS)

## lightbench: a light node (didlight node --light) in front of the recorded EID scenario's replay, answering from what it kept,
## against resolvedid on a devnet node, both measured by loadbench in one run (-versus resolvedid); LOADBENCH_FLAGS adds flags.
lightbench: wrk
	$(GO) run ./host/internal/cmd/loadbench -light -kinds resolvedid,light-resolvedid,light-did_resolveDID,light-w3c -versus resolvedid $(LOADBENCH_FLAGS)

## scalebench: the node as its chain grows: generates chains of 10k and 100k DIDs (cached in $TMPDIR/didlight-scalebench),
## then measures generation, store size, start, RSS, resolve and query CPU and a follower's catch-up on each, in processes
## of their own (docs/scale.md). SCALEBENCH_FLAGS passes flags (-sizes 10000,100000,1000000, -requests, -cache).
scalebench:
	$(GO) run ./host/internal/cmd/scalebench $(SCALEBENCH_FLAGS)

# A real EID node, and everything that talks to it, runs only in a network namespace of its own: EID's SPV
# client dials the ELA main chain's public peers. Both targets build first, then run inside `unshare -n`
# (root, or a user namespace), where nothing but loopback exists. docs/eid-testing.md says which geth.
EID_GETH   ?=
EID_SOURCE ?=
EIDTEST_BIN := $(or $(TMPDIR),/tmp)/didlight-eidtest

eidgeth:
	@[ -n "$(EID_GETH)" ] && [ -x "$(EID_GETH)" ] || { echo "EID_GETH=/path/to/geth is required: a geth built from elastos/Elastos.ELA.SideChain.EID (docs/eid-testing.md)"; exit 1; }

## eidrecord: run the EID scenario on a fresh private EID node (EID_GETH=/path/to/geth) and record its answers into
## host/internal/eidtest/testdata/recording; EID_SOURCE notes what the geth was built from.
eidrecord: eidgeth
	mkdir -p $(EIDTEST_BIN)
	$(GO) build -o $(EIDTEST_BIN)/eidrecord ./host/internal/cmd/eidrecord
	unshare -n sh -c 'ip link set lo up && exec "$$0" -geth "$$1" -source "$$2"' $(EIDTEST_BIN)/eidrecord "$(EID_GETH)" "$(EID_SOURCE)"

## eidbench: side by side in one run, inside a network namespace of its own: a live private EID node (EID_GETH=/path/to/geth),
## filled by the EID scenario, a light node in front of it answering from what it kept, and an EID follower of it answering from
## its index; did_resolveDID as the SDKs send it (and the follower's query), requests/s and server CPU of each
## (loadbench -eid-geth -eid-follow -versus eid-did_resolveDID). LOADBENCH_FLAGS adds flags.
eidbench: eidgeth wrk build
	mkdir -p $(EIDTEST_BIN)
	$(GO) build -o $(EIDTEST_BIN)/loadbench ./host/internal/cmd/loadbench
	unshare -n sh -c 'ip link set lo up && exec "$$0" -node ./didlight -eid-geth "$$1" -eid-follow -kinds eid-did_resolveDID,light-did_resolveDID,light-resolvedid,eidf-did_resolveDID,eidf-query -versus eid-did_resolveDID -open-share 0 $$2' \
		$(EIDTEST_BIN)/loadbench "$(EID_GETH)" "$(LOADBENCH_FLAGS)"

## eidtest: the tests that take an EID upstream (those importing host/internal/eidtest), against a live private
## EID node (EID_GETH=/path/to/geth) on which the scenario runs fresh, instead of the recording. The network namespace
## reaches no npm registry, so host/wasmrt's TestPackage (an npm install of the packed package; make test runs it) is skipped.
eidtest: eidgeth
	@pkgs=$$($(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... \
		| awk '$$1 ~ /host\/internal\/eidtest$$/ || / github.com\/didlight\/didlight\/host\/internal\/eidtest( |$$)/ {print $$1}'); \
	echo "live EID tests in: $$pkgs"; \
	$(GO) test -count=1 -run '^$$' $$pkgs >/dev/null && \
	unshare -n sh -c 'ip link set lo up && EID_GETH="$$0" exec $(GO) test -count=1 -timeout 30m -skip "^TestPackage\$$" $$1' "$(EID_GETH)" "$$pkgs"
