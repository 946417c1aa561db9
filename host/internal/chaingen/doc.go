// Package chaingen writes a large generated identity chain into a fresh store.
//
// It writes a large identity chain into a fresh store: the DIDs host/internal/synth
// plans for a seed, each operation a real signed request in a ledger
// transaction funded by the dev account, in blocks the chain itself
// validates and stores (chain.MinePrepared), so that a follower can sync the
// result from a node serving it. The store writer is the one serial stage:
// blocks are signed, and their signatures verified (chain.PrepareTx), on the
// cores it leaves, a few blocks ahead of it.
package chaingen
