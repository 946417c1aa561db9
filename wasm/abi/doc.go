// Package abi is the didlight WebAssembly module's interface: its calls,
// their JSON inputs and outputs, and the one Go function per call that
// computes an answer from JSON in to JSON out. The module (package
// github.com/didlight/didlight/wasm) runs these functions behind its exports; Go programs that
// do not need the sandbox run the very same functions natively, so the two
// answer byte for byte alike by construction (host/wasmrt tests it too).
//
// # Envelope
//
// Every call takes one JSON object and returns one JSON object:
//
//	{"result": …}                          on success
//	{"error": {"type": …, "message": …}}   on failure
//
// A call never fails in any other way: malformed input, a rule an operation
// breaks and even a panic inside core become an error object (see Error for
// its members). Inputs are strict: an unknown member is an input error, so
// that a misspelt option is never silently ignored. Times are RFC 3339
// strings; documents, operations and resolve results are given as the JSON
// the SDKs and nodes write, nested as they are (not as strings).
//
// # Calls
//
//	parse_did              {did}                           → {did, id, customized}
//	parse_document         {document, verify?, documents?} → {did, expires, customized, document}
//	new_document           {publicKey | key, expires, services?} → {did, expires, customized, document}
//	verify_resolve_result  {result, now, documents?}       → {did, status, statusName, txid?, complete, document?}
//	resolve_w3c            {result, did, options?, accept?, now, documents?} → {status, contentType?, location?, body?}
//	verify_eid_did         {answer, did, all?, now, chainId, dids?, transactions?} → {did, status, statusName, txid?, document?, complete, expired, migrated?, report}
//	verify_eid_credential  {answer, id, issuer?, now, chainId, dids?, transactions?} → {id, status, statusName, txid?, credential?, revokedBy?, shown, report}
//	verify_eid_credential_list {answer, did, skip?, limit?}  → {did, ids, report}
//	resolve_w3c_eid        {answer?, did, options?, accept?, now, chainId, dids?, transactions?} → {status, contentType?, location?, body?, report?}
//	status_of              {history, tip}                  → {status, statusName}
//	validate_operation     {operation, state?, now?, detached?, documents?} → {did, operation, method}
//	match                  {condition, documents, view?}   → {matches}
//	decode_tx              {tx}                            → the REST transaction object
//	verify_tx              {tx, referenced}                → {txid}
//	sign_document          {document, key, method?, created} → {document}
//	sign_operation         {operation, document?, previousTxid?, did?, key, method?} → {request}
//
// The Go types named after each call (ParseDIDInput, ParsedDID, ...) give
// the members exactly. The verify_eid calls check what an EID node answers
// (package github.com/didlight/didlight/core/eid); when that needs more
// from the node they fail with a "need" error naming the DIDs to resolve
// (all=true) and the transactions to fetch, whose answers the caller adds
// to dids ({did, answer}) and transactions before it calls again. Calls that check signatures or look documents up do
// so through an Env: natively whatever the caller supplies; in the module,
// the host's imports.
//
// # Binary interface of the module
//
// didlight.wasm is a WASI preview 1 reactor: a host instantiates it, calls
// its _initialize export once, and then any of these exports, one call at a
// time per instance:
//
//	alloc(size u32) → ptr u32       reserve size bytes for an input
//	free(ptr u32)                   release a buffer the module handed out
//	abi_version() → u32             1; changes only with an incompatible ABI
//	<call>(ptr u32, len u32) → u64  run a call on the input at ptr
//
// A call takes the UTF-8 JSON input the host wrote into a buffer from alloc
// (the call releases it) and returns (out_ptr << 32 | out_len): the output
// JSON, which stays valid until the host passes out_ptr to free. Memory may
// grow during a call, so a host reads the memory afresh after each one.
//
// The module imports three functions from the module "didlight", which
// every host supplies (answering "unavailable" when it has nothing better):
//
//	p256_verify(pub, digest, sig u32) → i32
//	    pub: 33-byte compressed P-256 key, digest: 32-byte SHA-256,
//	    sig: 64-byte r‖s, all in the module's memory.
//	    1 valid, 0 invalid, -1 unavailable (the module verifies in Go).
//	sha256(data, n, digest u32) → i32
//	    SHA-256 of the n bytes at data, written to the 32 bytes at digest:
//	    1 done, -1 unavailable (the module hashes in Go). The module asks
//	    for the digests it verifies signatures over (keys.Digest).
//	lookup_document(did_ptr, did_len, buf_ptr, buf_cap u32) → i32
//	    the current document of the DID (full form) as JSON: its length n,
//	    written to buf when n ≤ buf_cap (else the module asks again with
//	    room for n); 0 no such document; -1 unavailable (same as 0);
//	    -2 the lookup failed (the call answers a "lookup" rule error).
//
// Documents a call's input lists are consulted before lookup_document.
package abi
