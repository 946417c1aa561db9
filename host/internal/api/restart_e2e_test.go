package api_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// GET /api/v1/restart restarts the REST service: connections open before it
// are closed, and the service answers again on the same address. Loopback
// clients may ask; a request relayed by a proxy needs the admin token.
func TestRestart(t *testing.T) {
	n := startNode(t, 0)
	for _, tc := range []struct {
		name   string
		query  string
		header []string
	}{
		{"loopback", "", nil},
		{"relayed, token in the query", "?token=" + adminToken, []string{"X-Forwarded-For", "203.0.113.7"}},
		{"relayed, bearer token", "", []string{"Forwarded", "for=203.0.113.7", "Authorization", "Bearer " + adminToken}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := n.openConn()
			e := n.get("/restart"+tc.query, tc.header...)
			if e.Error != 0 {
				t.Fatalf("%s: restart answered %d %s %s", tc.name, e.Error, e.Desc, e.Result)
			}
			before.waitClosed()
			n.waitREST()
		})
	}
	for _, tc := range []struct {
		name   string
		query  string
		header []string
	}{
		{"relayed, no token", "", []string{"X-Forwarded-For", "203.0.113.7"}},
		{"relayed, wrong token", "?token=nope", []string{"X-Forwarded-For", "203.0.113.7"}},
		{"relayed, wrong bearer", "", []string{"Forwarded", "for=x", "Authorization", "Bearer " + adminToken + "x"}},
	} {
		n.checkFailure(tc.name, n.get("/restart"+tc.query, tc.header...), 42003, "admin token")
	}
}

// conn is a raw keep-alive connection to the REST service.
type conn struct {
	t testing.TB
	c net.Conn
	r *bufio.Reader
}

// openConn opens a connection and completes one request on it, so that it
// sits idle and open.
func (n *node) openConn() *conn {
	n.t.Helper()
	u, _ := url.Parse(n.rest)
	c, err := net.Dial("tcp", u.Host)
	if err != nil {
		n.t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", n.rest+"/block/height", nil)
	if err := req.Write(c); err != nil {
		n.t.Fatal(err)
	}
	r := bufio.NewReader(c)
	resp, err := http.ReadResponse(r, req)
	if err != nil {
		n.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return &conn{t: n.t, c: c, r: r}
}

// waitClosed waits for the server to close the connection.
func (c *conn) waitClosed() {
	c.t.Helper()
	c.c.SetReadDeadline(time.Now().Add(15 * time.Second))
	if _, err := c.r.ReadByte(); err != io.EOF {
		c.t.Errorf("the connection opened before the restart: read %v, want EOF (closed by the server)", err)
	}
	c.c.Close()
}

// waitREST waits for the REST service to answer again.
func (n *node) waitREST() {
	n.t.Helper()
	waitFor(n.t, "the REST service to come back after a restart", func() bool {
		resp, err := http.Get(n.rest + "/block/height")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
}
