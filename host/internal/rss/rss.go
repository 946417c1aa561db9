// Package rss reads a process's resident memory, its own apart from mapped files.
//
// It reads a process's resident memory, as Linux's /proc reports it, in two
// parts told apart: the process's own memory (heap, stacks), and the pages
// of files it maps, such as the store's file bbolt maps, which are the
// kernel's page cache and count only while they stay mapped.
package rss

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Usage is a process's resident memory, in bytes.
type Usage struct {
	Total int64 `json:"total"` // VmRSS: all of it
	Anon  int64 `json:"anon"`  // RssAnon: the process's own memory
	File  int64 `json:"file"`  // RssFile: mapped pages of files
}

// Self returns the resident memory of this process.
func Self() (Usage, error) { return read("/proc/self/status") }

// Of returns the resident memory of process pid.
func Of(pid int) (Usage, error) { return read(fmt.Sprintf("/proc/%d/status", pid)) }

func read(path string) (Usage, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Usage{}, fmt.Errorf("rss: %w", err)
	}
	u, err := Parse(string(b))
	if err != nil {
		return u, fmt.Errorf("rss: %s: %w", path, err)
	}
	return u, nil
}

// Parse reads the VmRSS, RssAnon and RssFile lines of a /proc status file
// (see proc(5); each a number of kB).
func Parse(status string) (Usage, error) {
	var u Usage
	found := 0
	for line := range strings.SplitSeq(status, "\n") {
		name, v, _ := strings.Cut(line, ":")
		var dst *int64
		switch name {
		case "VmRSS":
			dst = &u.Total
		case "RssAnon":
			dst = &u.Anon
		case "RssFile":
			dst = &u.File
		default:
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return u, fmt.Errorf("%s %q is not a number of kB", name, strings.TrimSpace(v))
		}
		*dst = kb << 10
		found++
	}
	if found != 3 {
		return u, fmt.Errorf("want VmRSS, RssAnon and RssFile, found %d of them", found)
	}
	return u, nil
}
