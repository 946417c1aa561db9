// Package eid implements the wire forms of EID, the Elastos identity chain, and verifies its nodes' answers.
//
// It speaks EID, the Elastos identity chain that every did:elastos DID in
// use lives on, and verifies what an EID node answers.
//
// EID is a go-ethereum fork whose DID and credential operations are run by
// a precompiled contract (Elastos.ELA.SideChain.EID core/vm/did_contracts.go).
// An operation reaches it in a transaction's input, sent to the precompile
// ([DecodePrecompileInput]) or to the DID contract's publishDidTransaction
// ([DecodeContractInput]); the chain records it in the transaction's receipt as
// a DID log whose data is the operation in the ledger's serialization
// ([ParseLog], [DecodeLogData]). Transactions are named by their EVM hash,
// written as EID's answers write it ([TxidOf]).
//
// [VerifyDID] checks a did_resolveDID answer as a light client must, with the
// code that checks didlight's own chains (core/resolve, core/idop), and
// says what it checked and what it took on the upstream's word (Report).
// [VerifyCredential] and [VerifyCredentialList] do the same for
// did_resolveCredential and did_listCredentials. Verification that needs
// more from the upstream than the answer (other DIDs' documents, or the
// block and sender of a transaction from EID's migration window) fails with
// a *NeedError naming what to fetch; the caller fetches it and verifies
// again. Every input and output is bytes or plain values, so that the
// WebAssembly module runs the same code.
package eid
