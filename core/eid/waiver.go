package eid

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
)

// waiver decides, from the transactions the caller fetched, which checks
// EID did not make on an operation that breaks a rule (resolve.Checker's
// Waive), and notes the transactions it needs and has not got.
type waiver struct {
	net     Network
	txs     map[string]*Transaction
	missing []string
}

func newWaiver(env Env) *waiver {
	w := &waiver{net: env.Network, txs: make(map[string]*Transaction, len(env.Transactions))}
	for _, tx := range env.Transactions {
		w.txs[tx.Txid] = tx
	}
	return w
}

// waive is resolve.Checker.Waive. EID skipped checks only on creates and
// updates of standard DIDs: in its migration window the previousTxid, the
// document's syntax and proofs and its expiry (core/vm/didvalidator.go,
// checkRegisterDID and checkDIDOperation); up to CustomizeDIDHeight the
// expiry. Which applies depends on the transaction's block and sender.
// While those are unknown the weakest check (the signature) is made, so
// that a forgery no provenance would excuse is still found, and the txid
// is noted for the [NeedError].
func (w *waiver) waive(b resolve.Broken) (resolve.Waiver, error) {
	rule := idop.RuleOf(b.Err)
	operation := b.Op.Request.Header.Operation
	switch {
	case operation != idop.Create && operation != idop.Update, b.Op.Document.IsCustomized():
		return resolve.WaiveNone, nil
	case rule == idop.RuleExpired && w.net.CustomizeDIDHeight > 0:
	case rule != idop.RulePreviousTxid && rule != idop.RuleDocProof && rule != idop.RuleExpired,
		!w.net.mayBeMigrated(b.Time):
		return resolve.WaiveNone, nil
	}
	tx, ok := w.txs[b.Txid]
	if !ok {
		w.missing = append(w.missing, b.Txid)
		return resolve.WaiveMigrated, nil
	}
	if tx.Request != b.Op.Request {
		return resolve.WaiveNone, fmt.Errorf("eid: transaction %s, as the node describes it, carries another operation than the answer shows", b.Txid)
	}
	switch {
	case w.net.migrated(tx.Block, tx.From):
		return resolve.WaiveMigrated, nil
	case rule == idop.RuleExpired && tx.Block <= w.net.CustomizeDIDHeight:
		return resolve.WaiveExpiry, nil
	}
	return resolve.WaiveNone, &idop.RuleError{Rule: rule, Err: fmt.Errorf("%w; its transaction is in block %d from %s, which EID checked in full", errors.Unwrap(b.Err), tx.Block, tx.From)}
}
