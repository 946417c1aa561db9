// Package jsonrpc decodes JSON-RPC 2.0 requests and encodes responses, with
// the error codes of the identity-chain resolver interface.
//
// It is lenient where real clients differ and strict where the answer would
// otherwise be wrong:
//   - a 2.0 request without an "id" member is a notification
//     (Request.Notification), which the server must not answer;
//   - a request without "jsonrpc" (1.0 style), or with the empty version
//     ela-cli sends (Elastos.ELA utils/http/jsonrpc/util.go, Call), is
//     answered as 2.0 with its id, null when it has none;
//   - an id must be a string, an integer or null: an id with decimals, or of
//     another type, makes the request invalid and the answer carries id null;
//   - params may be an object or an array holding one object, the form the
//     Elastos DID SDKs use for did_resolveDID and friends.
//
// A body is either one request or a batch (a non-empty array of requests);
// each element of a batch is decoded, and fails, on its own. Errors say what
// is wrong in JSON's terms ("limit: want an integer", "method: want a
// string"), never in Go's, and quote at most the start of the input.
package jsonrpc
