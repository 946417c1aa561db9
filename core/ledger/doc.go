// Package ledger implements the identity chain's ledger rules that need no storage.
//
// It decides what a transaction must look like on its own ([Params.CheckTx]), what
// it must satisfy against the outputs it spends ([Params.CheckSpends]: assets,
// amounts that balance with the minimum fee, locks and coinbase maturity),
// the shape and reward of a coinbase, how blocks are built and checked
// ([Params.NewBlock], [Params.Genesis], [Params.CheckBlock], [BlockLimits], [CheckNext], a development
// chain's [Clock]), what a transaction pool adds ([Pool]: no conflicts among
// pooled transactions, one pending operation per DID) and how a DPoS confirm
// is checked ([Arbiters]). It does no I/O: the node looks the spent outputs
// up in its store and passes them in.
//
// A broken rule is a [*RuleError] carrying the error code the Elastos nodes
// answer with (Elastos.ELA servers/errors/errcode.go), so that a node's API
// can return it unchanged.
//
// Signatures are checked by [ela.Tx.VerifyPrograms] with the program hashes
// [Referenced] returns; identity payloads by package [idop].
package ledger
