package node

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeMapped is a MappedStore that records the RssFile reading each trim
// followed.
type fakeMapped struct {
	last    int64 // the reading keepMapped took last
	trimmed []int64
	trimErr error
	scanned chan struct{}
}

func (f *fakeMapped) Trim() error {
	f.trimmed = append(f.trimmed, f.last)
	return f.trimErr
}

func (f *fakeMapped) Scanned() <-chan struct{} { return f.scanned }

// keepMapped reads RssFile at once, at each tick and after each big scan,
// and trims when a reading is over the budget; it stops, saying why, when
// it cannot read RssFile or trim.
func TestKeepMapped(t *testing.T) {
	errRead, errTrim := errors.New("no /proc"), errors.New("madvise failed")
	for _, tc := range []struct {
		name     string
		readings []int64
		readErr  bool // the last reading fails
		trimErr  error
		want     []int64 // the readings trims followed
		wantErr  string
	}{
		{"under", []int64{0, 50, 100}, false, nil, nil, ""},
		{"over", []int64{50, 150, 100, 101, 300}, false, nil, []int64{150, 101, 300}, ""},
		{"over at once", []int64{101}, false, nil, []int64{101}, ""},
		{"unreadable", []int64{50, 0}, true, nil, nil, "keeping the mapped store under 100 bytes: no /proc"},
		{"trim fails", []int64{50, 200}, false, errTrim, []int64{200}, "200 bytes of mapped files, over 100: madvise failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeMapped{scanned: make(chan struct{}), trimErr: tc.trimErr}
			tick := make(chan time.Time)
			i := 0
			mapped := func() (int64, error) {
				f.last = tc.readings[i]
				i++
				if tc.readErr && i == len(tc.readings) {
					return 0, errRead
				}
				return f.last, nil
			}
			ctx, stop := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- keepMapped(ctx, f, 100, tick, mapped) }()
			// Each wake, a tick or a scan in turn, is taken once the
			// previous reading was acted on; false if keepMapped returned.
			wake := func(j int) bool {
				ticks, scans := tick, f.scanned
				if j%2 == 0 {
					ticks = nil
				} else {
					scans = nil
				}
				select {
				case ticks <- time.Time{}:
				case scans <- struct{}{}:
				case err := <-done:
					done <- err
					return false
				}
				return true
			}
			for j := 1; j < len(tc.readings) && wake(j); j++ {
			}
			stop()
			err := <-done
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("keepMapped: %v, want %q", err, tc.wantErr)
			}
			if i != len(tc.readings) || !slices.Equal(f.trimmed, tc.want) {
				t.Errorf("%d of %d readings taken; trims after %v, want %v", i, len(tc.readings), f.trimmed, tc.want)
			}
		})
	}
}
