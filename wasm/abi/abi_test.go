package abi

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
)

func decodeEnvelope(t *testing.T, out []byte) Envelope {
	t.Helper()
	var e Envelope
	if err := json.Unmarshal(out, &e); err != nil || (e.Error == nil) == (e.Result == nil) {
		t.Fatalf("not an envelope with one of result and error: %s (%v)", out, err)
	}
	return e
}

// A panic inside a call becomes an internal error object.
func TestRunRecoversPanics(t *testing.T) {
	out := run([]byte(`{"did":"foo"}`), Env{}, func(*ParseDIDInput, Env) (ParsedDID, error) { panic("boom") })
	e := decodeEnvelope(t, out)
	if e.Error == nil || e.Error.Type != TypeInternal || !strings.Contains(e.Error.Message, "boom") {
		t.Errorf("panic: %s", out)
	}
}

// Inputs are one strict JSON object.
func TestStrictInput(t *testing.T) {
	for i, tc := range []struct{ in, msg string }{
		{`{"did":"foo","dids":1}`, `unknown field "dids"`},
		{`{"did":"foo"} {}`, "data after the input object"},
		{`{"did":"foo"`, "unexpected EOF"},
		{`{"did":5}`, "cannot unmarshal number"},
		{``, "EOF"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			e := decodeEnvelope(t, ParseDID([]byte(tc.in), Env{}))
			if e.Error == nil || e.Error.Type != TypeInput || !strings.Contains(e.Error.Message, tc.msg) {
				t.Errorf("%q: %+v, want an input error containing %q", tc.in, e.Error, tc.msg)
			}
		})
	}
	if e := decodeEnvelope(t, ParseDID([]byte(` {"did":"foo"} `), Env{})); e.Error != nil {
		t.Errorf("spaces around the object: %v", e.Error)
	}
}

// Each kind of core error becomes its error object, and the object
// unwraps to what errors.Is and errors.As look for.
func TestErrorObjects(t *testing.T) {
	ruleErr := &idop.RuleError{Rule: idop.RuleSignature, Err: errors.New("does not verify")}
	verifyErr := &resolve.VerifyError{Index: 2, Txid: "ab", Rule: idop.RuleSignature, Err: ruleErr}
	decodeErr := &ela.DecodeError{Object: "tx", Offset: 7, Field: "inputs", Err: fmt.Errorf("%w: 3 bytes", ela.ErrTruncated)}
	_, docErr := did.ParseDocument([]byte(`{"id":5}`))
	_, syntaxErr := find.Compile(`{a:`)
	_, condErr := find.Compile(`{a:{$where:1}}`)
	foobar, _ := did.Parse("did:elastos:foobar")
	needErr := &eid.NeedError{DIDs: []did.DID{foobar}, Txids: []string{"ab"}}
	for i, tc := range []struct {
		err  error
		typ  string
		rule string
		is   error
	}{
		{ruleErr, TypeRule, "signature", nil},
		{fmt.Errorf("abi: x: %w", verifyErr), TypeVerify, "signature", nil},
		{decodeErr, TypeDecode, "truncated", ela.ErrTruncated},
		{fmt.Errorf("ela: %w: no program", ela.ErrSignature), TypeSignature, "", ela.ErrSignature},
		{docErr, TypeDocument, "malformed", did.ErrMalformed},
		{syntaxErr, TypeSyntax, "", nil},
		{condErr, TypeCondition, "unsupported operator", nil},
		{inputError("x"), TypeInput, "", nil},
		{fmt.Errorf("abi: x: %w", needErr), TypeNeed, "", nil},
		{errors.New("other"), TypeInvalid, "", nil},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			e := errorOf(tc.err)
			if e.Type != tc.typ || e.Rule != tc.rule || e.Message != tc.err.Error() {
				t.Errorf("%v: %+v, want type %s rule %q", tc.err, e, tc.typ, tc.rule)
			}
			if tc.is != nil && !errors.Is(e, tc.is) {
				t.Errorf("%v: the object does not unwrap to %v", tc.err, tc.is)
			}
		})
	}
	var re *idop.RuleError
	if e := errorOf(ruleErr); !errors.As(e, &re) || re.Rule != idop.RuleSignature || re.Error() != e.Message {
		t.Errorf("rule error unwraps to %#v", re)
	}
	var ve *resolve.VerifyError
	if e := errorOf(verifyErr); !errors.As(e, &ve) || ve.Index != 2 || ve.Txid != "ab" {
		t.Errorf("verify error unwraps to %#v", ve)
	}
	var ne *eid.NeedError
	if e := errorOf(needErr); !errors.As(e, &ne) || len(ne.DIDs) != 1 || ne.DIDs[0] != foobar || !slices.Equal(ne.Txids, needErr.Txids) ||
		!slices.Equal(e.DIDs, []string{"did:elastos:foobar"}) {
		t.Errorf("need error %+v unwraps to %#v", e, ne)
	}
}

// FuzzCalls gives any input to any call: the answer is always an envelope.
func FuzzCalls(f *testing.F) {
	calls := Calls()
	for i := range calls {
		f.Add(uint8(i), []byte(`{}`))
	}
	f.Add(uint8(0), []byte(`{"did":"did:elastos:foo"}`))
	f.Add(uint8(5), []byte(`{"condition":"{a:{$in:[1,2]}}","documents":[{"a":1}]}`))
	f.Fuzz(func(t *testing.T, call uint8, in []byte) {
		c := calls[int(call)%len(calls)]
		decodeEnvelope(t, c.Run(in, Env{}))
	})
}
