package cli

import (
	"errors"
	"flag"
	"time"

	"github.com/didlight/didlight/core/ledger"
)

// genesisTimeFlag defines --genesis-time: the time a new chain begins at.
func genesisTimeFlag(fs *flag.FlagSet, c *nodeConfig) {
	fs.Var((*genesisTime)(&c.genesisTime), "genesis-time", "begin a new chain at this RFC 3339 time (2025-06-01T00:00:00Z): its blocks carry it plus the time elapsed, not the wall clock's time; a data directory remembers it. Default: 2026-01-01, blocks at the wall clock's time")
}

// genesisTime is a flag.Value holding an RFC 3339 time, zero when unset.
type genesisTime time.Time

func (g *genesisTime) Set(s string) error {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return errors.New("not an RFC 3339 time: want one such as 2025-06-01T00:00:00Z")
	}
	if err := ledger.CheckGenesisTime(t.Unix()); err != nil {
		return err
	}
	*g = genesisTime(t.UTC().Truncate(time.Second))
	return nil
}

func (g *genesisTime) String() string {
	if g == nil || time.Time(*g).IsZero() {
		return ""
	}
	return time.Time(*g).Format(time.RFC3339)
}
