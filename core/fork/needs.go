package fork

import (
	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
)

// Needs returns the DIDs whose state validating op reads, each once: the
// DID it changes, its signer's, the controllers of the document it
// publishes, a transfer ticket's new owner and signers, a credential's
// issuer and subject. A fork makes them local before it admits op.
func Needs(op *idop.Op) []did.DID {
	var out []did.DID
	seen := map[string]bool{}
	add := func(ds ...did.DID) {
		for _, d := range ds {
			if d.Key() != "" && !seen[d.Key()] {
				seen[d.Key()] = true
				out = append(out, d)
			}
		}
	}
	add(op.DID, op.Method.DID)
	if op.Document != nil {
		add(op.Document.Controllers()...)
	}
	if t := op.Ticket; t != nil {
		add(t.Subject, t.To)
		for _, p := range t.Proofs {
			add(p.VerificationMethod.DID)
		}
	}
	if c := op.Credential; c != nil {
		add(c.Issuer, c.Subject)
	}
	if op.CredentialID.DID.Key() != "" {
		add(op.CredentialID.DID)
	}
	return out
}
