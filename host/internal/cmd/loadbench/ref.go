package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"
)

// refBody is the reference server's answer to every request: a small,
// fixed JSON-RPC result, about the size of a node's cheapest answers.
const refBody = `{"jsonrpc":"2.0","id":1,"result":{"height":60}}`

// sizeHeader asks the reference for an answer of that many bytes (with
// -sized-ref): a JSON-RPC result padded to the size of the node's answer.
const sizeHeader = "X-Loadbench-Size"

// padding is what a sized answer is padded with; it bounds the size.
var padding = bytes.Repeat([]byte("x"), 1<<20)

// The sized answer around its padding.
const sizedStart, sizedEnd = `{"jsonrpc":"2.0","id":1,"result":"`, `"}`

// refHandler is the trivial handler every node request kind is compared
// with: it reads the request body and writes refBody, nothing else. It is
// what a Go net/http server costs when the handler does no work. Asked for
// a larger answer (sizeHeader), it writes that many bytes, with their
// length, as the node does.
func refHandler(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	n, _ := strconv.Atoi(r.Header.Get(sizeHeader))
	pad := min(n-len(sizedStart)-len(sizedEnd), len(padding))
	if pad <= 0 {
		io.WriteString(w, refBody)
		return
	}
	h.Set("Content-Length", strconv.Itoa(len(sizedStart)+pad+len(sizedEnd)))
	io.WriteString(w, sizedStart)
	w.Write(padding[:pad])
	io.WriteString(w, sizedEnd)
}

// runRef serves refHandler on addr until the process is killed, with the
// node's own server timeouts, after printing "ref http://ADDR" on stdout so
// that the parent learns the port.
func runRef(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stdout, "ref http://%s\n", l.Addr())
	// The timeouts of host/internal/api/server.go: each deadline the server
	// sets costs it per request, so both servers pay the same.
	srv := &http.Server{
		Handler:           http.HandlerFunc(refHandler),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
	}
	return srv.Serve(l)
}
