// Package didindex keeps the index of DIDs and credentials that resolve and query read.
//
// The index is a set of buckets in a host/internal/store DB: each DID's state,
// history and latest document, each credential's state and history, and the
// postings by service type, credential type and query field that a query's
// plan reads. It is fed one identity operation at a time through a Batch,
// inside the store Update of the block that carries it, and read through a
// Reader inside any store transaction. It knows nothing of the ledger that
// carries the operations: an ELA chain and an EID follower feed it alike.
package didindex
