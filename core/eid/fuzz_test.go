package eid

import (
	"errors"
	"testing"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

// FuzzDecodeLogData: DecodeLogData never panics, refuses with a
// RuleMalformed error, and what it accepts is written back as it came.
func FuzzDecodeLogData(f *testing.F) {
	h, _ := standard(f, 1, true)
	for _, r := range append(h, foobar(f)...) {
		f.Add(logData(r.req))
	}
	f.Add(readMainnetLog(f))
	f.Fuzz(func(t *testing.T, data string) {
		r, err := DecodeLogData(data)
		if err != nil {
			if idop.RuleOf(err) != idop.RuleMalformed {
				t.Fatalf("error %v is not malformed", err)
			}
			return
		}
		if got := logData(r); got != data {
			t.Fatalf("decoded %+v, which is written\n%s\nnot\n%s", r, got, data)
		}
	})
}

func readMainnetLog(f *testing.F) string {
	l, err := ParseLog(readMainnet(f).Receipt.DIDLog)
	if err != nil {
		f.Fatal(err)
	}
	return logData(l.Request)
}

// FuzzParseLog: ParseLog and Log.Decode never panic and fail with a
// *idop.RuleError.
func FuzzParseLog(f *testing.F) {
	f.Add([]byte(readMainnet(f).Receipt.DIDLog))
	f.Add([]byte(`{"did":"did:elastos:foobar","operation":"create","data":"","transactionHash":"0x00","removed":true}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		l, err := ParseLog(b)
		if err == nil {
			_, err = l.Decode()
		}
		if err != nil && idop.RuleOf(err) == "" {
			t.Fatalf("error %v is not a rule's", err)
		}
	})
}

// FuzzDecodeInput: the input decoders never panic, and what they accept
// is a request of the shape idop.Request.Check requires.
func FuzzDecodeInput(f *testing.F) {
	js := readMainnet(f).DIDRequest
	f.Add(true, precompileInput(js))
	f.Add(false, contractInput(js))
	f.Add(false, contractInput([]byte(`{}`)))
	f.Fuzz(func(t *testing.T, precompile bool, input []byte) {
		to := mainnetContract
		if precompile {
			to = PrecompileAddress
		}
		r, err := DecodeInput(to, input)
		if err != nil {
			if idop.RuleOf(err) != idop.RuleMalformed {
				t.Fatalf("error %v is not malformed", err)
			}
			return
		}
		if err := r.Check(); err != nil {
			t.Fatalf("accepted %+v: %v", r, err)
		}
	})
}

// FuzzParseTransaction: ParseTransaction never panics, and what it
// accepts has a txid, an address for sender and recipient and a request.
func FuzzParseTransaction(f *testing.F) {
	h, _ := standard(f, 0, false)
	f.Add(txAnswer(f, h[0], 1200, migrationSender))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":null}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := ParseTransaction(b)
		if err != nil {
			return
		}
		if !isTxid(tx.Txid) || !isAddress(tx.From) || !isAddress(tx.To) || tx.Request.Check() != nil {
			t.Fatalf("accepted %+v", tx)
		}
	})
}

// FuzzParseChainID: ParseChainID never panics.
func FuzzParseChainID(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":"0x16"}`))
	f.Add([]byte(`"0x17"`))
	f.Fuzz(func(t *testing.T, b []byte) {
		if id, err := ParseChainID(b); err != nil && id != 0 {
			t.Fatalf("chain id %d with error %v", id, err)
		}
	})
}

// FuzzVerifyDID: verifying any answer never panics, and fails with a
// *resolve.VerifyError, a *NeedError or an error of its own, never by
// accepting a result without the status's transactions.
func FuzzVerifyDID(f *testing.F) {
	h, subject := standard(f, 2, true)
	f.Add(eidAnswer(f, h, subject.String(), true), true)
	f.Add(eidAnswer(f, h, subject.String(), false), false)
	f.Add(eidAnswer(f, nil, subject.ID(), false), false)
	f.Add([]byte(`{"did":"did:elastos:foobar","status":0,"transaction":[{"txid":"`+evmTxid("x")+`","timestamp":"2022-01-01T00:00:00Z","operation":{}}]}`), false)
	e := Env{Network: Mainnet, Verifier: keys.Native{}, Now: t0.AddDate(0, 0, 10)}
	f.Fuzz(func(t *testing.T, answer []byte, all bool) {
		r, err := VerifyDID(answer, Request{subject.String(), all}, e)
		var ve *resolve.VerifyError
		var ne *NeedError
		switch {
		case err != nil && (errors.As(err, &ve) || errors.As(err, &ne)):
		case err != nil:
			if err.Error() == "" {
				t.Fatal("an error that says nothing")
			}
		case r.Status != resolve.NotFound && len(r.History) == 0:
			t.Fatalf("status %v without transactions", r.Status)
		}
	})
}

// FuzzVerifyCredential: verifying any credential answer never panics, and
// a status other than not found with transactions shown names them.
func FuzzVerifyCredential(f *testing.F) {
	v := vcOf(f, "user1.vc.twitter").revoke("user4").declare("user1").revoke("issuer")
	id := v.vc.ID.String()
	f.Add(eidCredentialAnswer(f, v, id, ""), "")
	f.Add(eidCredentialAnswer(f, v, id, issuerDID), issuerDID)
	f.Add(eidCredentialAnswer(f, vcOf(f, "user1.vc.twitter"), id, ""), "")
	docs := sdkDocs(f)
	f.Fuzz(func(t *testing.T, answer []byte, issuer string) {
		e := Env{Network: Mainnet, Docs: docs, Verifier: keys.Native{}, Now: t0}
		r, err := VerifyCredential(answer, CredentialRequest{ID: id, Issuer: issuer}, e)
		if err == nil && r.Status == resolve.CredentialValid && r.Credential == nil {
			t.Fatal("valid without a declared credential")
		}
	})
}

// FuzzVerifyCredentialList: verifying any list never panics, and what it
// accepts is credentials of the DID asked for.
func FuzzVerifyCredentialList(f *testing.F) {
	f.Add([]byte(`{"jsonrpc":"2.0","id":1,"result":{"did":"`+user1DID+`","credentials":["`+user1DID+`#a"]}}`), 0)
	f.Add([]byte(`{"did":"`+user1DID+`","credentials":null}`), 1)
	f.Fuzz(func(t *testing.T, answer []byte, limit int) {
		l, err := VerifyCredentialList(answer, ListRequest{DID: user1DID, Limit: limit})
		if err != nil {
			return
		}
		for _, id := range l.IDs {
			if id.DID.String() != user1DID {
				t.Fatalf("accepted %s", id)
			}
		}
	})
}
