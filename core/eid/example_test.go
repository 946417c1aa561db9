package eid_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// mainnetLog is the didLog of a genuine mainnet receipt (the create of
// did:elastos:imwh9khL6uVJtrLcwYGJrAX4CHSSZKuJ9p, block 1,174,647).
func mainnetLog() []byte {
	var rec struct {
		Receipt struct{ DIDLog json.RawMessage } `json:"blockchainTxReceipt"`
	}
	_ = json.Unmarshal(vectors.Read("eid/mainnet-create-fb861dda.json"), &rec)
	return rec.Receipt.DIDLog
}

// A receipt's didLog holds the whole signed operation: it decodes back to
// the request JSON the SDKs and resolve answers show.
func ExampleParseLog() {
	l, err := eid.ParseLog(mainnetLog())
	if err != nil {
		fmt.Println(err)
		return
	}
	op, err := l.Decode()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(l.Txid)
	fmt.Println(op.Request.Header.Operation, op.DID)
	fmt.Printf("%.70s…\n", l.Request.AppendJSON(nil))
	// Output:
	// fb861ddaf27b371a66d0ac456bebe88b23ac95fbfa1f3bfe7e4a8b4b71caa78d
	// create did:elastos:imwh9khL6uVJtrLcwYGJrAX4CHSSZKuJ9p
	// {"header":{"specification":"elastos/did/1.0","operation":"create"},"pa…
}

// A light client verifies an EID node's did_resolveDID answer, fetching
// what verification asks for until it can decide. Here the answer holds
// the mainnet create above (the answer itself is made up: no mainnet
// resolve answer is on record).
func ExampleVerifyDID() {
	l, _ := eid.ParseLog(mainnetLog())
	answer := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":"5f2a","result":{"did":%q,"status":0,"transaction":[{"txid":%q,"timestamp":"2021-08-31T23:20:00Z","operation":%s}]}}`,
		l.Subject, l.Txid, l.Request.AppendJSON(nil))
	env := eid.Env{Network: eid.Mainnet, Verifier: keys.Native{}, Now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)}
	r, err := eid.VerifyDID(answer, eid.Request{DID: l.Subject, All: true}, env)
	var need *eid.NeedError
	switch {
	case errors.As(err, &need):
		// Resolve need.DIDs and verify them (env.Docs then serves them);
		// fetch need.Txids with eth_getTransactionByHash and pass what
		// eid.ParseTransaction reads in env.Transactions; verify again.
		fmt.Println(need)
	case err != nil:
		fmt.Println("refused:", err)
	default:
		fmt.Println(r.DID, r.Status, r.Report.Outcome)
		fmt.Println("checked:", r.Report.Checked)
		fmt.Println("trusted:", r.Report.Trusted)
	}
	// Output:
	// did:elastos:imwh9khL6uVJtrLcwYGJrAX4CHSSZKuJ9p valid verified
	// checked: [answer-form order signatures key-derivation document-proofs expiry status]
	// trusted: [inclusion block-time newest]
}
