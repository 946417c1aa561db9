// Package did implements Elastos DIDs, DID URLs and DID documents.
//
// It holds Elastos DIDs, DID URLs and DID documents as the identity chain
// and the official SDKs understand them.
//
// A DID is did:elastos:<id>. A standard DID's id is the identity address of
// its document's default key (see [FromKey]); a customized DID (did:elastos:foo)
// has no key of its own and is governed by its controllers, several of which
// may have to sign (multisig "m:n").
//
// Documents are parsed from either shape the SDKs write (v1, and v2 with
// @context, controllers, multisig and several proofs), in full or compact
// form. Normalized returns the form the SDKs sign: references expanded to full
// DID URLs, default types and controllers written out, arrays and object
// members sorted, exactly as the SDKs' JSON.stringify(toJSON()) would write
// it. A document's proof is a signature over its normalized form without the
// proof, by the default key (standard DIDs) or by the default keys of m of
// its controllers (customized DIDs).
//
// Documents without a proof are accepted only in the oldest on-chain format
// ("v0"): a standard DID whose default key derives its id with the legacy
// 0xAC script suffix. Such a document is authenticated solely by the
// signature of the operation that carries it; see [Document.Legacy].
//
// The SDKs apply Unicode NFC to the serialization before signing. This
// package does not: documents that the SDKs wrote are already in NFC, so the
// difference shows only for hand-made documents holding non-NFC text, whose
// proofs then fail to verify here.
package did
