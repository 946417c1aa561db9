package idop

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"didlight/core/did"
	"didlight/core/keys"
)

// State is what the chain holds about a DID before an operation: its latest
// document, the transaction of its last operation, and whether it is
// deactivated. A DID that does not exist has no State (nil).
type State struct {
	Document    *did.Document
	Txid        string
	Deactivated bool
}

// Validate checks an operation against the current state of its DID (nil if
// the DID does not exist), with docs to look other DIDs' current documents
// up (controllers), v to check signatures and now the time of the block that
// carries the operation (a zero now skips the expiry check).
//
// A create needs a DID that does not exist; an update needs the DID's last
// txid as previousTxid and a signer that may sign for the previous document;
// a deactivate needs an authentication key of the DID, an authorization
// (recovery) key it lists, or the key of a controller. A published document
// must be genuine (VerifyProofs), of the DID, not already expired, and a
// customized DID's controllers must exist and be unexpired; an update may not
// change them. The error is a *RuleError. An update lets op.Document reuse
// the keys the state's document has decoded (see did.Document.ShareKeys).
func Validate(op *Op, st *State, docs did.Lookup, v keys.Verifier, now time.Time) error {
	if st != nil {
		switch {
		case st.Document == nil:
			return broken(RuleLookup, errors.New("the state of an existing DID has no document"))
		case st.Document.Subject().Key() != op.DID.Key():
			return broken(RuleDocID, fmt.Errorf("the operation is on %s, the state of %s", op.DID, st.Document.Subject()))
		case st.Deactivated:
			return broken(RuleDeactivated, fmt.Errorf("%s is deactivated", op.DID))
		}
	}
	switch op.Request.Header.Operation {
	case Create:
		if st != nil {
			return broken(RuleCreateExists, fmt.Errorf("%s already exists", op.DID))
		}
		return checkPublished(op, op.Document, nil, docs, v, now)
	case Update:
		if st == nil {
			return broken(RuleNotFound, fmt.Errorf("%s does not exist", op.DID))
		}
		if !strings.EqualFold(op.Request.Header.PreviousTxid, st.Txid) {
			return broken(RulePreviousTxid, fmt.Errorf("previousTxid %s, but the last transaction of %s is %s", op.Request.Header.PreviousTxid, op.DID, st.Txid))
		}
		op.Document.ShareKeys(st.Document)
		return checkPublished(op, st.Document, st.Document, docs, v, now)
	case Deactivate:
		if st == nil {
			return broken(RuleNotFound, fmt.Errorf("%s does not exist", op.DID))
		}
		return checkDeactivate(op, st.Document, docs, v)
	}
	return broken(RuleUnsupported, fmt.Errorf("%s operations are not validated yet", op.Request.Header.Operation))
}

// ValidateDetached checks a create or update whose predecessor is unknown,
// as a light client must for the only transaction of a resolve result
// without history: as Validate, except that the previous transaction and
// document are not checked and the signer must be an authentication key of
// the published document itself.
func ValidateDetached(op *Op, docs did.Lookup, v keys.Verifier, now time.Time) error {
	switch op.Request.Header.Operation {
	case Create:
		return Validate(op, nil, docs, v, now)
	case Update:
		return checkPublished(op, op.Document, nil, docs, v, now)
	}
	return broken(RuleUnsupported, fmt.Errorf("a %s cannot be checked without its predecessor", op.Request.Header.Operation))
}

// checkPublished checks a create or update: the document it publishes,
// signed by a key of signer, and unchanged controllers when prev is set.
func checkPublished(op *Op, signer, prev *did.Document, docs did.Lookup, v keys.Verifier, now time.Time) error {
	doc := op.Document
	if op.Request.Header.Operation == Create && doc.IsCustomized() && !isAlphanumeric(op.DID.ID()) {
		return broken(RuleDocID, fmt.Errorf("customized DID %s: only letters and digits are allowed", op.DID))
	}
	if prev != nil {
		if err := sameControl(prev, doc); err != nil {
			return err
		}
	}
	if !doc.Legacy() && !now.IsZero() && !doc.Expires().After(now) {
		return broken(RuleExpired, fmt.Errorf("%s expires %s, not after the block time %s", op.DID, did.FormatTime(doc.Expires()), did.FormatTime(now)))
	}
	if err := checkControllers(doc, docs, now); err != nil {
		return err
	}
	key, err := signer.AuthenticationKey(op.Method, docs)
	if err != nil {
		return keyError(err)
	}
	if err := checkSignature(op, key, v); err != nil {
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

// checkControllers requires every controller of a customized DID to exist,
// to be a standard DID (only those have a default key to sign with) and to
// be unexpired at now.
func checkControllers(doc *did.Document, docs did.Lookup, now time.Time) error {
	for _, c := range doc.Controllers() {
		if docs == nil {
			return broken(RuleLookup, fmt.Errorf("no lookup for controller %s", c))
		}
		cdoc, err := docs.Document(c)
		switch {
		case err != nil:
			return broken(RuleLookup, fmt.Errorf("looking up controller %s: %w", c, err))
		case cdoc == nil:
			return broken(RuleController, fmt.Errorf("controller %s does not exist or is deactivated", c))
		case cdoc.IsCustomized():
			return broken(RuleController, fmt.Errorf("controller %s is a customized DID", c))
		case !now.IsZero() && !cdoc.Expires().After(now):
			return broken(RuleController, fmt.Errorf("controller %s expired %s", c, did.FormatTime(cdoc.Expires())))
		}
	}
	return nil
}

// checkDeactivate finds the key a deactivate of doc's DID is signed with.
func checkDeactivate(op *Op, doc *did.Document, docs did.Lookup, v keys.Verifier) error {
	m := op.Method
	var key did.PublicKey
	var err error
	switch {
	case doc.IsCustomized() || doc.IsAuthentication(m):
		key, err = doc.AuthenticationKey(m, docs)
	case doc.IsAuthorization(m):
		key, _ = doc.PublicKey(m)
	case m.DID != doc.Subject():
		key, err = recoveryKey(doc, m, docs)
	default:
		err = fmt.Errorf("%w: %s is neither an authentication nor an authorization key of %s", did.ErrKey, m, doc.Subject())
	}
	if err != nil {
		return keyError(err)
	}
	return checkSignature(op, key, v)
}

// recoveryKey accepts a deactivate signed with the key m of another DID
// when doc lists that same key, held by that DID, as an authorization key,
// and m is an authentication key in the holder's current document.
func recoveryKey(doc *did.Document, m did.URL, docs did.Lookup) (did.PublicKey, error) {
	if docs == nil {
		return did.PublicKey{}, fmt.Errorf("%w: no lookup for %s", did.ErrNoDocument, m.DID)
	}
	holder, err := docs.Document(m.DID)
	switch {
	case err != nil:
		return did.PublicKey{}, fmt.Errorf("%w: looking up %s: %w", did.ErrNoDocument, m.DID, err)
	case holder == nil:
		return did.PublicKey{}, fmt.Errorf("%w: %s does not exist or is deactivated", did.ErrNoDocument, m.DID)
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

// keyError maps an error finding the signing key to its rule.
func keyError(err error) error {
	if errors.Is(err, did.ErrNoDocument) {
		return broken(RuleController, err)
	}
	return broken(RuleSignerKey, err)
}

func checkSignature(op *Op, key did.PublicKey, v keys.Verifier) error {
	pub, err := key.Decode()
	if err != nil {
		return broken(RuleSignerKey, err)
	}
	if !v.Verify(pub, op.Request.Digest(), op.Signature) {
		return broken(RuleSignature, fmt.Errorf("the signature of %s does not verify under %s", op.Request.Header.Operation, key.ID))
	}
	return nil
}

func isAlphanumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}
