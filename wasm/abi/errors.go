package abi

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/resolve"
)

// Error is the error object of a failed call. Type says what kind of
// failure it is and which other members are set; Message is the whole
// error text, as the native Go error would print it.
type Error struct {
	Type    string `json:"type"`
	Message string `json:"message"`
	// Rule names the rule broken: an idop.Rule for "rule" and "verify"
	// errors, the kind of document error for "document" ("malformed",
	// "proof", ...), of decoding failure for "decode" ("truncated", ...),
	// or of condition error for "condition" ("unknown operator", ...).
	Rule string `json:"rule,omitempty"`
	// Detail is what went wrong, without the context Message adds.
	Detail string `json:"detail,omitempty"`
	// Index and Txid: the transaction of a resolve result at fault, for
	// "verify" errors (Index -1: the result as a whole).
	Index *int   `json:"index,omitempty"`
	Txid  string `json:"txid,omitempty"`
	// Offset: a byte offset in the input text ("syntax") or binary input
	// ("decode").
	Offset *int `json:"offset,omitempty"`
	// Field: the field at fault ("decode", as "inputs[2].sequence").
	Field string `json:"field,omitempty"`
	// Expected and Found: the syntax error ("syntax").
	Expected string `json:"expected,omitempty"`
	Found    string `json:"found,omitempty"`
	// Operator and Path: the operator at fault and the field path it
	// applies to ("condition").
	Operator string `json:"operator,omitempty"`
	Path     string `json:"path,omitempty"`
	// DIDs and Txids: what verification needs fetched ("need"): the
	// did_resolveDID answers (all=true) of those DIDs and the
	// eth_getTransactionByHash answers of those transactions.
	DIDs  []string `json:"dids,omitempty"`
	Txids []string `json:"txids,omitempty"`
}

// Types of errors.
const (
	TypeInput     = "input"     // the input is not what the call takes
	TypeRule      = "rule"      // an operation breaks a rule (idop.RuleError)
	TypeVerify    = "verify"    // a resolve result does not verify (resolve.VerifyError)
	TypeDocument  = "document"  // a document is malformed or not genuine (did.Error)
	TypeSyntax    = "syntax"    // a find condition does not parse (find.SyntaxError)
	TypeCondition = "condition" // a find condition is not valid (find.ConditionError)
	TypeDecode    = "decode"    // a ledger transaction does not decode (ela.DecodeError)
	TypeSignature = "signature" // a transaction's programs do not sign it (ela.ErrSignature)
	TypeNeed      = "need"      // verifying needs more from the upstream (eid.NeedError)
	TypeInvalid   = "invalid"   // any other error core returns
	TypeInternal  = "internal"  // a bug: a panic inside the call
)

func (e *Error) Error() string { return e.Message }

func (e *Error) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.String("type", e.Type)
	o.String("message", e.Message)
	o.StringOmit("rule", e.Rule)
	o.StringOmit("detail", e.Detail)
	intOmit(&o, "index", e.Index)
	o.StringOmit("txid", e.Txid)
	intOmit(&o, "offset", e.Offset)
	o.StringOmit("field", e.Field)
	o.StringOmit("expected", e.Expected)
	o.StringOmit("found", e.Found)
	o.StringOmit("operator", e.Operator)
	o.StringOmit("path", e.Path)
	if len(e.DIDs) > 0 {
		o.Strings("dids", e.DIDs)
	}
	if len(e.Txids) > 0 {
		o.Strings("txids", e.Txids)
	}
	return o.End()
}

// Unwrap rebuilds the native error that an error object stands for, as far
// as callers test for it: an *idop.RuleError ("rule"), a
// *resolve.VerifyError ("verify"), an *eid.NeedError ("need"),
// ela.ErrSignature ("signature"), the did.Err* kind of a "document" error
// and the ela.Err* kind of a "decode" error. So idop.RuleOf, errors.As and
// errors.Is see through the module.
func (e *Error) Unwrap() error {
	switch e.Type {
	case TypeRule:
		return &idop.RuleError{Rule: idop.Rule(e.Rule), Err: errors.New(e.Detail)}
	case TypeVerify:
		index := -1
		if e.Index != nil {
			index = *e.Index
		}
		return &resolve.VerifyError{Index: index, Txid: e.Txid, Rule: idop.Rule(e.Rule), Err: errors.New(e.Detail)}
	case TypeNeed:
		need := &eid.NeedError{Txids: e.Txids}
		for _, s := range e.DIDs {
			if d, err := did.Parse(s); err == nil {
				need.DIDs = append(need.DIDs, d)
			}
		}
		return need
	case TypeSignature:
		return ela.ErrSignature
	case TypeDocument:
		return kindError(e.Rule, documentKinds)
	case TypeDecode:
		return kindError(e.Rule, decodeKinds)
	}
	return nil
}

// A kind is a sentinel error and the name an error object gives it.
type kind struct {
	err  error
	name string
}

var documentKinds = []kind{
	{did.ErrMalformed, "malformed"}, {did.ErrExpires, "expires"}, {did.ErrDefaultKey, "default-key"},
	{did.ErrProof, "proof"}, {did.ErrKey, "key"}, {did.ErrNoDocument, "no-document"},
}

var decodeKinds = []kind{
	{ela.ErrTruncated, "truncated"}, {ela.ErrTrailingData, "trailing-data"}, {ela.ErrNonCanonical, "non-canonical"},
	{ela.ErrTooLarge, "too-large"}, {ela.ErrInvalid, "invalid"}, {ela.ErrUnsupported, "unsupported"},
}

func kindName(err error, kinds []kind) string {
	for _, k := range kinds {
		if errors.Is(err, k.err) {
			return k.name
		}
	}
	return ""
}

func kindError(name string, kinds []kind) error {
	for _, k := range kinds {
		if k.name == name {
			return k.err
		}
	}
	return nil
}

// inputErr is an input that is not what the call takes.
type inputErr struct{ msg string }

func (e *inputErr) Error() string { return "abi: input: " + e.msg }

func inputError(format string, args ...any) error {
	return &inputErr{fmt.Sprintf(format, args...)}
}

// errorOf describes err as an error object. Wrapping errors are looked
// through, the most specific first: a resolve result's error before the
// rule it names.
func errorOf(err error) *Error {
	e := &Error{Type: TypeInvalid, Message: err.Error()}
	var (
		in   *inputErr
		need *eid.NeedError
		ve   *resolve.VerifyError
		re   *idop.RuleError
		se   *find.SyntaxError
		ce   *find.ConditionError
		de   *ela.DecodeError
		doc  *did.Error
	)
	switch {
	case errors.As(err, &in):
		e.Type = TypeInput
	case errors.As(err, &need):
		e.Type, e.Txids = TypeNeed, need.Txids
		for _, d := range need.DIDs {
			e.DIDs = append(e.DIDs, d.String())
		}
	case errors.As(err, &ve):
		e.Type, e.Rule, e.Detail, e.Index, e.Txid = TypeVerify, string(ve.Rule), ve.Err.Error(), &ve.Index, ve.Txid
	case errors.As(err, &re):
		e.Type, e.Rule, e.Detail = TypeRule, string(re.Rule), re.Err.Error()
	case errors.As(err, &se):
		e.Type, e.Offset, e.Expected, e.Found = TypeSyntax, &se.Offset, se.Expected, se.Found
	case errors.As(err, &ce):
		e.Type, e.Rule, e.Operator, e.Path, e.Detail = TypeCondition, ce.Rule.String(), ce.Operator, ce.Path, ce.Detail
	case errors.As(err, &de):
		e.Type, e.Rule, e.Field, e.Detail = TypeDecode, kindName(de.Err, decodeKinds), de.Field, de.Err.Error()
		if de.Offset >= 0 {
			e.Offset = &de.Offset
		}
	case errors.Is(err, ela.ErrSignature):
		e.Type = TypeSignature
	case errors.As(err, &doc):
		e.Type, e.Rule = TypeDocument, kindName(doc, documentKinds)
	}
	return e
}

// BufferError is the output of a call whose input buffer the module did
// not hand out (a host bug): n bytes at p.
func BufferError(p, n uint32) []byte {
	return errorEnvelope(errorOf(inputError("%d bytes at %#x: not a buffer from alloc", n, p)))
}

// intOmit writes a *int member unless it is nil (omitempty).
func intOmit(o *jsontext.Object, k string, v *int) {
	if v != nil {
		o.Int(k, int64(*v))
	}
}
