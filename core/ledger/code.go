package ledger

import (
	"errors"
	"fmt"
)

// Code is an error code of the Elastos node APIs naming the rule a
// transaction breaks (Elastos.ELA servers/errors/errcode.go; the side
// chain's mempool/error.go uses the same numbers).
type Code int

// The codes of transaction rules. Those a mempool decides (Duplicate,
// [PoolFull], and [DoubleSpend] against pooled transactions) are here too, so
// that one type names every reason a node refuses a transaction.
const (
	Malformed         Code = 43001 // the bytes are not a transaction (InvalidTransaction)
	InvalidInput      Code = 45003 // no inputs, a repeated input, or a coinbase input outside a coinbase
	InvalidOutput     Code = 45004 // no outputs, another asset, or an address kind outputs may not use
	Balance           Code = 45006 // outputs exceed inputs, the fee is below the minimum, or a sum overflows
	Signature         Code = 45008 // the programs do not sign every input as required
	Payload           Code = 45009 // a payload the chain does not accept, or an invalid identity operation
	DoubleSpend       Code = 45010 // an output already spent, in the chain or by another transaction
	Duplicate         Code = 45011 // the transaction is already in the chain or the pool
	Size              Code = 45015 // the transaction is larger than a block may be
	UnknownReferredTx Code = 45016 // an input names a transaction or output the chain does not hold
	ImmatureCoinbase  Code = 45018 // an input spends a coinbase output before it matures (IneffectiveCoinbase)
	Locked            Code = 45019 // an input spends a locked output, or the transaction is not final yet (UTXOLocked)
	PoolFull          Code = 45024 // the transaction pool holds as many transactions as it may
)

var codeNames = map[Code]string{
	Malformed:         "InvalidTransaction",
	InvalidInput:      "ErrInvalidInput",
	InvalidOutput:     "ErrInvalidOutput",
	Balance:           "ErrTransactionBalance",
	Signature:         "ErrTransactionSignature",
	Payload:           "ErrTransactionPayload",
	DoubleSpend:       "ErrDoubleSpend",
	Duplicate:         "ErrTransactionDuplicate",
	Size:              "ErrTransactionSize",
	UnknownReferredTx: "ErrUnknownReferredTx",
	ImmatureCoinbase:  "ErrIneffectiveCoinbase",
	Locked:            "ErrUTXOLocked",
	PoolFull:          "ErrTransactionPoolSize",
}

// String returns the name the Elastos nodes give the code, or its number.
func (c Code) String() string {
	if s, ok := codeNames[c]; ok {
		return s
	}
	return fmt.Sprintf("Code(%d)", int(c))
}

// RuleError is the error of a transaction that breaks a rule.
type RuleError struct {
	Code Code
	Err  error
}

func (e *RuleError) Error() string { return "ledger: " + e.Code.String() + ": " + e.Err.Error() }

func (e *RuleError) Unwrap() error { return e.Err }

// CodeOf returns the code of the rule err breaks, or 0 if err is not a
// *RuleError.
func CodeOf(err error) Code {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Code
	}
	return 0
}

// Errorf returns a *RuleError with code c and a formatted message.
func Errorf(c Code, format string, args ...any) *RuleError {
	return &RuleError{Code: c, Err: fmt.Errorf(format, args...)}
}
