package light_test

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/light"
)

// Every DID of the scenario, at every checkpoint, in both forms of
// all: the answer is the real node's, byte for byte, once verified; its
// transactions are the operations the node accepted, newest first; the
// status is EID's in did_resolveDID and the interface's in resolvedid (1
// for a document expired at the head's time).
func TestScenarioDIDs(t *testing.T) {
	for _, cp := range scenario.Checkpoints {
		t.Run(cp, func(t *testing.T) {
			u := eidtest.NewUpstream(t, eidtest.Options{Checkpoint: cp})
			r := newResolver(t, u.URL)
			_, now := headTime(t, u.URL)
			for _, s := range u.Manifest.DIDs {
				d := mustDID(t, s.DID)
				want := accepted(t, u.Manifest, s.DID)
				doc, deactivated := lastDocument(t, u.Manifest, s.DID)
				for _, all := range []bool{true, false} {
					t.Run(fmt.Sprintf("%s all=%v", s.Name, all), func(t *testing.T) {
						a, err := r.DID(t.Context(), d, all)
						if err != nil {
							t.Fatal(err)
						}
						direct, _ := ask(t, u.URL, "did_resolveDID", didParams(s.DID, all))
						if !bytes.Equal(a.Raw, direct) {
							t.Errorf("did_resolveDID:\n got %.300s\nwant %.300s", a.Raw, direct)
						}
						got, spec := parseResolved(t, a.Raw), parseResolved(t, a.Spec)
						wantStatus, wantSpec, wantTxids, outcome := 0, 0, want, eid.OutcomeVerified
						switch {
						case len(want) == 0:
							wantStatus, wantSpec, wantTxids, outcome = 3, 3, nil, eid.OutcomeNothing
						case deactivated:
							wantStatus, wantSpec = 2, 2
							if !all {
								wantTxids = want[:2]
							}
						case doc.Expires().Before(now):
							wantSpec = 1
							fallthrough
						default:
							if !all {
								wantTxids = want[:1]
							}
						}
						if got.Status != wantStatus || spec.Status != wantSpec || a.Resolved.Report.Outcome != outcome {
							t.Errorf("status %d (did_resolveDID), %d (resolvedid), %s; want %d, %d, %s", got.Status, spec.Status, a.Resolved.Report.Outcome, wantStatus, wantSpec, outcome)
						}
						if !slices.Equal(got.txids(), wantTxids) {
							t.Errorf("txids %v, want the accepted operations %v", got.txids(), wantTxids)
						}
						if spec.DID != d.String() || !sameTransactions(got, spec) {
							t.Errorf("resolvedid %.300s: want did %s and the transactions of did_resolveDID", a.Spec, d)
						}
					})
				}
			}
		})
	}
}

// Every credential of the scenario, at every checkpoint, without and with
// its issuer: the real node's answer, byte for byte, once verified, whose
// status follows from the operations the node accepted; and every DID's
// list of credentials.
func TestScenarioCredentials(t *testing.T) {
	for _, cp := range scenario.Checkpoints {
		t.Run(cp, func(t *testing.T) {
			u := eidtest.NewUpstream(t, eidtest.Options{Checkpoint: cp})
			r := newResolver(t, u.URL)
			for _, c := range u.Manifest.Credentials {
				if !slices.ContainsFunc(u.Manifest.Steps, func(s scenario.Step) bool { return s.Subject == c.ID }) {
					continue // not named yet: the recording asks only those named by the checkpoint
				}
				id, err := did.ParseCredentialID(c.ID)
				if err != nil {
					t.Fatal(err)
				}
				issuer := mustDID(t, c.Issuer)
				for _, by := range []*did.DID{nil, &issuer} {
					t.Run(fmt.Sprintf("%s issuer=%v", c.ID, by != nil), func(t *testing.T) {
						a, err := r.Credential(t.Context(), id, by)
						if err != nil {
							t.Fatal(err)
						}
						p := map[string]any{"id": c.ID}
						if by != nil {
							p["issuer"] = c.Issuer
						}
						direct, _ := ask(t, u.URL, "did_resolveCredential", []any{p})
						if !bytes.Equal(a.Raw, direct) {
							t.Errorf("did_resolveCredential:\n got %.300s\nwant %.300s", a.Raw, direct)
						}
						if want := credentialStatus(u.Manifest, c.ID); a.Resolved.Status != want {
							t.Errorf("status %v, want %v from the operations the node accepted", a.Resolved.Status, want)
						}
					})
				}
			}
			for _, s := range u.Manifest.DIDs {
				t.Run("list "+s.Name, func(t *testing.T) {
					d := mustDID(t, s.DID)
					a, err := r.CredentialList(t.Context(), d, 0, 0)
					if len(u.Manifest.Accepted(s.DID)) == 0 {
						var re *client.RPCError
						if !errors.As(err, &re) || !errors.As(err, new(*light.UpstreamError)) {
							t.Fatalf("the list of a DID that does not exist: %v, want the upstream's error", err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					var got []string
					for _, id := range a.List.IDs {
						got = append(got, id.String())
					}
					if want := declared(u.Manifest, s.DID); !slices.Equal(got, want) {
						t.Errorf("listed %v, want the credentials declared %v", got, want)
					}
					if !strings.Contains(string(a.Result), `"credentials":[`) {
						t.Errorf("listcredentials %s: want a list, [] for none", a.Result)
					}
				})
			}
		})
	}
}

func mustDID(t testing.TB, s string) did.DID {
	t.Helper()
	d, err := did.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// sameTransactions reports whether two results list the same
// transactions.
func sameTransactions(a, b resolved) bool {
	return slices.EqualFunc(a.Transaction, b.Transaction, func(x, y transaction) bool {
		return x.Txid == y.Txid && x.Timestamp == y.Timestamp && bytes.Equal(x.Operation, y.Operation)
	})
}

// credentialStatus is the status the operations the node accepted give
// the credential id: revoked once revoked (by its owner or issuer here),
// valid once declared, else not found.
func credentialStatus(m *scenario.Manifest, id string) resolve.CredentialStatus {
	status := resolve.CredentialNotFound
	for _, s := range m.Accepted(id) {
		switch {
		case s.Operation == idop.Revoke:
			return resolve.CredentialRevoked
		case s.Operation == idop.Declare:
			status = resolve.CredentialValid
		}
	}
	return status
}

// declared lists the credentials declared about d that the node accepted,
// newest first.
func declared(m *scenario.Manifest, d string) []string {
	var out []string
	for _, s := range m.Steps {
		if s.Accepted && s.Operation == idop.Declare && strings.HasPrefix(s.Subject, d+"#") {
			out = append(out, s.Subject)
		}
	}
	slices.Reverse(out)
	return out
}
