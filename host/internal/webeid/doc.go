// Package webeid tests the browser app against EID upstreams.
//
// It holds the browser app's tests against EID upstreams (the recorded
// scenario of a real EID node, or with EID_GETH a live one), in Debian's
// Chromium: the app pointed at an EID endpoint, and served by a light node.
// They live under host because the upstreams do (host/internal/eidtest); the
// app is in web, its harness in host/internal/browsertest.
package webeid
