package chain

import (
	"fmt"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// A devnet's clock (a ledger.Clock, which decides every block's time) is
// kept in meta with the genesis time its chain was begun at, so that both
// survive a restart: the chain's time runs on with the wall clock's while
// the node is down, as it does while it runs.

// beginning is how a chain begins: its genesis block, the genesis time
// asked for (zero: none, so GenesisTime, with the wall clock's time), and
// its clock.
type beginning struct {
	genesis *ela.Block
	asked   time.Time
	clock   ledger.Clock
}

// beginAt returns the beginning of a chain at asked, zero for the default.
func (c *Chain) beginAt(asked time.Time) beginning {
	if asked.IsZero() {
		return beginning{genesis: c.genesisAt(GenesisTime)}
	}
	return beginning{genesis: c.genesisAt(asked), asked: asked, clock: ledger.StartAt(asked.Unix(), c.now().Unix())}
}

// put stores b's genesis time, if asked for, and its clock.
func (b beginning) put(tx store.Tx) error {
	meta := bucket(tx, bucketMeta)
	var err error
	if b.asked.IsZero() {
		err = meta.Delete([]byte(metaGenesisTime))
	} else {
		err = meta.Put([]byte(metaGenesisTime), record.U64(uint64(b.asked.Unix())))
	}
	if err != nil {
		return err
	}
	return meta.Put([]byte(metaClock), record.Clock(b.clock))
}

// began is when a stored chain began: its genesis time, and whether it
// was asked for (else it is GenesisTime).
type began struct {
	at    time.Time
	asked bool
}

func (b began) String() string {
	if !b.asked {
		return b.at.Format(time.RFC3339) + " (the default, with the wall clock's time)"
	}
	return b.at.Format(time.RFC3339)
}

// readBegan reads when the stored chain began.
func readBegan(tx store.Tx) (began, error) {
	if _, ok := getMeta(tx, metaGenesisTime); !ok {
		return began{at: GenesisTime}, nil
	}
	t, err := getU64(tx, metaGenesisTime)
	if err != nil {
		return began{}, err
	}
	if err := ledger.CheckGenesisTime(int64(t)); err != nil {
		return began{}, fmt.Errorf("chain: meta %s: %v: %w", metaGenesisTime, err, store.ErrCorrupt)
	}
	return began{at: time.Unix(int64(t), 0).UTC(), asked: true}, nil
}

// readClock reads the devnet's clock. A store written before the clock
// was kept holds only dev_increaseTime's lead, under metaOffset.
func readClock(tx store.Tx) (ledger.Clock, error) {
	v, ok := getMeta(tx, metaClock)
	if !ok {
		lead, err := getU64(tx, metaOffset)
		return ledger.Clock{Skew: int64(lead)}, err
	}
	clock, err := record.ParseClock(v)
	if err != nil {
		return clock, fmt.Errorf("chain: meta %s: %w", metaClock, err)
	}
	return clock, nil
}

// nextBlockTime is the time of a block after one stamped prev, made now.
func (c *Chain) nextBlockTime(prev uint32) uint32 {
	c.mu.RLock()
	clock := c.clock
	c.mu.RUnlock()
	return clock.BlockTime(prev, c.now().Unix())
}

// Began returns the genesis time of the chain, and whether it was asked
// for (Config.GenesisTime, ResetAt) rather than the default GenesisTime.
func (c *Chain) Began() (time.Time, bool, error) {
	var b began
	err := c.db.View(func(tx store.Tx) error {
		var err error
		b, err = readBegan(tx)
		return err
	})
	return b.at, b.asked, err
}
