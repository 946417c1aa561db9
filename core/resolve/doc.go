// Package resolve answers resolvedid and query from what the chain recorded,
// and lets a light client check such answers.
//
// From a DID's history (its operations with their transaction, block height,
// position and time) it derives the DID's status and builds the resolvedid
// result object: the DID in full form, the status (0 valid, 1 expired, 2
// deactivated, 3 not found) and the transactions, newest first, with
// timestamps in RFC 3339 UTC. Expired means the latest document's expires is
// before the chain tip's block time. With all=false a deactivated DID shows
// the deactivate transaction and then the transaction of the document it
// deactivated, because the deactivate carries no document and the SDKs
// accept no other shape; a DID that does not exist has no transaction member.
//
// Verify re-checks a result fetched from any node: every operation's
// signatures, the previousTxid chain, who signed, the documents' proofs and
// the claimed status.
//
// Dialect says how a result reports an expired document: [DialectSpec]
// (resolvedid, status 1) or [DialectEID] (did_resolveDID as the identity chain
// and the SDKs speak it, status 0); Result and Verify use DialectSpec.
// A Checker verifies in a dialect with the exceptions of a chain that did
// not check everything it recorded (Waiver; core/eid grants EID's).
//
// The credential half: [CredentialResult] builds the resolvecredential result
// ({"id","status","transaction"}, statuses 0 valid, 2 revoked, 3 not found)
// from the history of a credential id, [VerifyCredential] checks one as a
// light client must, and [CredentialPage] and [CredentialList] serve
// listcredentials.
//
// View and [QueryResult] serve the query method: the JSON a find condition is
// matched against, and the result object.
package resolve
