package chain

import (
	"errors"

	"didlight/core/did"
)

// ErrUnsupported is returned by the credential reads until core validates
// credential operations: no credential is ever declared on this chain
// before that, and core has no result shapes for them yet.
var ErrUnsupported = errors.New("chain: credential operations are not supported yet")

// ResolveCredential returns the resolvecredential result object for the
// credential id (as declared by issuer, when given).
func (c *Chain) ResolveCredential(id did.URL, issuer *did.DID) ([]byte, error) {
	return nil, ErrUnsupported
}

// ListCredentials returns the listcredentials result object for the
// credentials declared about d, paged by skip and limit.
func (c *Chain) ListCredentials(d did.DID, skip, limit int) ([]byte, error) {
	return nil, ErrUnsupported
}
