// Package synth decides what a generated identity chain holds.
//
// It decides what a generated identity chain holds: for a seed and a DID's
// index, the DID (standard or customized), its services, its embedded
// credentials with their subjects, how often it is updated, whether it
// declares and revokes a credential and whether it is deactivated; the
// signed identity requests that publish it; and which block each request
// goes into. Everything is a pure function of the seed and the index, so
// that a chain of a million DIDs is generated in parallel and the same seed
// always gives the same chain (signing is deterministic, RFC 6979).
//
// The mix imitates a busy identity chain: most DIDs are standard, some
// customized (controlled by another DID); 0 to 5 services of a few dozen
// types and 0 to 8 credentials of a few dozen types, self-proclaimed or
// issued by one of the first DIDs (the issuers), with subjects of names,
// countries, numbers, nested objects and arrays; a share updated 1 to 5
// times, a few short-lived documents (expired by the end of a long chain),
// declared and revoked credentials, and deactivations.
//
// Host code (host/internal/chaingen) funds the requests, wraps them in ledger
// transactions and has the chain validate and store them.
package synth
