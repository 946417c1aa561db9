// Package sdkjson reads and writes JSON exactly as the Elastos DID SDKs do,
// because document proofs are signatures over the SDKs' own serialization.
//
// Reading follows JSON.parse: numbers are IEEE 754 doubles, a repeated
// member keeps its first position and its last value. Writing follows
// JSON.stringify: no HTML escaping, lowercase \u escapes for control
// characters only, numbers in ECMAScript's shortest form, and members whose
// key is an array index ("0", "17") before all others, in numeric order, as a
// JavaScript object orders them. Sorted orders object members the way the SDKs'
// sortJSONObject does: by key in UTF-16 code unit order, recursively.
//
// Two deliberate differences from JavaScript: input that is not UTF-8 and
// \u escapes that leave a lone surrogate are rejected, since a Go string
// cannot carry them faithfully. The SDKs also apply Unicode NFC to the whole
// serialization; this package does not (see the did package's documentation).
//
// The Decoder is a pull parser with sticky errors: after the first error every
// read returns a zero value, and Err reports the error with the path of the
// member being read (for example "publicKey[1].id").
package sdkjson
