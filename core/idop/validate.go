package idop

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
)

// State is what the chain holds about a DID before an operation: its latest
// document, the transaction of its last operation, and whether it is
// deactivated. A DID that does not exist has no State (nil).
type State struct {
	Document    *did.Document
	Txid        string
	Deactivated bool
}

// Validate checks a DID operation against the current state of its DID (nil
// if the DID does not exist), with docs to look other DIDs' current
// documents up (controllers), v to check signatures and now the time of the
// block that carries the operation (a zero now skips the expiry checks).
//
// A create needs a DID that does not exist; an update needs the DID's last
// txid as previousTxid; a transfer needs a customized DID and a ticket (see
// below); a deactivate needs the DID's default key, an authorization
// (recovery) key it lists, or, for a customized DID, the default key of one
// of its controllers. A create, update or
// transfer must be signed by an authentication key of the document it
// publishes, or of one of that document's controllers (Elastos.ELA.SideChain.EID
// core/vm/didvalidator.go verifies the outer proof against the payload's
// document; Elastos.DID.JS.SDK src/backend/didrequest.ts takes the request's
// own document as signer). The published document must be genuine
// (VerifyProofs), of the DID, not already expired; a customized DID's
// controllers must exist, be standard DIDs and be unexpired, and its keys
// must all be its own, so that it has no authorization keys
// (core/vm/did_contracts.go, checkCustomIDPayloadSyntax); an update may not
// change controllers or multisig.
//
// A transfer of a customized DID whose current document has not expired
// carries a ticket for that DID naming its last txid (with or without the
// 0x EID's EVM hashes may carry), proved by as many of
// its current controllers as its multisig rule requires, each with its
// default key ([did.TransferTicket.VerifyProofs]), and publishes a document
// that has the ticket's new owner (to) among its controllers and its proofs
// (core/vm/didvalidator.go, checkTicketAvailable; src/diddocument.ts,
// publishWithTicket).
//
// Credential operations are validated by [ValidateCredential]. The error is a
// *RuleError. An update lets op.Document reuse the keys the state's document
// has decoded (see [did.Document.ShareKeys]).
func Validate(op *Op, st *State, docs did.Lookup, v keys.Verifier, now time.Time) error {
	if st != nil {
		switch {
		case st.Document == nil:
			return broken(RuleLookup, errors.New("the state of an existing DID has no document"))
		case st.Document.Subject() != op.DID && // Key parses both ids: only when they differ
			st.Document.Subject().Key() != op.DID.Key():
			return broken(RuleDocID, fmt.Errorf("the operation is on %s, the state of %s", op.DID, st.Document.Subject()))
		case st.Deactivated:
			return broken(RuleDeactivated, fmt.Errorf("%s is deactivated", op.DID))
		}
	}
	operation := op.Request.Header.Operation
	switch {
	case operation == Create && st != nil:
		return broken(RuleCreateExists, fmt.Errorf("%s already exists", op.DID))
	case operation == Create:
		return checkPublished(op, nil, docs, v, now)
	case op.Request.Header.Specification != SpecDID:
		return broken(RuleUnsupported, fmt.Errorf("%s is a credential operation: see ValidateCredential", operation))
	case st == nil:
		return broken(RuleNotFound, fmt.Errorf("%s does not exist", op.DID))
	}
	switch operation {
	case Update:
		if !strings.EqualFold(op.Request.Header.PreviousTxid, st.Txid) {
			return broken(RulePreviousTxid, fmt.Errorf("previousTxid %s, but the last transaction of %s is %s", op.Request.Header.PreviousTxid, op.DID, st.Txid))
		}
		op.Document.ShareKeys(st.Document)
		return checkPublished(op, st.Document, docs, v, now)
	case Transfer:
		return checkTransfer(op, st, docs, v, now)
	}
	return checkDeactivate(op, st.Document, docs, v, now)
}

// ValidateDetached checks a create, update or transfer whose predecessor is
// unknown, as a light client must for the oldest transaction of a resolve
// result without history: as Validate, except that nothing about the
// previous transaction and document is checked; of a transfer's ticket only
// that it names the DID and that its new owner controls and signed the
// published document (its proofs are by the previous controllers).
func ValidateDetached(op *Op, docs did.Lookup, v keys.Verifier, now time.Time) error {
	switch op.Request.Header.Operation {
	case Create:
		return Validate(op, nil, docs, v, now)
	case Update:
		return checkPublished(op, nil, docs, v, now)
	case Transfer:
		if err := checkNewOwner(op); err != nil {
			return err
		}
		return checkPublished(op, nil, docs, v, now)
	}
	return broken(RuleUnsupported, fmt.Errorf("a %s cannot be checked without its predecessor", op.Request.Header.Operation))
}

// ValidateMigrated checks a create or update of a standard DID as EID
// checked those it took from its migration sender within its migration
// window, which re-published the DIDs of the retired ID chain
// (Elastos.ELA.SideChain.EID core/vm/didvalidator.go, checkRegisterDID and
// checkDIDOperation: that sender and height skip checkPayloadSyntax, the
// document's proofs and the update's previousTxid). What remains: the
// document is a standard DID's; a create is of a DID that does not exist
// (st nil), an update of one that is not deactivated; and the request is
// signed by an authentication key of the document it publishes. An update
// with a nil st is detached, its predecessor unknown (see
// [ValidateDetached]). The error is a *RuleError.
func ValidateMigrated(op *Op, st *State, docs did.Lookup, v keys.Verifier) error {
	operation := op.Request.Header.Operation
	switch {
	case operation != Create && operation != Update:
		return broken(RuleUnsupported, fmt.Errorf("EID migrated creates and updates only, not a %s", operation))
	case op.Document.IsCustomized():
		return broken(RuleCustomized, fmt.Errorf("EID migrated standard DIDs only, not %s", op.DID))
	case st != nil && st.Deactivated:
		return broken(RuleDeactivated, fmt.Errorf("%s is deactivated", op.DID))
	case st != nil && operation == Create:
		return broken(RuleCreateExists, fmt.Errorf("%s already exists", op.DID))
	}
	return checkSignedBy(op, op.Document, docs, v)
}

// checkPublished checks a create, update or transfer: the document it
// publishes, the request signed by an authentication key of that document
// (or of its controllers), and unchanged controllers when prev is set.
func checkPublished(op *Op, prev *did.Document, docs did.Lookup, v keys.Verifier, now time.Time) error {
	doc := op.Document
	if op.Request.Header.Operation == Create && doc.IsCustomized() && !isAlphanumeric(op.DID.ID()) {
		return broken(RuleDocID, fmt.Errorf("customized DID %s: only letters and digits are allowed", op.DID))
	}
	if prev != nil {
		if err := sameControl(prev, doc); err != nil {
			return err
		}
	}
	if err := checkCustomized(doc); err != nil {
		return err
	}
	if !doc.Legacy() && !now.IsZero() && !doc.Expires().After(now) {
		return broken(RuleExpired, fmt.Errorf("%s expires %s, not after the block time %s", op.DID, did.FormatTime(doc.Expires()), did.FormatTime(now)))
	}
	if err := checkControllers(doc.Controllers(), docs, now); err != nil {
		return err
	}
	if err := checkSignedBy(op, doc, docs, v); err != nil {
		return err
	}
	if err := doc.VerifyProofs(v, docs); err != nil {
		if errors.Is(err, did.ErrNoDocument) {
			return broken(RuleController, err)
		}
		return broken(RuleDocProof, err)
	}
	return nil
}

// checkCustomized requires a customized DID's keys to be its own
// (Elastos.ELA.SideChain.EID core/vm/did_contracts.go,
// checkCustomPublicKeyController). That also rules out authorization keys,
// which EID forbids customized DIDs (checkCustomIDPayloadSyntax): they are
// by definition keys other DIDs hold.
func checkCustomized(doc *did.Document) error {
	if !doc.IsCustomized() {
		return nil
	}
	for _, k := range doc.PublicKeys() {
		if k.Controller != doc.Subject() {
			return broken(RuleCustomized, fmt.Errorf("customized DID %s: key %s is held by %s; its keys must be its own", doc.Subject(), k.ID, k.Controller))
		}
	}
	return nil
}

// sameControl requires an update to keep the controllers and the multisig
// rule: changing them is a transfer.
func sameControl(prev, doc *did.Document) error {
	pc, dc := prev.Controllers(), doc.Controllers()
	same := len(pc) == len(dc) && prev.Multisig() == doc.Multisig()
	for i := 0; same && i < len(pc); i++ {
		same = pc[i] == dc[i]
	}
	if !same {
		return broken(RuleController, fmt.Errorf("an update of %s cannot change its controllers or multisig (that is a transfer)", doc.Subject()))
	}
	return nil
}

// checkControllers requires each of the DIDs (controllers of a customized
// DID, or those that sign for it) to exist, to be a standard DID (only those
// have a default key to sign with) and to be unexpired at now.
func checkControllers(ds []did.DID, docs did.Lookup, now time.Time) error {
	for _, c := range ds {
		cdoc, err := liveDocument(c, "controller", RuleController, docs, now)
		if err != nil {
			return err
		}
		if cdoc.IsCustomized() {
			return broken(RuleController, fmt.Errorf("controller %s is a customized DID", c))
		}
	}
	return nil
}

// liveDocument looks d up and requires it to exist, not deactivated, and
// unexpired at now (a zero now skips the expiry check). A missing or
// expired document breaks rule; a failed lookup [RuleLookup].
func liveDocument(d did.DID, role string, rule Rule, docs did.Lookup, now time.Time) (*did.Document, error) {
	if docs == nil {
		return nil, broken(RuleLookup, fmt.Errorf("no lookup for %s %s", role, d))
	}
	doc, err := docs.Document(d)
	switch {
	case err != nil:
		return nil, broken(RuleLookup, fmt.Errorf("looking up %s %s: %w", role, d, err))
	case doc == nil:
		return nil, broken(rule, fmt.Errorf("%s %s does not exist or is deactivated", role, d))
	case !now.IsZero() && !doc.Expires().After(now):
		return nil, broken(rule, fmt.Errorf("%s %s expired %s", role, d, did.FormatTime(doc.Expires())))
	}
	return doc, nil
}

// checkTransfer checks a transfer against the DID's state; see Validate.
func checkTransfer(op *Op, st *State, docs did.Lookup, v keys.Verifier, now time.Time) error {
	cur, t := st.Document, op.Ticket
	switch {
	case !cur.IsCustomized():
		return broken(RuleCustomized, fmt.Errorf("%s is a standard DID; only customized DIDs are transferred", op.DID))
	case !now.IsZero() && !cur.Expires().After(now):
		return broken(RuleExpired, fmt.Errorf("%s expired %s; an expired customized DID cannot be transferred", op.DID, did.FormatTime(cur.Expires())))
	case !strings.EqualFold(strings.TrimPrefix(t.Txid, "0x"), st.Txid): // EID allows the 0x of an EVM hash (checkTicketAvailable)
		return broken(RuleTicket, fmt.Errorf("the ticket names transaction %s, but the last transaction of %s is %s", t.Txid, op.DID, st.Txid))
	}
	if err := checkNewOwner(op); err != nil {
		return err
	}
	signers := make([]did.DID, len(t.Proofs))
	for i, p := range t.Proofs {
		signers[i] = p.VerificationMethod.DID
	}
	if err := checkControllers(signers, docs, now); err != nil {
		return err
	}
	if err := checkPublished(op, nil, docs, v, now); err != nil {
		return err
	}
	if err := t.VerifyProofs(cur, docs, v); err != nil {
		if errors.Is(err, did.ErrNoDocument) {
			return broken(RuleController, err)
		}
		return broken(RuleTicket, err)
	}
	return nil
}

// checkNewOwner requires a transfer's ticket to be for the DID (its id
// exactly as the document writes it) and its new owner to be a controller
// of the published document and one of its signers.
func checkNewOwner(op *Op) error {
	t, doc := op.Ticket, op.Document
	if t.Subject != op.DID {
		return broken(RuleTicket, fmt.Errorf("the ticket is for %s, the transfer publishes %s", t.Subject, op.DID))
	}
	if !doc.HasController(t.To) {
		return broken(RuleTransferTo, fmt.Errorf("the ticket passes %s to %s, which is not a controller of the new document", op.DID, t.To))
	}
	for _, p := range doc.Proofs() {
		if p.Creator.DID == t.To {
			return nil
		}
	}
	return broken(RuleTransferTo, fmt.Errorf("the new document of %s is not signed by its new owner %s", op.DID, t.To))
}

// checkDeactivate finds the key a deactivate of doc's DID is signed with. A
// standard DID is deactivated by its default key or an authorization key
// (core/vm/didvalidator.go, checkDeactivateDID with getDIDDeactivateKey;
// src/diddocument.ts, deactivate), or by the key of another DID that an
// authorization key names; a customized DID by the default key of one of
// its controllers, which must be unexpired (checkDeactivateDID with
// getCustDIDDefKey and isControllerInvalid).
func checkDeactivate(op *Op, doc *did.Document, docs did.Lookup, v keys.Verifier, now time.Time) error {
	m := op.Method
	def, _ := doc.DefaultKey()
	var key did.PublicKey
	var err error
	switch {
	case doc.IsCustomized():
		key, err = controllerDefaultKey(doc, m, docs, now)
	case m == def.ID || doc.IsAuthorization(m):
		key, _ = doc.PublicKey(m)
	case m.DID != doc.Subject():
		key, err = recoveryKey(doc, m, docs, now)
	default:
		err = fmt.Errorf("%w: %s is neither the default key nor an authorization key of %s", did.ErrKey, m, doc.Subject())
	}
	if err != nil {
		return keyError(err)
	}
	return checkSignature(op, key, v)
}

// controllerDefaultKey returns m when it is the default key of an
// unexpired controller of the customized DID of doc.
func controllerDefaultKey(doc *did.Document, m did.URL, docs did.Lookup, now time.Time) (did.PublicKey, error) {
	if !doc.HasController(m.DID) {
		return did.PublicKey{}, fmt.Errorf("%w: %s is not the key of a controller of %s", did.ErrKey, m, doc.Subject())
	}
	cdoc, err := liveDocument(m.DID, "controller", RuleController, docs, now)
	if err != nil {
		return did.PublicKey{}, err
	}
	def, ok := cdoc.DefaultKey()
	if !ok || def.ID != m {
		return did.PublicKey{}, fmt.Errorf("%w: %s is not the default key of controller %s", did.ErrKey, m, m.DID)
	}
	return def, nil
}

// recoveryKey accepts a deactivate signed with the key m of another DID
// when doc lists that same key, held by that DID, as an authorization key,
// and m is an authentication key in the holder's current, unexpired
// document.
func recoveryKey(doc *did.Document, m did.URL, docs did.Lookup, now time.Time) (did.PublicKey, error) {
	holder, err := liveDocument(m.DID, "authorization key holder", RuleController, docs, now)
	if err != nil {
		return did.PublicKey{}, err
	}
	key, err := holder.AuthenticationKey(m, docs)
	if err != nil {
		return did.PublicKey{}, err
	}
	for _, id := range doc.Authorization() {
		if k, _ := doc.PublicKey(id); k.Controller == m.DID && k.PublicKeyBase58 == key.PublicKeyBase58 {
			return key, nil
		}
	}
	return did.PublicKey{}, fmt.Errorf("%w: %s is not an authorization key of %s", did.ErrKey, m, doc.Subject())
}

// keyError maps an error finding the signing key to its rule; a *RuleError
// keeps its own.
func keyError(err error) error {
	var re *RuleError
	switch {
	case errors.As(err, &re):
		return err
	case errors.Is(err, did.ErrNoDocument):
		return broken(RuleController, err)
	}
	return broken(RuleSignerKey, err)
}

// checkSignedBy requires the request to be signed by an authentication
// key of doc, or of one of its controllers.
func checkSignedBy(op *Op, doc *did.Document, docs did.Lookup, v keys.Verifier) error {
	key, err := doc.AuthenticationKey(op.Method, docs)
	if err != nil {
		return keyError(err)
	}
	return checkSignature(op, key, v)
}

func checkSignature(op *Op, key did.PublicKey, v keys.Verifier) error {
	pub, err := key.Decode(v)
	if err != nil {
		return broken(RuleSignerKey, err)
	}
	if !v.Verify(pub, op.digest(v), op.Signature) {
		return broken(RuleSignature, fmt.Errorf("the signature of %s does not verify under %s", op.Request.Header.Operation, key.ID))
	}
	return nil
}

// digest is the request's Digest, hashed by v when v hashes (a WebAssembly
// host, see [keys.Hasher]); else hashed once for an Op Decode made.
func (op *Op) digest(v keys.Verifier) [32]byte {
	if _, ok := v.(keys.Hasher); ok {
		return keys.Digest(v, op.Request.SigningInput())
	}
	if op.signed == nil {
		return op.Request.Digest()
	}
	op.signed.once.Do(func() { op.signed.digest = op.Request.Digest() })
	return op.signed.digest
}

func isAlphanumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
