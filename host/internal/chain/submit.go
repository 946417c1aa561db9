package chain

import (
	"bytes"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/wal"
)

// SubmitTx validates a raw transaction against the chain and the mempool
// and, if it is valid, stores it in the mempool and returns its id. Once
// SubmitTx returns, the transaction survives a crash (on a durable store).
// A transaction the chain refuses gets a *RejectError; any other error is
// a failure of the store; the refusal of an identity operation's
// transaction is counted (Counts). The producer (Run, Mine) puts pooled
// transactions into blocks.
//
// Transactions are validated concurrently: callers submitting at once use
// every core, and their mempool writes share store commits.
func (c *Chain) SubmitTx(raw []byte) (ela.Hash, error) {
	e, err := c.admit(raw, nil)
	if err != nil {
		if t, _ := ela.TypeOf(raw); t == ela.TxDIDOperation {
			c.counts.answered(err)
		}
		return ela.Hash{}, err
	}
	return e.txid, nil
}

// admit validates raw, pools it and stores it; with epoch, only while the
// chain is in that epoch (ErrReset once it is not).
func (c *Chain) admit(raw []byte, epoch *uint64) (*entry, error) {
	if c.isClosed() {
		return nil, errClosed
	}
	if err := c.produces(); err != nil {
		return nil, err
	}
	c.received.Add(1)
	c.blocks.Admitting()
	defer c.admitted()
	e, err := c.prepare(bytes.Clone(raw))
	if err != nil {
		return nil, err
	}
	if epoch != nil {
		e.Within, e.WantIn = true, *epoch
	}
	if err := c.enter(e); err != nil {
		return nil, err
	}
	if err := c.persist(e); err != nil {
		c.pool.Remove(e, err)
		if _, ok := errors.AsType[*RejectError](err); ok {
			return nil, err // a block took it in and found it no longer valid
		}
		return nil, fmt.Errorf("chain: storing transaction %s in the mempool: %w", e.txid, err)
	}
	return e, nil
}

// gatherWait bounds how long a mempool commit waits for the admissions
// under way to queue for it (see mempool.GroupCommit), which otherwise waits as
// long as the last commit took: a durable store's commit costs one or two
// disk syncs, 0.1 ms to a few ms (bbolt syncs twice per commit); the bound
// keeps a slow disk from stretching a submitter's wait much beyond it.
const gatherWait = 10 * time.Millisecond

// admissions counts the SubmitTx calls under way: those whose mempool
// commit is coming.
func (c *Chain) admissions() int { return c.blocks.Admissions() }

// admitted ends an admission, waking a mempool commit gathering
// admissions and Run, which waits for them before it makes a block.
func (c *Chain) admitted() {
	c.blocks.Admitted()
	c.pool.Commits().Arrived()
}

// enter validates e and adds it to the mempool, validating it again if a
// block lands in between (its signatures are not verified again).
func (c *Chain) enter(e *entry) error {
	if err := asReject(c.pool.Pending(e)); err != nil {
		return err // say so before the operation is judged on a state it does not follow
	}
	for {
		at, err := c.validate(e)
		if e.Within && at != (mempool.Position{}) && at.Epoch != e.WantIn {
			return ErrReset // judged on a chain its submitter does not publish on
		}
		if err != nil {
			return err
		}
		if ok, err := c.pool.Add(e, at); ok || err != nil {
			return asReject(err)
		}
	}
}

// validate checks e against a snapshot of the chain, as the next block
// would hold it, and returns the state it was checked against.
func (c *Chain) validate(e *entry) (mempool.Position, error) {
	var at mempool.Position
	err := c.db.View(func(tx store.Tx) error {
		tip, err := readTip(tx)
		if err != nil {
			return err
		}
		epoch, err := getU64(tx, metaEpoch)
		if err != nil {
			return err
		}
		at = mempool.Position{Epoch: epoch, Height: tip.Height, Tip: tip.Hash}
		return c.check(snapshot{c: c, tx: tx}, e, tip.Height+1, c.nextBlockTime(tip.Time))
	})
	return at, err
}

// persist stores e in the mempool, in a commit shared with the admissions
// storing theirs meanwhile (commitPool), or keeps it in memory at once on
// a store that keeps nothing past the process: a commit that writes
// nothing is not worth a wait for others.
func (c *Chain) persist(e *entry) error {
	if c.poolInMemory {
		return c.pool.Keep(e)
	}
	return c.pool.Commits().Do(e)
}

// commitPool stores entries in the mempool log if the chain has one, else
// in the mempool bucket, in one Update.
func (c *Chain) commitPool(entries []*entry) error {
	if c.poolLog != nil {
		return c.logPool(entries)
	}
	var seqs []uint64
	err := c.update(func(tx store.Tx) (err error) {
		seqs, err = c.storePool(tx, entries)
		return err
	})
	if err != nil {
		return err
	}
	c.pool.MarkPersisted(entries, mempool.InBucket(seqs))
	return nil
}

// storePool writes entries to the mempool bucket in tx, with the count of
// transactions received, and returns the sequence number each is stored
// under; the pool's MarkPersisted records them once tx is committed.
func (c *Chain) storePool(tx store.Tx, entries []*entry) ([]uint64, error) {
	b := bucket(tx, bucketPool)
	seqs := make([]uint64, len(entries))
	for i, e := range entries {
		seq, err := b.NextSequence()
		if err != nil {
			return nil, err
		}
		rec := record.PoolTx{Epoch: e.Epoch, Raw: e.raw}
		if err := b.Put(record.SeqKey(seq), rec.Bytes()); err != nil {
			return nil, err
		}
		seqs[i] = seq
	}
	return seqs, putMeta(tx, metaReceived, record.U64(c.received.Load()))
}

// stored is a transaction of the store's mempool: of its bucket (seq) or
// of its log (logged).
type stored struct {
	seq, logged uint64
	raw         []byte
}

// at is where s is stored, as the pool's MarkPersisted takes it.
func (s stored) at(_ int, slot *mempool.Slot) { slot.Seq, slot.Logged = s.seq, s.logged }

// reloadPool validates the transactions the store's mempool holds again
// (those of its bucket, then the records logged of the mempool log), pools
// those still valid, in their order, and deletes the others.
func (c *Chain) reloadPool(logged []wal.Record) error {
	var all []stored
	var drop [][]byte
	var unlog []uint64
	err := c.db.View(func(tx store.Tx) error {
		for k, v := range bucket(tx, bucketPool).Scan(store.Range{}) {
			seq, err := record.ParseSeqKey(k)
			if err != nil {
				return err
			}
			p, err := record.ParsePoolTx(v)
			switch {
			case err != nil:
				return err
			case p.Epoch != c.epoch || c.follower != nil: // a follower pools nothing
				drop = append(drop, k)
			default:
				all = append(all, stored{seq: seq, raw: p.Raw})
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, r := range logged {
		p, err := c.parseLogged(r)
		if err != nil {
			return err
		}
		if p.Epoch != c.epoch || c.follower != nil {
			unlog = append(unlog, r.ID)
			continue
		}
		all = append(all, stored{logged: r.ID, raw: p.Raw})
	}
	if c.follower != nil && len(drop)+len(unlog) > 0 {
		c.log.Warn("a follower keeps no mempool: dropping the transactions this data directory's mempool held; they reach the chain only if sent again to the upstream",
			"count", len(drop)+len(unlog))
	}
	entries, errs := c.prevalidate(all)
	for i, s := range all {
		err := errs[i]
		if err == nil {
			err = c.enter(entries[i])
		}
		if err != nil {
			if _, ok := errors.AsType[*RejectError](err); !ok {
				return err
			}
			c.log.Warn("dropping a pooled transaction that is no longer valid", "seq", s.seq, "logged", s.logged, "err", err)
			if s.logged != 0 {
				unlog = append(unlog, s.logged)
			} else {
				drop = append(drop, record.SeqKey(s.seq))
			}
			continue
		}
		c.pool.MarkPersisted(entries[i:i+1], s.at)
	}
	if len(unlog) > 0 {
		if err := c.poolLog.Drop(unlog); err != nil {
			return err
		}
	}
	if len(drop) == 0 {
		return nil
	}
	return c.update(func(tx store.Tx) error {
		b := bucket(tx, bucketPool)
		for _, k := range drop {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// prevalidate decodes and validates the stored transactions on every core,
// so that pooling them in order (enter) verifies no signature again.
func (c *Chain) prevalidate(all []stored) ([]*entry, []error) {
	entries, errs := make([]*entry, len(all)), make([]error, len(all))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				if entries[i], errs[i] = c.prepare(all[i].raw); errs[i] == nil {
					_, errs[i] = c.validate(entries[i])
				}
			}
		})
	}
	for i := range all {
		next <- i
	}
	close(next)
	wg.Wait()
	return entries, errs
}
