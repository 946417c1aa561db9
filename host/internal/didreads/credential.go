package didreads

import (
	"context"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/didindex"
)

// ResolveCredential returns the resolvecredential result object for the
// credential id (see resolve.CredentialResult): declared (0), revoked (2)
// or not found (3). While the id is not declared, issuer (nil for none)
// says whose revokes count. An unknown id is a result, not an error. ctx
// is not consulted, as for ResolveDID.
func (r *Reads) ResolveCredential(_ context.Context, id did.URL, issuer *did.DID) ([]byte, error) {
	key := id.Key() // before the store read: nothing but reading goes on in one
	var out []byte
	err := r.view(func(dids didindex.Reader) error {
		h, err := dids.CredentialHistory(key)
		if err != nil {
			return err
		}
		var by did.DID
		if issuer != nil {
			by = *issuer
		}
		out, err = resolve.CredentialResult(id, h, by, dids)
		return err
	})
	return out, err
}

// ListCredentials returns the listcredentials result object for d (see
// didindex.Reader.CredentialList). A negative skip or limit is an error
// wrapping ErrQuery. ctx is not consulted, as for ResolveDID.
func (r *Reads) ListCredentials(_ context.Context, d did.DID, skip, limit int) ([]byte, error) {
	var out []byte
	err := r.view(func(dids didindex.Reader) error {
		var err error
		out, err = dids.CredentialList(d, skip, limit)
		return err
	})
	return out, err
}
