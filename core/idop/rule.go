package idop

import "errors"

// Rule names a rule an operation can break, so that callers and tests can
// tell failures apart without reading messages.
type Rule string

// The rules.
const (
	RuleMalformed     Rule = "malformed"              // the request or its payload is not well formed
	RuleUnsupported   Rule = "unsupported"            // an operation this version cannot validate yet
	RuleCreateExists  Rule = "create-exists"          // create for a DID that exists
	RuleNotFound      Rule = "not-found"              // update or deactivate of a DID that does not exist
	RuleDeactivated   Rule = "deactivated"            // any operation on a deactivated DID
	RulePreviousTxid  Rule = "previous-txid"          // update that does not name the DID's last transaction
	RuleDocID         Rule = "doc-id"                 // the document or state is of another DID, or the id is not allowed
	RuleDefaultKey    Rule = "default-key-derivation" // no key of a standard DID's document derives the DID
	RuleExpiresFormat Rule = "expires-format"         // expires is not an RFC 3339 UTC date-time
	RuleExpired       Rule = "expired"                // the new document, or the customized DID transferred, expires at or before the block time
	RuleDocProof      Rule = "doc-proof"              // the document's proofs are missing or do not verify
	RuleController    Rule = "controller"             // a controller is missing, invalid or changed
	RuleSignerKey     Rule = "signer-key"             // the request is signed by a key not allowed to sign it
	RuleSignature     Rule = "signature"              // the request's signature does not verify
	RuleLookup        Rule = "lookup"                 // looking a document up failed; the operation is not judged
	RulePending       Rule = "pending"                // the DID or credential has another operation waiting for a block (ledger.Pool)

	RuleCustomized Rule = "customized"  // a customized DID's document holds others' keys or authorization keys, or a standard DID is transferred
	RuleTicket     Rule = "ticket"      // the transfer ticket is for another DID or transaction, or lacks the current controllers' proofs
	RuleTransferTo Rule = "transfer-to" // the transferred document does not have the ticket's new owner as a controller and signer

	RuleDeclared          Rule = "credential-declared" // declare of a credential id already declared
	RuleRevoked           Rule = "credential-revoked"  // declare of a revoked credential, or revoke of one already revoked
	RuleCredentialExpired Rule = "credential-expired"  // declare of a credential that expires at or before the block time
	RuleOwner             Rule = "credential-owner"    // the credential's owner does not exist, is deactivated or has expired
	RuleIssuer            Rule = "credential-issuer"   // the issuer does not exist, is deactivated or has expired, or its proof does not verify
)

// RuleError is the error of a request that breaks a rule.
type RuleError struct {
	Rule Rule
	Err  error
}

func (e *RuleError) Error() string { return "idop: " + string(e.Rule) + ": " + e.Err.Error() }

func (e *RuleError) Unwrap() error { return e.Err }

// RuleOf returns the rule err breaks, or "" if err is not a *RuleError.
func RuleOf(err error) Rule {
	var re *RuleError
	if errors.As(err, &re) {
		return re.Rule
	}
	return ""
}

func broken(r Rule, err error) *RuleError { return &RuleError{Rule: r, Err: err} }
