package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// serverStat is what HAProxy says of a server: its status (UP, DOWN, or
// "UP 1/2" and "DOWN 1/2" while checks change it), its last check (L7OK,
// L7STS with the HTTP code, L4CON for a refused connection…), and the
// requests it sent again (wretr) or to another server (wredis).
type serverStat struct {
	status, check, code string
	retried             int
}

// showStat asks HAProxy's stats socket for `show stat` and returns the
// servers of the backend followers by name, and the backend itself as
// BACKEND.
func showStat(socket string) (map[string]serverStat, error) {
	c, err := net.DialTimeout("unix", socket, time.Second)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	if _, err := io.WriteString(c, "show stat\n"); err != nil {
		return nil, err
	}
	b, err := io.ReadAll(c)
	if err != nil {
		return nil, err
	}
	return parseStat(string(b))
}

// parseStat reads the CSV of `show stat`, whose first line names the
// columns after "# " (HAProxy's management guide, "show stat").
func parseStat(text string) (map[string]serverStat, error) {
	rows, err := csv.NewReader(strings.NewReader(strings.TrimPrefix(text, "# "))).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("show stat: %v", err)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("show stat: no header")
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"pxname", "svname", "status", "check_status", "check_code", "wretr", "wredis"} {
		if _, ok := col[name]; !ok {
			return nil, fmt.Errorf("show stat: no column %s", name)
		}
	}
	out := map[string]serverStat{}
	for _, r := range rows[1:] {
		if len(r) != len(rows[0]) || r[col["pxname"]] != "followers" {
			continue
		}
		retr, _ := strconv.Atoi(r[col["wretr"]])
		redis, _ := strconv.Atoi(r[col["wredis"]])
		out[r[col["svname"]]] = serverStat{r[col["status"]], r[col["check_status"]], r[col["check_code"]], retr + redis}
	}
	return out, nil
}

// transition is a change of a server's status, and when it was seen.
type transition struct {
	At     time.Time
	Server string
	Status string
	Check  string // the check that made it, with its HTTP code
}

// watcher polls the stats every 20 ms and records each server's
// transitions, until stopped.
type watcher struct {
	mu   sync.Mutex // guards seen
	seen []transition
	stop chan struct{}
	done chan struct{}
}

func watch(socket string) *watcher {
	w := &watcher{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		last := map[string]string{}
		for {
			if st, err := showStat(socket); err == nil {
				for name, s := range st {
					if s.status != last[name] {
						last[name] = s.status
						w.mu.Lock()
						w.seen = append(w.seen, transition{time.Now(), name, s.status, strings.TrimSpace(s.check + " " + s.code)})
						w.mu.Unlock()
					}
				}
			}
			select {
			case <-w.stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	return w
}

// until waits until server's status is exactly status ("DOWN", not
// "DOWN 1/2") at or after from, and returns that transition; false after
// limit.
func (w *watcher) until(server, status string, from time.Time, limit time.Duration) (transition, bool) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		w.mu.Lock()
		for _, t := range w.seen {
			if t.Server == server && t.Status == status && !t.At.Before(from) {
				w.mu.Unlock()
				return t, true
			}
		}
		w.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	return transition{}, false
}

func (w *watcher) close() []transition {
	close(w.stop)
	<-w.done
	return w.seen
}
