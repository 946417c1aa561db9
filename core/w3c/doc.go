// Package w3c implements W3C DID Resolution and DID URL dereferencing for did:elastos.
//
// It answers W3C DID Resolution and DID URL dereferencing for did:elastos
// from a DID's history on the chain: the resolution result ({didDocument,
// didResolutionMetadata, didDocumentMetadata}), the dereferencing result
// ({contentStream, dereferencingMetadata, contentMetadata}) or the document
// alone, the error objects and the HTTP status of the binding, decided once
// for the node's GET /1.0/identifiers/{did} (host/internal/api) and for the
// WebAssembly module, which builds the same answer from a history it
// verified itself.
//
// It follows the W3C DID Resolution editor's draft (w3c/did-resolution,
// index.html as of 2026-07: §DID Resolution Algorithm, §DID URL
// Dereferencing, §Errors and the HTTP(S) binding's status table) and DID
// Core 1.0 (DID and DID URL syntax, §3; the application/did+json and
// application/did+ld+json representations, §6). How its answers are read
// was checked against the DIF Universal Resolver 1.8.0
// (decentralized-identity/universal-resolver: HttpDriver, which asks a
// driver with Accept "application/did-resolution,<type>", and
// HttpBindingClientUtil, which reads contentStream or content).
//
// A request is parsed once ([ParseRequest]: the DID or DID URL, resolution
// options given apart from it, and the Accept header) and answered from a
// History and the chain Tip (Resolve), or from a resolvedid answer with the
// whole history, verified first ([ResolveVerified]). What it decides:
//
//   - Syntax: a DID or DID URL as DID Core writes it, the method elastos
//     (any other is METHOD_NOT_SUPPORTED), the id as the chain accepts it.
//   - Parameters: versionId (a txid of the DID's history), versionTime
//     (the latest version at or before it), service or serviceType with
//     relativeRef, and a fragment naming a key, service or credential.
//   - Versions: every operation of the history is a version. created is
//     the create's block time, updated and versionId those of the
//     operation that published the document returned (updated absent for
//     the create), nextUpdate and nextVersionId those of the operation
//     after the version asked for. A deactivated DID answers 410 with its
//     last document and deactivated true.
//   - Method metadata ("method" in the document metadata): status as
//     resolvedid gives it (0 valid, 1 expired, 2 deactivated), expires, the
//     operation, the block height and confirmations (when the history
//     names blocks), and the number of operations. An expired document is
//     returned with status 200: expiry is the chain's verdict on the
//     document, not a resolution failure, and its expires is in the
//     metadata for the client to judge.
//   - Representations: the result forms and application/did+ld+json,
//     application/did+json and application/did; text/uri-list, a 303 to
//     the service endpoint, for service selection. Anything else is 406.
package w3c
