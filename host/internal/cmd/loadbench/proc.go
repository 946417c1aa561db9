package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times in /proc/<pid>/stat: clock ticks of
// 1/100 s, fixed by the Linux ABI whatever the kernel's own HZ (USER_HZ,
// see proc(5)).
const userHZ = 100

// cpuTime is the CPU time, user and system, that process pid has used so
// far, read from /proc/<pid>/stat (fields 14 and 15, see proc(5)). It is the
// server's own accounting: no client work is in it.
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	return parseStat(string(b))
}

// parseStat reads utime+stime from the text of /proc/<pid>/stat. The
// command name (field 2) is in parentheses and may hold spaces, so the
// fields are counted after its closing parenthesis.
func parseStat(s string) (time.Duration, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc stat %.40q: no command name", s)
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3, the state
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat %.40q: %d fields after the name, want at least 13", s, len(f))
	}
	var ticks int64
	for _, v := range f[11:13] { // fields 14 (utime) and 15 (stime)
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat: CPU time %q: %v", v, err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / userHZ, nil
}

// server is a process under test: a node (a devnet, a light node, an EID
// node) or the reference handler.
type server struct {
	name string
	pid  int               // whose CPU time is the server's
	cmd  *exec.Cmd         // nil for a process started otherwise (halt stops it)
	halt func()            // stops a server that has no cmd
	urls map[string]string // from the lines it printed when it was ready
}

// role is what the reports call a server: the reference, or the node
// measured (the kind's name says which node).
func (s *server) role() string {
	if s.name == "ref" {
		return "ref"
	}
	return "node"
}

// startServer starts cmd and reads its stdout until ready(line) says it
// serves, collecting each line's "label url" pair; what the process
// writes to stderr goes to logw. It fails if the process is not ready
// within wait.
func startServer(ctx context.Context, name string, cmd *exec.Cmd, logw io.Writer, ready func(string) bool, wait time.Duration) (*server, error) {
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = logw
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	s := &server{name: name, pid: cmd.Process.Pid, cmd: cmd, urls: map[string]string{}}
	done := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			line := sc.Text()
			if f := strings.Fields(line); len(f) >= 2 && strings.HasPrefix(f[len(f)-1], "http://") {
				s.urls[strings.Join(f[:len(f)-1], " ")] = f[len(f)-1]
			}
			if ready(line) {
				done <- nil
				io.Copy(io.Discard, stdout)
				return
			}
		}
		done <- fmt.Errorf("%s exited before it was ready (see its log)", name)
	}()
	select {
	case err = <-done:
	case <-time.After(wait):
		err = fmt.Errorf("%s: not ready after %v", name, wait)
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		s.stop()
		return nil, err
	}
	return s, nil
}

// stop ends the process (SIGTERM, then SIGKILL after 15 s) and waits for it.
func (s *server) stop() {
	if s.cmd == nil {
		s.halt()
		return
	}
	s.cmd.Process.Signal(os.Interrupt)
	t := time.AfterFunc(15*time.Second, func() { s.cmd.Process.Kill() })
	s.cmd.Wait()
	t.Stop()
}
