package node

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/didlight/didlight/host/internal/rss"
)

// DefaultMapBudget is the file-backed resident memory (RssFile) a node
// lets its store's mapped pages reach before it drops them, so that a node
// on a chain larger than the machine's memory keeps a bounded resident set
// (docs/scale.md).
const DefaultMapBudget = 128 << 20

// MappedStore is a store that maps its file into the process (bolt.DB):
// every page a read touches stays mapped, and counts as the process's
// resident memory, until Trim drops them all.
type MappedStore interface {
	// Trim drops the store's mapped pages from the process; reads map
	// again those they need.
	Trim() error
	// Scanned receives each time a read has scanned much of the store.
	Scanned() <-chan struct{}
}

// TrimInterval is how often [KeepMapped] reads the process's RssFile.
const TrimInterval = time.Second

// KeepMapped keeps the process's file-backed resident memory (RssFile) at
// most budget bytes, until ctx ends: every [TrimInterval], and each time a
// read has scanned much of the store (while the scan goes on), it reads
// RssFile and trims s when it is over. It returns nil when ctx ends, or
// why it stopped trimming (on a system without /proc, at once).
func KeepMapped(ctx context.Context, s MappedStore, budget int64) error {
	tick := time.NewTicker(TrimInterval)
	defer tick.Stop()
	mapped := func() (int64, error) {
		u, err := rss.Self()
		return u.File, err
	}
	return keepMapped(ctx, s, budget, tick.C, mapped)
}

// keepMapped is [KeepMapped] checking at each tick, with mapped reading
// the process's RssFile.
func keepMapped(ctx context.Context, s MappedStore, budget int64, tick <-chan time.Time, mapped func() (int64, error)) error {
	for {
		n, err := mapped()
		if err != nil {
			return fmt.Errorf("node: keeping the mapped store under %d bytes: %w", budget, err)
		}
		if n > budget {
			if err := s.Trim(); err != nil {
				return fmt.Errorf("node: %d bytes of mapped files, over %d: %w", n, budget, err)
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick:
		case <-s.Scanned():
		}
	}
}

// startTrimming runs [KeepMapped] for n until Stop, if cfg asks for it, and
// logs why it stopped if it stops on its own.
func (n *Node) startTrimming(cfg Config) {
	n.trimmed = make(chan struct{})
	if cfg.Mapped == nil || cfg.MapBudget <= 0 {
		close(n.trimmed)
		return
	}
	ctx, stop := context.WithCancel(context.Background())
	n.stopTrimming = stop
	log := cfg.API.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	go func() {
		defer close(n.trimmed)
		if err := KeepMapped(ctx, cfg.Mapped, cfg.MapBudget); err != nil {
			log.Warn("the mapped store is no longer trimmed", "err", err)
		}
	}()
}
