package main

import (
	"io"
	"net"
	"sync"
	"time"
)

// relay forwards TCP connections to a target. Cut, it closes the
// connections it carries and every new one, as a link that went down
// would; slowed, it holds each piece of the target's answers for a while,
// as a congested link would. It stands between a follower and its
// upstream, to make the follower fall behind while it still serves.
type relay struct {
	ln     net.Listener
	target string

	mu    sync.Mutex // guards cut, delay and conns
	cut   bool
	delay time.Duration
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
	go func() { r.copySlowed(c, up); done <- struct{}{} }()
	<-done
	c.Close()
	up.Close()
	<-done
}

// copySlowed copies the target's answers to the client, each piece held
// for the relay's delay at the time it arrives.
func (r *relay) copySlowed(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			r.mu.Lock()
			d := r.delay
			r.mu.Unlock()
			time.Sleep(d)
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// setDelay slows the link by d for each piece of an answer; 0 restores it.
func (r *relay) setDelay(d time.Duration) {
	r.mu.Lock()
	r.delay = d
	r.mu.Unlock()
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
