package eidindex

import (
	"context"
	"testing"

	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// Any didLog data an upstream sends is indexed or refused and counted;
// Apply fails only for what is not the operation's fault, and then
// changes nothing.
func FuzzApply(f *testing.F) {
	r := loadRecorded(f)
	for _, b := range r.blocks {
		for _, op := range b.Ops {
			f.Add(op.Data)
		}
	}
	f.Add("")
	f.Add("AA==")
	f.Fuzz(func(t *testing.T, data string) {
		ix, err := Open(Config{DB: mem.New(), Network: eid.NetworkOf(7203)})
		if err != nil {
			t.Fatal(err)
		}
		b := &eidsync.Block{Number: 1, Time: 1_800_000_000, Ops: []eidsync.Op{{Data: data, From: "0x71562b71999873db5b286df957af199ec94617f7"}}}
		if err := ix.Apply(context.Background(), []*eidsync.Block{b}); err != nil {
			t.Fatalf("Apply: %v", err)
		}
		c := ix.Counts()
		if c.Applied+c.Refused != 1 {
			t.Errorf("counts %+v, want the operation applied or refused", c)
		}
	})
}
