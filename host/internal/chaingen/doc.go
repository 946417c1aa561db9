// Package chaingen writes a large identity chain into a fresh store: the
// DIDs core/synth plans for a seed, each operation a real signed request
// in a ledger transaction funded by the dev account, in blocks the chain
// itself validates and stores (chain.MineTxs), so that a follower can sync
// the result from a node serving it. Requests are built and signed on
// every core while the chain stores the block before.
package chaingen
