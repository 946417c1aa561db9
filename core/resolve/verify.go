package resolve

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
)

// Rules of a resolve result beyond those of its operations.
const (
	RuleStatus idop.Rule = "status" // the claimed status does not follow from the transactions
	RuleOrder  idop.Rule = "order"  // the transactions are not newest first
)

// VerifyError says what is wrong with a resolve result: which transaction
// (Index in the result's array and Txid; Index -1 for the result as a
// whole) breaks which rule.
type VerifyError struct {
	Index int
	Txid  string
	Rule  idop.Rule
	Err   error
}

func (e *VerifyError) Error() string {
	if e.Index < 0 {
		return fmt.Sprintf("resolve: %s: %v", e.Rule, e.Err)
	}
	return fmt.Sprintf("resolve: transaction %d (%s): %s: %v", e.Index, e.Txid, e.Rule, e.Err)
}

func (e *VerifyError) Unwrap() error { return e.Err }

// Verified is what a resolve result proves once checked.
type Verified struct {
	DID    did.DID
	Status Status
	// Document is the latest document and Txid its transaction; nil and ""
	// for a DID that does not exist.
	Document *did.Document
	Txid     string
	// Complete reports that the transactions begin with the DID's create,
	// so that every link of the history was checked. Otherwise the oldest
	// transaction was checked on its own (see idop.ValidateDetached).
	Complete bool
	// History is the result's transactions as history entries, newest
	// first, and Documents the document each one publishes (nil for a
	// deactivate), index for index: what W3C resolution (core/w3c) builds
	// its answer from. A result names no blocks, so Height is 0 and
	// Position orders the transactions of one second as the result does.
	History   []Entry
	Documents []*did.Document
}

// transaction is one element of a result's transaction array.
type transaction struct {
	txid string
	time time.Time
	op   *idop.Op
}

// Verify checks a resolve result (the result object, or a JSON-RPC response
// holding it) as a light client must: every operation is decoded and
// validated in chain order against the state the ones before it leave,
// with docs to look controllers' documents up and each transaction's time as
// its block time; the transactions must be newest first and all of the
// result's DID; the status must follow from them at the reference time now.
// A result that claims the DID does not exist cannot be disproved and is
// returned as such. The status is read in DialectSpec; see Dialect.Verify
// for did_resolveDID's. Errors are *VerifyError.
//
// Old operations were checked by the chain against the documents of their
// time, which a light client does not have: docs should answer with each
// DID's latest document even when that DID has since been deactivated, or
// an operation signed by a controller that is gone now fails to verify.
func Verify(result []byte, docs did.Lookup, v keys.Verifier, now time.Time) (*Verified, error) {
	return verify(DialectSpec, result, docs, v, now)
}

func verify(dl Dialect, result []byte, docs did.Lookup, v keys.Verifier, now time.Time) (*Verified, error) {
	subject, status, txs, err := parseResult(result)
	if err != nil {
		return nil, err
	}
	out := &Verified{DID: subject, Status: status}
	if err := checkTransactionCount(status != NotFound, int(status), len(txs)); err != nil {
		return nil, err
	}
	if status == NotFound {
		return out, nil
	}
	key := subject.Key()
	for i, tx := range txs {
		if d := tx.op.DID; d != subject && d.Key() != key { // Key parses the id: only when they differ
			return nil, at(i, tx, &idop.RuleError{Rule: idop.RuleDocID, Err: fmt.Errorf("an operation on %s in the result of %s", tx.op.DID, subject)})
		}
		if i > 0 && tx.time.After(txs[i-1].time) {
			return nil, at(i, tx, &idop.RuleError{Rule: RuleOrder, Err: fmt.Errorf("%s is newer than the transaction before it", did.FormatTime(tx.time))})
		}
	}
	st, err := replay(txs, docs, v)
	if err != nil {
		return nil, err
	}
	out.Document, out.Txid, out.Complete = st.Document, st.Txid, txs[len(txs)-1].op.Request.Header.Operation == idop.Create
	out.History, out.Documents = entries(txs)
	if got := dl.Status(statusAt(st.Document.Expires(), st.Deactivated, now)); got != status {
		return nil, whole(RuleStatus, fmt.Errorf("the result says %d (%s), the transactions give %d (%s) at %s", status, status, got, got, did.FormatTime(now)))
	}
	return out, nil
}

// replay validates the transactions oldest first and returns the state they
// leave; Txid is that of the latest document.
func replay(txs []transaction, docs did.Lookup, v keys.Verifier) (*idop.State, error) {
	var st *idop.State
	for i := len(txs) - 1; i >= 0; i-- {
		tx := txs[i]
		var err error
		switch {
		case st != nil:
			err = idop.Validate(tx.op, st, docs, v, tx.time)
		case tx.op.Request.Header.Operation == idop.Deactivate:
			err = &idop.RuleError{Rule: idop.RuleNotFound, Err: errors.New("the history begins with a deactivate, without the document it deactivates")}
		default:
			err = idop.ValidateDetached(tx.op, docs, v, tx.time)
		}
		if err != nil {
			return nil, at(i, tx, err)
		}
		if tx.op.Request.Header.Operation == idop.Deactivate {
			st.Deactivated = true
			continue
		}
		st = &idop.State{Document: tx.op.Document, Txid: tx.txid}
	}
	return st, nil
}

// entries returns the checked transactions as history entries, newest
// first, and the documents they publish.
func entries(txs []transaction) ([]Entry, []*did.Document) {
	h, docs := make([]Entry, len(txs)), make([]*did.Document, len(txs))
	for i, tx := range txs {
		h[i] = NewEntry(tx.op, tx.txid, 0, len(txs)-i, tx.time.Unix())
		docs[i] = tx.op.Document
	}
	return h, docs
}

// checkTransactionCount requires transactions exactly when the status
// says that the subject exists.
func checkTransactionCount(exists bool, status, n int) error {
	switch {
	case !exists && n > 0:
		return whole(idop.RuleMalformed, errors.New("status 3 (not found) with transactions"))
	case exists && n == 0:
		return whole(idop.RuleMalformed, fmt.Errorf("status %d without transactions", status))
	}
	return nil
}

func whole(r idop.Rule, err error) *VerifyError { return &VerifyError{Index: -1, Rule: r, Err: err} }

// at reports err about transaction i, with the rule it names (a
// *idop.RuleError) or else RuleMalformed.
func at(i int, tx transaction, err error) *VerifyError {
	re := &idop.RuleError{Rule: idop.RuleMalformed, Err: err}
	errors.As(err, &re)
	return &VerifyError{Index: i, Txid: tx.txid, Rule: re.Rule, Err: re.Err}
}

// rawResult is a result object as read, before its parts are checked:
// did (a DID's) or id (a credential's), status and transactions.
type rawResult struct {
	did, id, status []byte
	txs             []rawTransaction
}

type rawTransaction struct {
	txid, timestamp string
	operation       []byte
}

// readResult reads a result object, or the result member of a JSON-RPC
// response (an object with result or error and no status).
func readResult(b []byte) (*rawResult, error) {
	var r rawResult
	var rpcResult, rpcError []byte
	d := sdkjson.NewDecoder(b)
	for m := d.Object(); m.Next(); {
		switch m.Key() {
		case "did":
			r.did = d.Raw()
		case "id":
			r.id = d.Raw()
		case "status":
			r.status = d.Raw()
		case "transaction":
			for e := d.Array(); e.Next(); {
				r.txs = append(r.txs, readTransaction(d))
			}
		case "result":
			rpcResult = d.Raw()
		case "error":
			rpcError = d.Raw()
		default:
			d.Skip()
		}
	}
	if err := d.Finish(); err != nil {
		return nil, whole(idop.RuleMalformed, err)
	}
	switch {
	case r.status == nil && rpcError != nil && string(rpcError) != "null":
		return nil, whole(idop.RuleMalformed, fmt.Errorf("the node answered an error: %s", rpcError))
	case r.status == nil && rpcResult != nil:
		return readResult(rpcResult)
	}
	return &r, nil
}

// parseResult reads a DID's resolve result and decodes its operations.
func parseResult(b []byte) (did.DID, Status, []transaction, error) {
	r, err := readResult(b)
	if err != nil {
		return did.DID{}, 0, nil, err
	}
	subject, status, err := r.header()
	if err != nil {
		return did.DID{}, 0, nil, whole(idop.RuleMalformed, err)
	}
	txs, err := r.transactions()
	return subject, status, txs, err
}

// transactions decodes the transactions' operations.
func (r *rawResult) transactions() ([]transaction, error) {
	txs := make([]transaction, len(r.txs))
	for i, raw := range r.txs {
		var err error
		if txs[i], err = raw.decode(); err != nil {
			return nil, at(i, txs[i], err)
		}
	}
	return txs, nil
}

func readTransaction(d *sdkjson.Decoder) rawTransaction {
	var t rawTransaction
	for m := d.Object(); m.Next(); {
		switch m.Key() {
		case "txid":
			t.txid = d.Str()
		case "timestamp":
			t.timestamp = d.Str()
		case "operation":
			t.operation = d.Raw()
		default:
			d.Skip()
		}
	}
	return t
}

// header checks the did (full form) and status members.
func (r *rawResult) header() (did.DID, Status, error) {
	if r.did == nil || r.status == nil {
		return did.DID{}, 0, errors.New("a result needs did and status")
	}
	s, err := rawString("did", r.did)
	if err != nil {
		return did.DID{}, 0, err
	}
	if !strings.HasPrefix(s, "did:") {
		return did.DID{}, 0, fmt.Errorf("did %s is not in full form", excerpt.Quote(s))
	}
	subject, err := did.Parse(s)
	if err != nil {
		return did.DID{}, 0, err
	}
	n, err := rawStatus(r.status, Valid, Expired, Deactivated, NotFound)
	return subject, Status(n), err
}

// rawString reads the JSON string of a member.
func rawString(name string, raw []byte) (string, error) {
	d := sdkjson.NewDecoder(raw)
	s := d.Str()
	if err := d.Finish(); err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	return s, nil
}

// rawStatus reads a status that must be one of allowed.
func rawStatus[S ~int](raw []byte, allowed ...S) (S, error) {
	d := sdkjson.NewDecoder(raw)
	n := d.Int()
	ok := d.Finish() == nil
	names := make([]string, len(allowed))
	for i, s := range allowed {
		if ok && int64(s) == n {
			return s, nil
		}
		names[i] = strconv.Itoa(int(s))
	}
	return 0, fmt.Errorf("status %s is not one of %s", raw, strings.Join(names, ", "))
}

// decode checks a transaction's members and decodes its operation.
func (raw rawTransaction) decode() (transaction, error) {
	tx := transaction{txid: raw.txid}
	if raw.txid == "" {
		return tx, errors.New("transaction without txid")
	}
	t, err := time.Parse(time.RFC3339, raw.timestamp)
	if err != nil {
		return tx, fmt.Errorf("timestamp %s is not RFC 3339", excerpt.Quote(raw.timestamp))
	}
	tx.time = t
	if raw.operation == nil {
		return tx, errors.New("transaction without operation")
	}
	req, err := idop.ParseRequest(raw.operation)
	if err != nil {
		return tx, err
	}
	tx.op, err = idop.Decode(req)
	return tx, err
}
