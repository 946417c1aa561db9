package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"
)

// refBody is the reference server's answer to every request: a small,
// fixed JSON-RPC result, about the size of a node's cheapest answers.
const refBody = `{"jsonrpc":"2.0","id":1,"result":{"height":60}}`

// refHandler is the trivial handler every node request kind is compared
// with: it reads the request body and writes refBody, nothing else. It is
// what a Go net/http server costs when the handler does no work.
func refHandler(w http.ResponseWriter, r *http.Request) {
	io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, refBody)
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
	srv := &http.Server{Handler: http.HandlerFunc(refHandler), ReadHeaderTimeout: 5 * time.Second, IdleTimeout: 120 * time.Second}
	return srv.Serve(l)
}
