package api

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"testing"
)

// countingListener counts the writes on the connections it accepts.
type countingListener struct {
	net.Listener
	writes atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &countingConn{Conn: c, writes: &l.writes}, nil
}

type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c *countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

// An answer of gatherFrom to gatherTo bytes leaves in one write, intact,
// and the connection serves the next request; others leave as net/http
// writes them.
func TestWriteAnswerGathers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	counted := &countingListener{Listener: ln}
	srv := &http.Server{ConnContext: withConn, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		writeAnswer(w, r, body(n))
	})}
	go srv.Serve(gatherListener{counted})
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}} // one connection, kept alive
	defer client.CloseIdleConnections()
	for i, tc := range []struct {
		n      int
		writes int64 // 0: more than one
	}{
		{100, 1}, {gatherFrom - 1, 1}, {gatherFrom, 1}, {5000, 1}, {19_000, 1}, {gatherTo, 1},
		{gatherTo + 1, 0}, {5000, 1}, {8000, 1},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			before := counted.writes.Load()
			resp, err := client.Get("http://" + ln.Addr().String() + "/?n=" + strconv.Itoa(tc.n))
			if err != nil {
				t.Fatalf("%d bytes: %v", tc.n, err)
			}
			got, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil || !bytes.Equal(got, body(tc.n)) {
				t.Fatalf("%d bytes: read %d bytes (%v), not the answer", tc.n, len(got), err)
			}
			writes := counted.writes.Load() - before
			if tc.writes == 0 && writes < 2 || tc.writes > 0 && writes != tc.writes {
				t.Errorf("%d bytes: %d writes, want %d (0: more than one)", tc.n, writes, tc.writes)
			}
		})
	}
}

// body returns n bytes of a JSON string.
func body(n int) []byte {
	b := bytes.Repeat([]byte("x"), n)
	b[0], b[n-1] = '"', '"'
	return b
}
