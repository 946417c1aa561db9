package eid

// Outcome is how far the verification of an answer went.
type Outcome string

// The outcomes of a verification that passed.
const (
	// OutcomeVerified: every check was made on every operation shown.
	OutcomeVerified Outcome = "verified"
	// OutcomeMigrated: some operations are from EID's migration window,
	// on which neither the chain nor this verification could make every
	// check (see Report.Unchecked); the rest was verified. Never read it
	// as verified, nor as forged.
	OutcomeMigrated Outcome = "migrated"
	// OutcomeNothing: the answer says the DID or credential does not
	// exist, which no light client can check (another node may know it).
	OutcomeNothing Outcome = "nothing to verify"
)

// Claim names one thing a verification checked, took on the upstream's
// word, or could not check. docs/eid.md says what each means, per method.
type Claim string

// What a verification checks itself.
const (
	CheckedAnswer        Claim = "answer-form"         // the shape EID answers: statuses, txids as EVM hashes, the subject asked for, the transactions all asks for
	CheckedSignatures    Claim = "signatures"          // each operation is signed, by a key allowed to sign it
	CheckedKeyDerivation Claim = "key-derivation"      // a standard DID is the address of a key of its documents
	CheckedDocProofs     Claim = "document-proofs"     // the proofs of every document and credential published
	CheckedLinks         Claim = "previous-txid-links" // each update names the transaction before it
	CheckedTickets       Claim = "transfer-tickets"    // transfers carry tickets of the controllers of the time
	CheckedControllers   Claim = "controllers"         // other DIDs' documents, each verified the same way (Env.Docs)
	CheckedExpiry        Claim = "expiry"              // no document was published already expired
	CheckedOrder         Claim = "order"               // newest first, all about the subject asked for
	CheckedStatus        Claim = "status"              // the status follows from the operations at the chain tip's time
	CheckedRevokers      Claim = "revokers"            // which revokes count: by the owner, the issuer or a controller of either
	CheckedListedIDs     Claim = "listed-ids"          // every credential listed is under the DID asked for, once
)

// What a verification takes on the upstream's word.
const (
	TrustedInclusion  Claim = "inclusion"            // each transaction is in a block of the chain, under that txid
	TrustedBlockTime  Claim = "block-time"           // the timestamps, and the order of transactions of one second
	TrustedNewest     Claim = "newest"               // no newer operation was left out
	TrustedHistory    Claim = "history"              // the operations before the oldest shown (all=false)
	TrustedNotFound   Claim = "not-found"            // that the subject does not exist
	TrustedNames      Claim = "reserved-names"       // a customized DID's name was free on the ELA main chain
	TrustedProvenance Claim = "provenance"           // the block and sender of transactions that decide a waived check
	TrustedHidden     Claim = "hidden-transactions"  // a credential's transactions EID does not show, which its status counts
	TrustedListed     Claim = "listed-credentials"   // which credentials the DID has declared, and their order
	TrustedController Claim = "controllers-at-times" // that controllers and signers were live when they signed (their latest documents are used)
)

// What neither the chain nor this verification checked.
const (
	UncheckedMigrated Claim = "migrated-operations" // document syntax and proofs and previousTxid of operations EID took in its migration window
	UncheckedExpiry   Claim = "early-expiry"        // the expiry of documents EID recorded before it checked expiry (CustomizeDIDHeight)
)

// Report says what a verification checked, what it took on the upstream's
// word and what nobody checked. A client prints it with the answer
// (didlight resolve --json, the light node).
type Report struct {
	Outcome   Outcome
	Checked   []Claim
	Trusted   []Claim
	Unchecked []Claim
}
