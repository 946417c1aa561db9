// Package jsontext reads and writes JSON text without reflection, in the dialects didlight's callers speak.
//
// The WebAssembly module leaves encoding/json out, whose reflection would
// make up a large part of it, so every JSON the module reads or writes goes
// through this package; the node's hot paths use it too, for speed. Which
// caller needs which part, and why:
//
//   - [JS] escapes strings as JSON.stringify does: only '"', '\\' and the
//     control characters, with lowercase \u escapes, and nothing for HTML.
//     The Elastos DID SDKs sign JSON.stringify(toJSON()) of a document, a
//     credential or an ID operation (see core/did's documentation), so a
//     proof verifies only over those bytes: core/did, core/did/sdkjson,
//     core/idop, core/resolve and core/w3c write with it.
//   - [Std] escapes as encoding/json's Encoder with SetEscapeHTML(false):
//     also U+2028 and U+2029, and invalid UTF-8 as \ufffd. The module's
//     outputs (wasm/abi) are defined as that Encoder writes them, so that a
//     native caller using encoding/json gets the same bytes.
//   - [StdHTML] escapes as json.Marshal does by default: also '<', '>' and
//     '&'. core/ela's transaction and block JSON is what json.Marshal
//     writes for its JSON types, and the parts it writes by hand must match.
//   - [Object] writes one object's members in order in any of the three.
//   - [Scan] checks JSON syntax and reports errors in encoding/json's words,
//     since the module's input errors are defined as encoding/json's
//     Decoder's (wasm/abi). [Valid] answers as json.Valid does, which
//     core/jsonrpc needs because it leaves what it does not split itself to
//     encoding/json; [ValidValue] checks one value in place (core/jsonrpc's
//     flat params).
//   - [End], [StringEnd] and [SkipSpace] walk text already known to be
//     valid, finding where a value ends without decoding it: core/jsonrpc
//     splits requests with them and core/find reads stored documents in
//     place. (wasm/abi skips its small, already scanned input with
//     [ValidValue], so that the module links one walker, not two.) [PlainRun] skips the runs of a string that
//     need no escaping, 8 bytes at a time, for every reader and writer here
//     and the decoders of core/did/sdkjson and wasm/abi.
//
// Decoding into values stays with the callers, because the dialects differ
// there in what a number is: JSON.parse's doubles (core/did/sdkjson),
// encoding/json's typed fields (wasm/abi) and the query language's
// operands (core/find).
package jsontext
