package rss

import (
	"fmt"
	"os"
	"runtime"
	"testing"
)

func TestParse(t *testing.T) {
	for i, tc := range []struct {
		status string
		want   Usage
		ok     bool
	}{
		{"Name:\tx\nVmPeak:\t  9 kB\nVmRSS:\t    1234 kB\nRssAnon:\t  200 kB\nRssFile:\t 1000 kB\nRssShmem:\t 34 kB\n", Usage{1234 << 10, 200 << 10, 1000 << 10}, true},
		{"RssFile:\t0 kB\nRssAnon:\t1 kB\nVmRSS:\t1 kB", Usage{1 << 10, 1 << 10, 0}, true},
		{"Name:\tx\n", Usage{}, false},
		{"VmRSS:\t1 kB\nRssAnon:\t1 kB\n", Usage{}, false},
		{"VmRSS:\tx kB\nRssAnon:\t1 kB\nRssFile:\t1 kB\n", Usage{}, false},
		{"VmRSS:\t1 MB\nRssAnon:\t1 kB\nRssFile:\t1 kB\n", Usage{}, false},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got, err := Parse(tc.status)
			if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
				t.Errorf("Parse(%q) = %+v, %v; want %+v, ok %v", tc.status, got, err, tc.want, tc.ok)
			}
		})
	}
}

// This process's memory is read from /proc on Linux, and the same through
// Self and Of; elsewhere both say why not.
func TestSelf(t *testing.T) {
	self, err := Self()
	of, errOf := Of(os.Getpid())
	if runtime.GOOS != "linux" {
		if err == nil || errOf == nil {
			t.Fatalf("Self: %v, Of: %v; want errors without /proc", err, errOf)
		}
		return
	}
	if err != nil || errOf != nil {
		t.Fatal(err, errOf)
	}
	if self.Anon <= 0 || self.File <= 0 || self.Total < self.Anon+self.File || of.Anon <= 0 || of.File <= 0 {
		t.Errorf("Self %+v, Of %+v: want anonymous and file pages, in a total of both", self, of)
	}
}
