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
	// transaction was checked on its own (see [idop.ValidateDetached]).
	Complete bool
	// History is the result's transactions as history entries, newest
	// first, and Documents the document each one publishes (nil for a
	// deactivate), index for index: what W3C resolution (core/w3c) builds
	// its answer from. A result names no blocks, so Height is 0 and
	// Position orders the transactions of one second as the result does.
	History   []Entry
	Documents []*did.Document
	// Waivers says, index for index with History, which checks the chain
	// did not make on each transaction and so were not made here (see
	// Checker); nil when every check was made on every transaction.
	Waivers []Waiver
}

// Waiver names checks a chain did not make on an operation it recorded,
// so that a verifier that holds the chain to them would call a genuine
// history forged. Checker.Waive grants them.
type Waiver uint8

// The waivers.
const (
	// WaiveNone: every check applies.
	WaiveNone Waiver = iota
	// WaiveExpiry: the expiry of the document, and of its controllers, at
	// the operation's time was not checked (EID before its
	// CustomizeDIDHeight checked no standard DID's expires).
	WaiveExpiry
	// WaiveMigrated: the operation was checked as [idop.ValidateMigrated]
	// does, its signature only: neither the document's syntax and proofs
	// nor an update's previousTxid (EID's migration window).
	WaiveMigrated
)

var waiverNames = [...]string{"none", "expiry", "migrated"}

func (w Waiver) String() string {
	if int(w) < len(waiverNames) {
		return waiverNames[w]
	}
	return fmt.Sprintf("waiver %d", int(w))
}

// Checker verifies resolve results as Verify does, in a dialect, with the
// exceptions of a chain that did not always check what it recorded.
type Checker struct {
	Dialect  Dialect
	Docs     did.Lookup
	Verifier keys.Verifier
	// Waive, when set, is asked about each transaction whose operation
	// breaks a rule: the waiver the chain granted it, [WaiveNone] to let the
	// error stand, or an error to report in its place. A waived operation
	// is checked again without the waived checks and must pass the rest.
	Waive func(Broken) (Waiver, error)
}

// Broken is a transaction whose operation breaks a rule, as Checker.Waive
// is asked about it.
type Broken struct {
	Index int       // in the result's transaction array
	Txid  string    // as the result gives it
	Time  time.Time // its timestamp
	Op    *idop.Op
	Err   error // a *idop.RuleError
}

// Verify checks a resolve result as the package's Verify does, in the
// checker's dialect, granting the waivers Waive gives.
func (c Checker) Verify(result []byte, now time.Time) (*Verified, error) {
	return c.verify(result, now)
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
// returned as such. The status is read in [DialectSpec]; see [Dialect.Verify]
// for did_resolveDID's. Errors are *VerifyError.
//
// Old operations were checked by the chain against the documents of their
// time, which a light client does not have: docs should answer with each
// DID's latest document even when that DID has since been deactivated, or
// an operation signed by a controller that is gone now fails to verify.
func Verify(result []byte, docs did.Lookup, v keys.Verifier, now time.Time) (*Verified, error) {
	return Checker{Dialect: DialectSpec, Docs: docs, Verifier: v}.verify(result, now)
}

func (c Checker) verify(result []byte, now time.Time) (*Verified, error) {
	dl := c.Dialect
	subject, status, txs, err := parseResult(dl, result)
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
	if err := checkTxids(dl, txs); err != nil {
		return nil, err
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
	st, waivers, err := c.replay(txs)
	if err != nil {
		return nil, err
	}
	out.Document, out.Txid, out.Complete = st.Document, st.Txid, txs[len(txs)-1].op.Request.Header.Operation == idop.Create
	out.History, out.Documents, out.Waivers = entries(txs), docsOf(txs), waivers
	if got := dl.Status(statusAt(st.Document.Expires(), st.Deactivated, now)); got != status {
		return nil, whole(RuleStatus, fmt.Errorf("the result says %d (%s), the transactions give %d (%s) at %s", status, status, got, got, did.FormatTime(now)))
	}
	return out, nil
}

// replay validates the transactions oldest first and returns the state they
// leave (Txid is that of the latest document) and the waivers granted,
// index for index (nil when none was).
func (c Checker) replay(txs []transaction) (*idop.State, []Waiver, error) {
	var st *idop.State
	var waivers []Waiver
	for i := len(txs) - 1; i >= 0; i-- {
		tx := txs[i]
		if st == nil && tx.op.Request.Header.Operation == idop.Deactivate {
			return nil, nil, at(i, tx, &idop.RuleError{Rule: idop.RuleNotFound, Err: errors.New("the history begins with a deactivate, without the document it deactivates")})
		}
		err := c.validate(tx, st, tx.time)
		if err != nil && c.Waive != nil {
			var w Waiver
			if w, err = c.waive(i, tx, st, err); w != WaiveNone {
				waivers = grant(waivers, len(txs), i, w)
			}
		}
		if err != nil {
			return nil, nil, at(i, tx, err)
		}
		if tx.op.Request.Header.Operation == idop.Deactivate {
			st.Deactivated = true
			continue
		}
		st = &idop.State{Document: tx.op.Document, Txid: tx.txid}
	}
	return st, waivers, nil
}

// validate checks tx against st, or on its own when st is nil (the oldest
// transaction of a result without history); a zero now skips expiry.
func (c Checker) validate(tx transaction, st *idop.State, now time.Time) error {
	if st == nil {
		return idop.ValidateDetached(tx.op, c.Docs, c.Verifier, now)
	}
	return idop.Validate(tx.op, st, c.Docs, c.Verifier, now)
}

// waive asks Waive about tx, which broke a rule with err, and checks it
// again without what the waiver it grants exempts it from.
func (c Checker) waive(i int, tx transaction, st *idop.State, err error) (Waiver, error) {
	w, werr := c.Waive(Broken{Index: i, Txid: tx.txid, Time: tx.time, Op: tx.op, Err: err})
	switch {
	case werr != nil:
		return WaiveNone, werr
	case w == WaiveExpiry:
		return w, c.validate(tx, st, time.Time{})
	case w == WaiveMigrated:
		return w, idop.ValidateMigrated(tx.op, st, c.Docs, c.Verifier)
	}
	return WaiveNone, err
}

// grant records waiver w for transaction i of n.
func grant(waivers []Waiver, n, i int, w Waiver) []Waiver {
	if waivers == nil {
		waivers = make([]Waiver, n)
	}
	waivers[i] = w
	return waivers
}

// entries returns the checked transactions as history entries, newest
// first.
func entries(txs []transaction) []Entry {
	h := make([]Entry, len(txs))
	for i, tx := range txs {
		h[i] = NewEntry(tx.op, tx.txid, 0, len(txs)-i, tx.time.Unix())
	}
	return h
}

// docsOf returns the document each transaction publishes, nil for a
// deactivate.
func docsOf(txs []transaction) []*did.Document {
	docs := make([]*did.Document, len(txs))
	for i, tx := range txs {
		docs[i] = tx.op.Document
	}
	return docs
}

// checkTxids requires in [DialectEID] the txids EID writes: EVM hashes as
// 64 lower-case hex digits, without 0x (Elastos.ELA.SideChain.EID
// internal/didapi/didtype.go, FromTranasactionData: Uint256.String). The
// nodes of didlight write their ledger's hashes alike.
func checkTxids(dl Dialect, txs []transaction) error {
	if dl != DialectEID {
		return nil
	}
	for i, tx := range txs {
		if len(tx.txid) != 64 || strings.Trim(tx.txid, "0123456789abcdef") != "" {
			return at(i, tx, &idop.RuleError{Rule: idop.RuleMalformed, Err: fmt.Errorf("txid %s is not 64 lower-case hex digits, as EID writes an EVM hash", excerpt.Quote(tx.txid))})
		}
	}
	return nil
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
func parseResult(dl Dialect, b []byte) (did.DID, Status, []transaction, error) {
	r, err := readResult(b)
	if err != nil {
		return did.DID{}, 0, nil, err
	}
	subject, status, err := r.header(dl)
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

// header checks the did and status members: the did in full form, except
// that in [DialectEID] a DID not found is the did as the request gave it,
// which may be the bare id, and status 1 is not given
// (Elastos.ELA.SideChain.EID internal/ethapi/didapi.go, ResolveDID).
func (r *rawResult) header(dl Dialect) (did.DID, Status, error) {
	if r.did == nil || r.status == nil {
		return did.DID{}, 0, errors.New("a result needs did and status")
	}
	s, err := rawString("did", r.did)
	if err != nil {
		return did.DID{}, 0, err
	}
	statuses := []Status{Valid, Expired, Deactivated, NotFound}
	if dl == DialectEID {
		statuses = []Status{Valid, Deactivated, NotFound}
	}
	n, err := rawStatus(r.status, statuses...)
	if err != nil {
		return did.DID{}, 0, err
	}
	if !strings.HasPrefix(s, "did:") && (dl != DialectEID || n != NotFound) {
		return did.DID{}, 0, fmt.Errorf("did %s is not in full form", excerpt.Quote(s))
	}
	subject, err := did.Parse(s)
	return subject, n, err
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
