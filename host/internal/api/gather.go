package api

import (
	"bytes"
	"context"
	"net"
	"net/http"
)

// net/http writes a response through a 4 KB buffer on its connection
// (net/http server.go, newBufioWriterSize(..., 4<<10)): an answer longer
// than that, headers included, leaves in several write(2) calls, each a
// TCP segment the kernel sends and the client is woken for. A resolve
// with its whole history is often 5–7 KB; a query page, 19 KB. The
// listeners' connections are gatherConns, and writeAnswer has such an
// answer gathered and sent in one write.
const (
	// gatherFrom is the shortest body writeAnswer gathers: any shorter,
	// with the half kilobyte of headers its answers have at most (about
	// 160 bytes), fits net/http's buffer and leaves in one write anyway.
	gatherFrom = 4<<10 - 512
	// gatherTo is the longest: a longer answer leaves as net/http writes
	// it, without the copy gathering costs.
	gatherTo = 256 << 10
)

// gatherListener makes the connections it accepts gatherConns.
type gatherListener struct{ net.Listener }

// Accept implements net.Listener.
func (l gatherListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &gatherConn{Conn: c}, nil
}

// gatherConn is a connection whose writes can be gathered and sent in one.
// It is used by the goroutine net/http serves it with, which runs the
// handlers: only they start and end a gathering.
type gatherConn struct {
	net.Conn
	gathered *bytes.Buffer // while gathering: what was written; nil otherwise
}

// Write implements net.Conn: while gathering it keeps p.
func (c *gatherConn) Write(p []byte) (int, error) {
	if c.gathered != nil {
		return c.gathered.Write(p)
	}
	return c.Conn.Write(p)
}

// CloseWrite half-closes the connection when it can, as net/http does to
// a TCP connection it closes after an error (closeWriteAndWait).
func (c *gatherConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// connKey is the context key of a request's gatherConn.
type connKey struct{}

// withConn puts the connection of a request in its context (an
// http.Server's ConnContext).
func withConn(ctx context.Context, c net.Conn) context.Context {
	if g, ok := c.(*gatherConn); ok {
		return context.WithValue(ctx, connKey{}, g)
	}
	return ctx
}

// writeAnswer writes the JSON body b with status 200 as writeBody does; an
// answer of gatherFrom to gatherTo bytes on a gatherConn leaves in one
// write. A failed write closes the connection, which net/http then finds.
func writeAnswer(w http.ResponseWriter, r *http.Request, b []byte) {
	c, ok := r.Context().Value(connKey{}).(*gatherConn)
	if !ok || len(b) < gatherFrom || len(b) > gatherTo {
		writeBody(w, http.StatusOK, b)
		return
	}
	c.gathered = getBuffer()
	writeBody(w, http.StatusOK, b)
	err := http.NewResponseController(w).Flush() // all of it into c.gathered
	out := c.gathered
	c.gathered = nil
	if err == nil {
		_, err = c.Conn.Write(out.Bytes())
	}
	putBuffer(out)
	if err != nil {
		c.Conn.Close()
	}
}
