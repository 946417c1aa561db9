// Package ledgerstore keeps an ELA ledger in a store: its blocks, transactions, unspent outputs and balances.
//
// A Batch writes one block's transactions and the block inside the store
// Update that makes or applies it; a Reader reads them in any store
// transaction. Neither holds a lock: the store's transactions order them.
// The rules the ledger follows are core/ledger's; this package stores what
// they allowed.
package ledgerstore
