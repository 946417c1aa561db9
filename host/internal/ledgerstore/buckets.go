package ledgerstore

import (
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// The buckets of the ledger. Keys and values are encoded by package record.
const (
	BucketBlocks    = "blocks"    // height → record.Block
	BucketHashes    = "hashes"    // block hash → height
	BucketConfirms  = "confirms"  // height → ela.Confirm bytes
	BucketTxs       = "txs"       // txid → record.Tx
	BucketUTXOs     = "utxos"     // OutpointKey → record.UTXO
	BucketAddresses = "addresses" // AddressKey → record.AddressUTXO
	BucketBalances  = "balances"  // BalanceKey → record.Amount
)

// Buckets are the buckets of the ledger, in the order a store lists them.
var Buckets = []string{BucketBlocks, BucketHashes, BucketConfirms, BucketTxs, BucketUTXOs, BucketAddresses, BucketBalances}

// bucket returns a bucket of tx (record.Bucket).
func bucket(tx store.Tx, name string) store.Bucket { return record.Bucket(tx, name) }
