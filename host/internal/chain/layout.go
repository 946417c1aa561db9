package chain

import (
	"fmt"
	"slices"

	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/ledgerstore"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// The buckets of the store besides the ledger's (ledgerstore.Buckets),
// the DID index's (didindex.Buckets) and the snapshots' (devnet.BucketSnapshots,
// devnet.BucketUndo).
// Keys and values are encoded by package record.
const (
	bucketMeta = "meta" // the keys below
	bucketPool = "pool" // arrival sequence → record.PoolTx

	metaGenesis     = "genesis"     // the genesis block's hash
	metaTip         = "tip"         // record.Tip
	metaNodeID      = "node"        // the node's random id
	metaOffset      = "offset"      // the lead dev_increaseTime gave the clock, seconds; read only from stores older than metaClock
	metaClock       = "clock"       // record.Clock: the devnet's clock
	metaGenesisTime = "genesistime" // the genesis time asked for (Config.GenesisTime, ResetAt), Unix seconds; absent: GenesisTime
	metaPayDev      = "paydev"      // present: coinbases pay the dev account, not arbiter 0 (PayCoinbasesToDev)
	metaEpoch       = "epoch"       // counts resets; pooled transactions carry it
	metaFormat      = "format"      // the store's record formats (storeFormat); absent in format 1
	metaTxnCount    = "txn"         // transactions in blocks
	metaReceived    = "received"    // transactions received
)

// allBuckets are the buckets a reset empties (every one but meta).
var allBuckets = slices.Concat(ledgerstore.Buckets, []string{bucketPool}, didindex.Buckets)

// bucket returns a bucket of tx (record.Bucket).
func bucket(tx store.Tx, name string) store.Bucket { return record.Bucket(tx, name) }

// getMeta reads a meta value.
func getMeta(tx store.Tx, key string) ([]byte, bool) { return bucket(tx, bucketMeta).Get([]byte(key)) }

func putMeta(tx store.Tx, key string, v []byte) error {
	return bucket(tx, bucketMeta).Put([]byte(key), v)
}

// getU64 reads a meta counter, 0 when absent.
func getU64(tx store.Tx, key string) (uint64, error) {
	v, ok := getMeta(tx, key)
	if !ok {
		return 0, nil
	}
	n, err := record.ParseU64(v)
	if err != nil {
		return 0, fmt.Errorf("chain: meta %s: %w", key, err)
	}
	return n, nil
}

// readTip reads the chain's tip.
func readTip(tx store.Tx) (record.Tip, error) {
	v, ok := getMeta(tx, metaTip)
	if !ok {
		return record.Tip{}, fmt.Errorf("chain: the store has no tip: %w", store.ErrCorrupt)
	}
	t, err := record.ParseTip(v)
	if err != nil {
		return record.Tip{}, fmt.Errorf("chain: %w", err)
	}
	return t, nil
}
