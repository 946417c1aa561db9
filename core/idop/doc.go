// Package idop implements identity-chain requests: operations on DIDs and credentials.
//
// It holds identity-chain requests: the operations on DIDs (create, update,
// transfer, deactivate) and on credentials (declare, revoke) that travel as
// the payload of ledger transactions of type 0x0a.
//
// A Request is the plain wire content: header, payload and proof as
// strings, field for field what the ledger encoding carries, so that
// converting between the two is a field copy. Decode turns a Request into an
// Op: the DID it is about, the document it carries, its signer and its
// signature. Validate checks an Op against the DID's current state, which the
// caller supplies, and returns a *RuleError naming the Rule that failed.
//
// The signature of a request is ECDSA P-256 over SHA-256 of
// specification ‖ operation ‖ previousTxid ‖ ticket ‖ payload, where
// previousTxid is present only for update and ticket only for transfer
// (Elastos.ELA.SideChain.EID core/vm/did/payload.go, GetData; the SDKs'
// IDChainRequest.getSigningInputs). Credential operations sign
// specification ‖ operation ‖ payload.
//
// Validate checks DID operations against the DID's State: create, update,
// deactivate, and the transfer of a customized DID, whose header carries a
// transfer ticket (did.TransferTicket) signed by its current controllers.
// [ValidateCredential] checks declare and revoke against the [CredentialState]
// of the credential id. The rules follow the identity chain
// (Elastos.ELA.SideChain.EID core/vm/didvalidator.go) and the official SDK
// (Elastos.DID.JS.SDK); each function's comment says which rule comes from
// where.
package idop
