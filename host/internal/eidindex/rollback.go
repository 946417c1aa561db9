package eidindex

import (
	"fmt"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Rollback undoes every applied block above number, which becomes the head:
// the index is then exactly as it was when block number had been applied
// (eidsync.Sink). It fails, changing nothing, when number is above the
// head or older than the index keeps undo for (the last Keep blocks, and
// none applied Keep or more below the upstream's head).
func (ix *Index) Rollback(number uint64) error {
	head, _, ok := ix.Head()
	switch {
	case !ok || number == head:
		if ok || number == 0 {
			return nil
		}
		return fmt.Errorf("eidindex: rollback to block %d of an empty index", number)
	case number > head:
		return fmt.Errorf("eidindex: rollback to block %d, above the head %d", number, head)
	}
	err := ix.update(func(tx store.Tx) error {
		k, ok := readKept(tx, number+1)
		if !ok {
			return fmt.Errorf("eidindex: rollback to block %d: no undo kept for block %d (undo is kept for the last %d blocks applied, and none for a block applied %d or more below the upstream's head)", number, number+1, ix.keep, ix.keep)
		}
		if _, err := undoLog.Undo(tx, k.mark); err != nil {
			return err
		}
		blocks := record.Bucket(tx, bucketBlocks)
		for n := number + 1; n <= head; n++ {
			if err := blocks.Delete(record.U64(n)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	ix.log.Warn("EID index rolled back", "from", head, "to", number)
	return ix.db.View(ix.load)
}
