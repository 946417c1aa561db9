package main

import (
	"io"
	"net"
	"sync"
)

// relay forwards TCP connections to a target until it is cut: then it
// closes the connections it carries and every new one, as a link that went
// down would, until it is restored. It stands between a follower and its
// upstream, to make the follower fall behind while it still serves.
type relay struct {
	ln     net.Listener
	target string

	mu    sync.Mutex // guards cut and conns
	cut   bool
	conns map[net.Conn]struct{}
}

func newRelay(target string) (*relay, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	r := &relay{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	go r.serve()
	return r, nil
}

func (r *relay) addr() string { return r.ln.Addr().String() }

func (r *relay) serve() {
	for {
		c, err := r.ln.Accept()
		if err != nil {
			return
		}
		go r.forward(c)
	}
}

// forward carries c to the target both ways, unless the link is cut.
func (r *relay) forward(c net.Conn) {
	if !r.track(c) {
		c.Close()
		return
	}
	defer r.untrack(c)
	up, err := net.Dial("tcp", r.target)
	if err != nil {
		c.Close()
		return
	}
	if !r.track(up) {
		up.Close()
		c.Close()
		return
	}
	defer r.untrack(up)
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, c); done <- struct{}{} }()
	go func() { io.Copy(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	<-done
}

// track records a connection the relay carries; false once the link is cut.
func (r *relay) track(c net.Conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cut {
		return false
	}
	r.conns[c] = struct{}{}
	return true
}

func (r *relay) untrack(c net.Conn) {
	r.mu.Lock()
	delete(r.conns, c)
	r.mu.Unlock()
}

// setCut cuts the link (closing what it carries) or restores it.
func (r *relay) setCut(cut bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.cut = cut
	if cut {
		for c := range r.conns {
			c.Close()
		}
	}
}

func (r *relay) close() {
	r.ln.Close()
	r.setCut(true)
}
