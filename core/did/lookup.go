package did

// Lookup finds the current documents of other DIDs: the controllers of a
// customized DID and the issuers of credentials. The node answers from its
// state; a light client answers from documents it has resolved and verified.
type Lookup interface {
	// Document returns the current document of d, or nil (and no error)
	// when d does not exist or is deactivated. An error means the lookup
	// itself failed.
	Document(d DID) (*Document, error)
}

// Documents is a Lookup over a fixed set of documents, keyed by DID.Key.
type Documents map[string]*Document

// NewDocuments returns a Lookup that knows the given documents.
func NewDocuments(docs ...*Document) Documents {
	m := make(Documents, len(docs))
	for _, d := range docs {
		m[d.Subject().Key()] = d
	}
	return m
}

// Document returns the document of d, or nil.
func (m Documents) Document(d DID) (*Document, error) { return m[d.Key()], nil }
