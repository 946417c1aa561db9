// Package ela is the wire format of the Elastos ledger that the identity chain
// runs on: transactions, payloads, blocks, program hashes and addresses,
// Fixed64 amounts and transaction signatures. It does no I/O.
package ela
