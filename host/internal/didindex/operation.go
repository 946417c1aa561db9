package didindex

import (
	"fmt"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
)

// Operation is an identity operation on its way into the index: the
// decoded operation and what the index needs from the document it
// publishes, derived once when it is admitted.
type Operation struct {
	Op *idop.Op
	// Key is what the operation changes (idop.Op.Subject), and what the
	// mempool holds one pending operation for.
	Key                   string
	view                  *record.View   // the published document's, as stored (StoredView)
	doc                   []byte         // the published document in normalized form
	Postings              []find.Posting // the view's postings (viewIndex), if found ahead (PostAhead)
	services, credentials []string
}

// NewOperation returns op on its way into the index.
func NewOperation(op *idop.Op) *Operation {
	return &Operation{Op: op, Key: op.Subject()}
}

// Credential reports whether the operation is on a credential.
func (id *Operation) Credential() bool {
	return id.Op.Request.Header.Specification == idop.SpecCredential
}

// Derive fills in what the index needs from the document the operation
// publishes, once it is known to be valid.
func (id *Operation) Derive() error {
	if doc := id.Op.Document; doc != nil && id.view == nil {
		view, err := StoredView(resolve.View(doc))
		if err != nil {
			return err
		}
		id.view, id.doc = view, doc.Normalized()
		id.services, id.credentials = doc.ServiceTypes(), doc.CredentialTypes()
	}
	return nil
}

// StoredView returns the view record the store keeps for a query view
// (resolve.View): the view in encoded form.
func StoredView(view []byte) (*record.View, error) {
	form, err := find.Encode(view)
	if err != nil {
		return nil, fmt.Errorf("chain: encoding a query view: %w", err)
	}
	return &record.View{Encoded: form}, nil
}

// PostAhead derives what the index needs and finds the postings of the
// published document's view ahead of the block that applies the
// operation, where the block's store Update need not: a block made of
// operations prepared on every core (the chain's PrepareTx) applies them faster.
// An operation that does not derive is left as it was, for its
// validation to refuse.
func (id *Operation) PostAhead() {
	if id.Derive() == nil && id.view != nil {
		id.Postings = viewIndex.EncodedPostings(id.view.Encoded)
	}
}
