package abi

import (
	"encoding/json"
	"fmt"

	"github.com/didlight/didlight/core/did"
)

// lookup finds documents first among those a call's input lists, then
// through the host.
type lookup struct {
	given did.Documents
	host  did.Lookup
}

func (l lookup) Document(d did.DID) (*did.Document, error) {
	if doc := l.given[d.Key()]; doc != nil {
		return doc, nil
	}
	if l.host == nil {
		return nil, nil
	}
	return l.host.Document(d)
}

// lookup parses the documents an input lists (the caller vouches for them)
// and returns a Lookup over them and the host's.
func (env Env) lookup(docs []json.RawMessage) (did.Lookup, error) {
	given := make(did.Documents, len(docs))
	for i, b := range docs {
		doc, err := did.ParseDocument(b)
		if err != nil {
			return nil, fmt.Errorf("abi: documents[%d]: %w", i, err)
		}
		given[doc.Subject().Key()] = doc
	}
	return lookup{given, env.Lookup}, nil
}

// required returns an input error naming member when it is absent.
func required(member string, absent bool) error {
	if absent {
		return inputError("%s is required", member)
	}
	return nil
}

// document parses a document member of an input.
func document(member string, b json.RawMessage) (*did.Document, error) {
	if err := required(member, len(b) == 0 || string(b) == "null"); err != nil {
		return nil, err
	}
	doc, err := did.ParseDocument(b)
	if err != nil {
		return nil, fmt.Errorf("abi: %s: %w", member, err)
	}
	return doc, nil
}
