package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// proc is a process of the cluster, which may be killed and started again
// with the same command line.
type proc struct {
	name string
	args []string
	env  []string
	log  string // its stdout and stderr, appended to across restarts
	cmd  *exec.Cmd
}

func (p *proc) start() error {
	f, err := os.OpenFile(p.log, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	cmd := exec.Command(p.args[0], p.args[1:]...)
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %v", p.name, err)
	}
	go func() { cmd.Wait(); f.Close() }()
	p.cmd = cmd
	return nil
}

// kill ends the process with SIGKILL, as a crash would.
func (p *proc) kill() {
	if p.cmd != nil {
		p.cmd.Process.Kill()
		p.cmd.Process.Wait()
	}
}

// stop ends the process gracefully (SIGINT), then SIGKILL after 10 s.
func (p *proc) stop() {
	if p.cmd == nil {
		return
	}
	p.cmd.Process.Signal(os.Interrupt)
	t := time.AfterFunc(10*time.Second, func() { p.cmd.Process.Kill() })
	p.cmd.Process.Wait()
	t.Stop()
}

// pid is the process's id, for its CPU time.
func (p *proc) pid() int { return p.cmd.Process.Pid }

// node is a didlight node of the cluster: its process and its REST address.
type node struct {
	proc
	rest string // host:port
}

// cluster is the producer, the followers, the relay between follower3 and
// the producer, and the balancer.
type cluster struct {
	cfg       config
	logs      string
	producer  *node
	followers []*node
	relay     *relay
	balancer  proc
	addr      string // the balancer's host:port
	stats     string // its stats socket
	client    *http.Client
}

// freeAddr returns a loopback address no one listens on now, so that a
// process started again listens where the balancer expects it.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

func buildNode(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "didlight")
	out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/didlight").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building didlight: %v\n%s", err, out)
	}
	return bin, nil
}

// startCluster starts the producer and waits for its demo DIDs, the
// followers and waits until each has synced, then the balancer and waits
// until it has every follower in rotation.
func startCluster(ctx context.Context, c config, dir string) (cl *cluster, err error) {
	logs, err := os.MkdirTemp("", "didlight-clustertest-logs-")
	if err != nil {
		return nil, err
	}
	cl = &cluster{cfg: c, logs: logs, client: &http.Client{Timeout: 5 * time.Second}}
	defer func() {
		if err != nil {
			cl.stop()
			err = fmt.Errorf("%v (logs in %s)", err, cl.keepLogs())
		}
	}()
	if cl.producer, err = cl.startNode(ctx, "producer", "--mem", "--demo", "--block-time", "1s"); err != nil {
		return cl, err
	}
	if err = waitFor(ctx, 60*time.Second, "the producer's demo DIDs", func() bool { return len(cl.testIdentifiers()) > 0 }); err != nil {
		return cl, err
	}
	readyFlag := strings.Contains(cl.help(), "--ready-max-lag")
	for i := 1; i <= 3; i++ {
		upstream := cl.producer.rest
		if i == 3 {
			if cl.relay, err = newRelay(upstream); err != nil {
				return cl, err
			}
			upstream = cl.relay.addr()
		}
		args := []string{"--follow", "http://" + upstream, "--datadir", filepath.Join(dir, fmt.Sprintf("follower%d", i))}
		if readyFlag {
			args = append(args, "--ready-max-lag", "2")
		}
		n, err := cl.startNode(ctx, fmt.Sprintf("follower%d", i), args...)
		if err != nil {
			return cl, err
		}
		cl.followers = append(cl.followers, n)
	}
	for _, f := range cl.followers {
		if err = waitFor(ctx, 60*time.Second, f.name+" in sync", func() bool { return cl.height(f.rest) >= cl.height(cl.producer.rest)-1 }); err != nil {
			return cl, err
		}
	}
	return cl, cl.startBalancer(ctx)
}

// startNode starts `didlight node` with args and its own listeners, and
// waits until its REST API answers.
func (cl *cluster) startNode(ctx context.Context, name string, args ...string) (*node, error) {
	rest, err := freeAddr()
	if err != nil {
		return nil, err
	}
	rpc, err := freeAddr()
	if err != nil {
		return nil, err
	}
	n := &node{rest: rest, proc: proc{name: name, log: filepath.Join(cl.logs, name+".log"),
		args: append([]string{cl.cfg.node, "node", "--rest-addr", rest, "--rpc-addr", rpc}, args...)}}
	return n, cl.restart(ctx, n)
}

// restart starts n's process (again) and waits until its REST API answers.
func (cl *cluster) restart(ctx context.Context, n *node) error {
	if err := n.start(); err != nil {
		return err
	}
	return waitFor(ctx, 30*time.Second, n.name+"'s REST API", func() bool { return cl.height(n.rest) >= 0 })
}

func (cl *cluster) startBalancer(ctx context.Context) error {
	var err error
	if cl.addr, err = freeAddr(); err != nil {
		return err
	}
	cl.stats = filepath.Join(cl.logs, "haproxy.sock")
	cl.balancer = proc{name: "haproxy", log: filepath.Join(cl.logs, "haproxy.log"),
		args: []string{cl.cfg.haproxy, "-db", "-f", cl.cfg.haproxyConfig},
		env: []string{"BALANCER_ADDR=" + cl.addr, "HAPROXY_STATS_SOCKET=" + cl.stats,
			"FOLLOWER1=" + cl.followers[0].rest, "FOLLOWER2=" + cl.followers[1].rest, "FOLLOWER3=" + cl.followers[2].rest}}
	if err := cl.balancer.start(); err != nil {
		return err
	}
	return waitFor(ctx, 30*time.Second, "every follower in rotation", func() bool {
		st, err := showStat(cl.stats)
		if err != nil {
			return false
		}
		for _, f := range cl.followers {
			if st[f.name].status != "UP" {
				return false
			}
		}
		return true
	})
}

// stop stops every process and the relay.
func (cl *cluster) stop() {
	cl.balancer.stop()
	for _, f := range cl.followers {
		f.stop()
	}
	if cl.producer != nil {
		cl.producer.stop()
	}
	if cl.relay != nil {
		cl.relay.close()
	}
}

// keepLogs says where the processes' logs are, which stay for a failed run.
func (cl *cluster) keepLogs() string { return cl.logs }

// help is `didlight node --help`: which flags this binary has.
func (cl *cluster) help() string {
	out, _ := exec.Command(cl.cfg.node, "node", "--help").CombinedOutput()
	return string(out)
}

// height is a node's height from its REST API, -1 when it does not answer.
func (cl *cluster) height(addr string) int {
	var v struct{ Result int }
	if cl.getJSON("http://"+addr+"/api/v1/block/height", &v) != nil {
		return -1
	}
	return v.Result
}

// testIdentifiers are the DIDs the producer lists for testing.
func (cl *cluster) testIdentifiers() []string {
	var v map[string][]string
	cl.getJSON("http://"+cl.producer.rest+"/1.0/testIdentifiers", &v)
	return v["elastos"]
}

// ready is a node's answer to GET /ready: its status and body.
func (cl *cluster) ready(addr string) (int, string) {
	resp, err := cl.client.Get("http://" + addr + "/ready")
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1024))
	return resp.StatusCode, strings.TrimSpace(string(b))
}

func (cl *cluster) getJSON(url string, v any) error {
	resp, err := cl.client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// waitFor polls ok every 50 ms until it holds, or fails after limit.
func waitFor(ctx context.Context, limit time.Duration, what string, ok func() bool) error {
	deadline := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(deadline) {
			return fmt.Errorf("waited %v for %s", limit, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
	return nil
}

// cpuTime is a process's CPU time, user and system, from /proc/<pid>/stat
// (fields 14 and 15, in ticks of 1/100 s: USER_HZ, proc(5)): its own
// accounting, no client's work in it.
func cpuTime(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	var ticks int64
	for _, v := range f[11:13] {
		var n int64
		fmt.Sscan(v, &n)
		ticks += n
	}
	return time.Duration(ticks) * 10 * time.Millisecond
}
