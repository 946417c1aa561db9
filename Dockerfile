# syntax=docker/dockerfile:1
#
# didlight as the did:elastos driver of a DIF Universal Resolver: W3C DID
# Resolution at /1.0/identifiers/{did} on port 8080 (the REST listener: also
# /api/v1 and the browser app), in one of two forms, chosen by a variable:
#
#   DIDLIGHT_LIGHT=mainnet   a light node of EID, the real chain: no chain of
#                            its own; it asks the public EID endpoints (or your
#                            EID nodes' URLs, comma-separated) and verifies
#                            every answer before serving it (docs/light.md)
#   DIDLIGHT_FOLLOW=URL      a follower of a didlight node: it syncs and
#                            verifies its blocks into /data
#                            (docs/w3c-resolution.md)
#
#   docker build -t didlight/driver-did-elastos .
#   docker run -p 8080:8080 -e DIDLIGHT_LIGHT=mainnet didlight/driver-did-elastos
#   docker run -p 8080:8080 -v didlight-data:/data \
#     -e DIDLIGHT_FOLLOW=http://node.example:20334 didlight/driver-did-elastos
#
# Given neither, the node refuses to start (DIDLIGHT_REQUIRE_UPSTREAM): a
# driver never serves a devnet of its own. At run time the image reaches
# nothing but its upstream. Every flag of `didlight node` can be given after
# the image name or as its DIDLIGHT_* variable (the command line wins).

# The WASI shim the browser app loads, from the lockfile.
FROM node:20-bookworm-slim AS shim
WORKDIR /src/wasm/js
COPY wasm/js/package.json wasm/js/package-lock.json ./
RUN npm ci --no-audit --no-fund

# The binary, with the WebAssembly module and the shim embedded (as `make
# build` makes it), static and stripped.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=shim /src/wasm/js/node_modules wasm/js/node_modules
RUN go run ./host/internal/cmd/wasmbuild -o wasm/js/didlight.wasm
RUN CGO_ENABLED=0 go build -tags didlight_wasm -trimpath -ldflags="-s -w" -o /out/didlight ./cmd/didlight
RUN mkdir -p /out/data

# The driver: the binary alone on a distroless base (CA certificates for an
# https upstream, a non-root user, no shell).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/didlight /didlight
COPY --from=build --chown=65532:65532 /out/data /data
ENV DIDLIGHT_DATADIR=/data DIDLIGHT_REST_ADDR=0.0.0.0:8080 DIDLIGHT_RPC_ADDR=0.0.0.0:20336 DIDLIGHT_REQUIRE_UPSTREAM=true
VOLUME /data
EXPOSE 8080 20336
USER nonroot
ENTRYPOINT ["/didlight", "node"]
