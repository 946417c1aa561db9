// Package chain keeps a local identity chain: its mempool and block producer over its ledger and DID index.
//
// The ledger (blocks, transactions, unspent outputs, balances) is package
// host/internal/ledgerstore; the DID index that resolve and query read is
// package host/internal/didindex, fed by the blocks the chain applies; the
// answers reads keep are package host/internal/answers. The chain
// validates transactions and produces blocks. It is the host half of the
// node: every rule is decided by core
// (ledger rules by core/ledger, identity operations by core/idop through an
// Engine, results by core/resolve, query conditions by core/find); this
// package does the storage, the concurrency and the scheduling.
//
// Everything lives in a host/internal/store DB. A block and every index it touches
// commit in one store Update, so a process killed at any instant reopens at
// its last block with consistent indexes. A transaction SubmitTx accepts is
// stored in the mempool before SubmitTx returns, so an acknowledged
// transaction survives a crash too.
//
// A new store gets a deterministic genesis block: the registration of ELA and
// a coinbase paying DevFunds to the dev account, whose key is derived from
// a seed (see DevKey). The chain produces its own blocks (Run, Mine), each
// confirmed by DPoS votes of arbiter keys derived from the same seed, and
// offers SubmitRequest, which funds an identity request from the dev
// account; the devnet controls of package devnet (IncreaseTime,
// MineBlocks, Snapshot, Revert, Reset) work through Control.
package chain
