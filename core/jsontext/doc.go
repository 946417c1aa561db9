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
//     encoding/json; [ValidValue] checks one value in place (wasm/abi).
//   - [Items] is the one walker of an object's members and an array's
//     elements in text already known to be JSON: it finds where each value
//     ends ([End], [StringEnd], [SkipSpace]) without decoding it, and
//     leaves the key quoted for the caller to unescape in its dialect
//     when [Items.Escaped] says it holds an escape.
//     core/jsonrpc splits each call of a checked batch into its members
//     with it (encoding/json's unescaping), and core/find reads stored documents in
//     place with it (the query parser's unescaping). It never panics on
//     other text, so find's matcher needs no check of its own.
//   - [Checked] walks the members or elements of text not yet known to be
//     JSON, with [Scan]'s scanner, so that a caller checks and splits a
//     container in one pass and gets Scan's errors: core/jsonrpc reads a
//     request body, a batch, array params and flat params with it, instead
//     of a check and then a second walk.
//   - wasm/abi walks its small input, which [Scan] has checked, with a
//     decoder of its own that fills Go values as it goes, and skips values
//     with [ValidValue] rather than [End]: the module then links only the
//     string instance of End and Items, which core/find needs. [PlainRun]
//     skips the runs of a string that need no escaping, 8 bytes at a time,
//     for every reader and writer here and the decoders of core/did/sdkjson
//     and wasm/abi.
//   - core/did/sdkjson and core/find's query parser decode text not yet
//     checked into values as they read it, and say what is wrong in words
//     of their own (sdkjson as the DID SDKs' JSON.parse sees it, the query
//     language with its relaxed keys): they keep their own loops over
//     members and elements and share [SkipSpace] and [PlainRun] with the rest.
//
// The short strings that make up most of a request or a document (member
// names, DIDs, small values) are walked a byte at a time, and longer ones
// searched 8 or more bytes at a time: the calls the search needs cost more
// than the bytes of a short string.
//
// Decoding into values stays with the callers, because the dialects differ
// there in what a number is: JSON.parse's doubles (core/did/sdkjson),
// encoding/json's typed fields (wasm/abi) and the query language's
// operands (core/find).
package jsontext
