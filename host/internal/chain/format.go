package chain

import (
	"fmt"

	"github.com/didlight/didlight/host/internal/store"
)

// CheckFormat fails unless tx holds a chain of a record format this version
// reads: storeFormat, or an older one that Open upgrades. A tool that copies
// a store whole (a compaction) runs it first, so that it never rewrites a
// store a newer version wrote.
func CheckFormat(tx store.Tx) error {
	if _, err := readTip(tx); err != nil {
		return err
	}
	format, err := getU64(tx, metaFormat)
	if err != nil {
		return err
	}
	if format > storeFormat {
		return fmt.Errorf("chain: the store is of format %d, newer than this version's %d", format, storeFormat)
	}
	return nil
}
