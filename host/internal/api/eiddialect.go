package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsonrpc"
)

// The did_* methods (did_resolveDID, did_resolveCredential,
// did_listCredentials) are EID's, and every node kind reads their params as
// an EID node does (Elastos.ELA.SideChain.EID internal/ethapi/didapi.go,
// ResolveDID, ResolveCredential, ListCredentials, behind go-ethereum's
// rpc/json.go parsePositionalArguments): an array holding one object read
// as a map, each member taken only when it has the type EID wants, an id
// without the did:elastos: prefix given one, and EID's error messages
// (code -32602, no data). An identifier that names nothing, malformed ones
// included, is an answer (status 3, or "did is not exist"), not an error.
// Identifiers longer than the protocol allows ([did.MaxDIDLength],
// [did.MaxURLLength]) are refused as on the interface's names: EID would
// echo them whole. The interface's names (resolvedid, resolvecredential,
// listcredentials) keep their own, stricter reading (methods.go).

// eidPrefix is what EID puts before an id given without it
// (core/vm/did/payload.go, DID_ELASTOS_PREFIX; core/rawdb IsURIHasPrefix).
const eidPrefix = "did:elastos:"

// eidNamespace begins the names of EID's DID methods.
const eidNamespace = "did_"

// eidMethodNotFound is EID's answer to a method of its namespace it does
// not have (go-ethereum rpc/errors.go, methodNotFoundError).
func eidMethodNotFound(method string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound, Message: "the method " + excerpt.Cut(method) + " does not exist/is not available"}
}

// eidInvalid is EID's invalid-params error: its message, no data.
func eidInvalid(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// eidArg reads the params of a did_* method as go-ethereum's RPC layer
// reads a method's one map argument (rpc/json.go, parsePositionalArguments
// and parseArgumentArray): absent or null params and an empty array lack
// it; anything but an array is "non-array args"; a second element is too
// many; the element is decoded by encoding/json into a map, whose error
// message it quotes; null gives the nil map. Params given as the object
// itself are taken as that element: EID refuses them, but didlight serves
// both params forms on the SDK's names as on the interface's (DESIGN.md).
func eidArg(params json.RawMessage) (map[string]any, *jsonrpc.Error) {
	dec := json.NewDecoder(bytes.NewReader(params))
	tok, err := dec.Token()
	switch {
	case err == io.EOF || tok == nil && err == nil:
		return nil, eidInvalid("missing value for required argument 0")
	case err != nil:
		return nil, eidInvalid(err.Error())
	case tok == json.Delim('{'):
		var arg map[string]any
		if err := json.Unmarshal(params, &arg); err != nil {
			return nil, eidInvalid(fmt.Sprintf("invalid argument 0: %v", err))
		}
		return arg, nil
	case tok != json.Delim('['):
		return nil, eidInvalid("non-array args")
	}
	if !dec.More() {
		return nil, eidInvalid("missing value for required argument 0")
	}
	var arg map[string]any
	if err := dec.Decode(&arg); err != nil {
		return nil, eidInvalid(fmt.Sprintf("invalid argument 0: %v", err))
	}
	if dec.More() {
		return nil, eidInvalid("too many arguments, want at most 1")
	}
	return arg, nil
}

// eidRequest reads the params of a did_* method and its identifier
// member, which must be a string ("<member> is null").
func eidRequest(params json.RawMessage, member string) (map[string]any, string, *jsonrpc.Error) {
	arg, perr := eidArg(params)
	if perr != nil {
		return nil, "", perr
	}
	given, ok := arg[member].(string)
	if !ok {
		return nil, "", eidInvalid(member + " is null")
	}
	return arg, given, nil
}

// eidAnswer is result, or EID's not-found answer for the identifier given
// when result says status 3.
func eidAnswer(result []byte, member, given string) json.RawMessage {
	if statusOf(result) == 3 {
		return notFound(member, given)
	}
	return result
}

// withPrefix is id as EID looks it up: with did:elastos: put before it
// when it does not start so.
func withPrefix(id string) string {
	if strings.HasPrefix(id, eidPrefix) {
		return id
	}
	return eidPrefix + id
}

// eidDID reads an EID DID parameter: nil when it names no DID one could
// hold (EID finds nothing under it), an error only when it is too long.
func eidDID(name, given string) (*did.DID, *jsonrpc.Error) {
	d, err := did.Parse(withPrefix(given))
	switch {
	case errors.Is(err, did.ErrTooLong):
		return nil, paramError(name, err)
	case err != nil:
		return nil, nil
	}
	return &d, nil
}

// notFound is EID's answer for an identifier it holds nothing under:
// the identifier as given, status 3.
func notFound(member, given string) json.RawMessage {
	b, _ := json.Marshal(map[string]any{member: given, "status": 3})
	return b
}

// statusOf reads the status member of a resolve result, reading no
// further than it.
func statusOf(result []byte) int {
	dec := json.NewDecoder(bytes.NewReader(result))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return -1
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return -1
		}
		if key == "status" {
			var n int
			if dec.Decode(&n) != nil {
				return -1
			}
			return n
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return -1
		}
	}
	return -1
}

// eidResolveDID answers did_resolveDID as EID does (didapi.go,
// ResolveDID): did must be a string ("did is null"), all is taken when a
// boolean and is false otherwise; a DID not found is answered with the
// did as given and status 3.
func (s *Server) eidResolveDID(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	arg, given, perr := eidRequest(params, "did")
	if perr != nil {
		return nil, perr
	}
	all, _ := arg["all"].(bool)
	d, perr := eidDID("did", given)
	switch {
	case perr != nil:
		return nil, perr
	case d == nil:
		return notFound("did", given), nil
	}
	result, err := s.dids.ResolveDIDSDK(ctx, *d, all)
	if err != nil {
		return nil, s.chainFailure("did_resolveDID", eidInvalid, err)
	}
	return eidAnswer(result, "did", given), nil
}

// eidResolveCredential answers did_resolveCredential as EID does
// (didapi.go, ResolveCredential): id must be a string ("id is null");
// issuer is taken when a non-empty string, with the prefix put before it;
// a credential not found is answered with the id as given and status 3.
// An issuer that is no DID at all is taken as none; EID takes it as a DID
// that revoked nothing, which differs only for a credential revoked by
// someone neither its owner nor its issuer, whose revoke EID then leaves
// out.
func (s *Server) eidResolveCredential(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	arg, given, perr := eidRequest(params, "id")
	if perr != nil {
		return nil, perr
	}
	id, err := did.ParseCredentialID(withPrefix(given))
	switch {
	case errors.Is(err, did.ErrTooLong):
		return nil, paramError("id", err)
	case err != nil:
		return notFound("id", given), nil
	}
	var issuer *did.DID
	if is, _ := arg["issuer"].(string); is != "" {
		d, perr := eidDID("issuer", is)
		if perr != nil {
			return nil, perr
		}
		issuer = d
	}
	result, cerr := s.dids.ResolveCredential(ctx, id, issuer)
	if cerr != nil {
		return nil, s.chainFailure("did_resolveCredential", eidInvalid, cerr)
	}
	return eidAnswer(result, "id", given), nil
}

// eidList is EID's did_listCredentials result (core/vm/did
// ListDIDVerifCreentials): an empty page is null.
type eidList struct {
	DID         string   `json:"did"`
	Credentials []string `json:"credentials"`
}

// eidListCredentials answers did_listCredentials as EID does (didapi.go,
// ListCredentials): did must be a string ("did is null") naming a DID that
// exists ("did is not exist"); skip and limit are taken when numbers, cut
// to whole ones, neither negative; limit 0 is 128 and one above 256 is
// 256; the did member is the DID as looked up.
func (s *Server) eidListCredentials(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	arg, given, perr := eidRequest(params, "did")
	if perr != nil {
		return nil, perr
	}
	d, perr := eidDID("did", given)
	switch {
	case perr != nil:
		return nil, perr
	case d == nil:
		return nil, eidInvalid("did is not exist")
	}
	skip, _ := arg["skip"].(float64)
	limit, _ := arg["limit"].(float64)
	// EID says whether the DID exists before it reads skip and limit. A
	// light node's upstream, an EID node, says it itself when it lists.
	if s.light == nil || s.queries != nil || int64(skip) < 0 || int64(limit) < 0 {
		resolved, err := s.dids.ResolveDIDSDK(ctx, *d, false)
		if err != nil {
			return nil, s.chainFailure("did_listCredentials", eidInvalid, err)
		}
		if statusOf(resolved) == 3 {
			return nil, eidInvalid("did is not exist")
		}
	}
	if int64(skip) < 0 {
		return nil, eidInvalid("skip is negative")
	}
	if int64(limit) < 0 {
		return nil, eidInvalid("limit is negative")
	}
	out := eidList{DID: withPrefix(given)}
	if limit != 0 && int64(limit) == 0 {
		return out, nil // a limit under 1 lists nothing
	}
	// A limit of 0 is the reader's default, 128, and one above 256 is 256
	// (resolve.CredentialPage), as on EID.
	result, err := s.dids.ListCredentials(ctx, *d, int(min(int64(skip), math.MaxInt32)), int(min(int64(limit), math.MaxInt32)))
	if err != nil {
		return nil, s.chainFailure("did_listCredentials", eidInvalid, err)
	}
	var page eidList
	if err := json.Unmarshal(result, &page); err != nil {
		return nil, s.chainFailure("did_listCredentials", eidInvalid, err)
	}
	if len(page.Credentials) > 0 {
		out.Credentials = page.Credentials
	}
	return out, nil
}
