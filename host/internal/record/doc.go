// Package record encodes the keys and values of a node's store.
//
// The ledger keeps blocks, transactions, unspent outputs, balances and the
// persisted mempool; the DID index keeps DID state, histories, query views
// and postings. Integers in keys are
// big-endian so that keys sort in numeric order; strings inside keys carry
// a length prefix so that one key never prefixes another's field.
//
// Every Parse function reports a value that does not decode, or that has
// bytes left over, as an error wrapping store.ErrCorrupt: the store is damaged,
// and the chain says so instead of guessing.
package record
