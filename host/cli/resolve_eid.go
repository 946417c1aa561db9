package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/light"

	eidclient "github.com/didlight/didlight/host/client/eid"
)

// eidNetwork returns the EID network --rpc names, if it names one: the
// keyword mainnet or testnet, or a URL at which eid.Recognize finds an EID
// node (a didlight node answers its first request, an EID node three). A
// --rpc not given names the local didlight node, asked nothing here; one
// that Recognize cannot tell (it does not answer) is taken for a didlight
// node, whose client says what failed as it always has.
func (n *nodeFlags) eidNetwork() (eidclient.Network, bool, error) {
	given := false
	if n.fs != nil {
		n.fs.Visit(func(f *flag.Flag) { given = given || f.Name == "rpc" })
	}
	switch {
	case !given:
		return eidclient.Network{}, false, nil
	case strings.EqualFold(n.rpc, "mainnet"), strings.EqualFold(n.rpc, "testnet"):
		network, err := eidclient.ParseNetwork(n.rpc)
		return network, true, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.timeout)
	defer cancel()
	up, err := eidclient.Recognize(ctx, n.rpc, nil)
	if err != nil || up.Kind != eidclient.EID {
		return eidclient.Network{}, false, nil
	}
	network, err := eidclient.ParseNetwork(n.rpc)
	network.ChainID = up.ChainID
	return network, true, err
}

// eidResolver returns a light resolver of the EID network, and a context
// bounded by --timeout.
func (n *nodeFlags) eidResolver(network eidclient.Network) (*light.Resolver, *eidclient.Client, context.Context, context.CancelFunc, error) {
	c, err := eidclient.New(eidclient.Config{Network: network})
	if err != nil {
		return nil, nil, nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.timeout)
	return light.New(light.Config{Client: c}), c, ctx, cancel, nil
}

// resolveEID is `didlight resolve` against an EID node: its did_resolveDID
// answer, printed as a didlight node's is, and with verify checked here by
// core/eid first (the documents of other DIDs and the provenance of
// transactions it needs fetched and checked too), with what it checked and
// what it took on the node's word.
func resolveEID(e *env, n nodeFlags, network eidclient.Network, d did.DID, all, verify bool, format string) error {
	r, c, ctx, cancel, err := n.eidResolver(network)
	if err != nil {
		return err
	}
	defer cancel()
	if !verify {
		raw, err := c.ResolveDID(ctx, d, all)
		if err != nil {
			return err
		}
		if format == formatJSON {
			return printResolvedJSON(e.stdout, raw, nil)
		}
		return printResolved(e.stdout, raw, nil)
	}
	a, err := r.DID(ctx, d, all)
	if err != nil {
		return err
	}
	v := eidVerdict(a)
	if format == formatJSON {
		return printResolvedJSON(e.stdout, a.Raw, v)
	}
	return printResolved(e.stdout, a.Raw, v)
}

// eidVerdict is what verifying an EID answer found, as the table and
// --json tell it.
func eidVerdict(a *light.DIDAnswer) *verdict {
	rep := a.Resolved.Report
	v := &verdict{checked: a.Resolved.Verified, chainTime: a.Head.Time, eid: &eidVerification{
		Upstream: "EID", ChainID: a.Head.Network.ChainID, Expired: a.Resolved.Expired, Migrated: a.Resolved.Migrated,
		Checked: claims(rep.Checked), Trusted: claims(rep.Trusted), Unchecked: claims(rep.Unchecked), outcome: rep.Outcome,
	}}
	return v
}

func claims(cs []eid.Claim) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = string(c)
	}
	return out
}

// resolveW3CEID is `didlight resolve --format w3c --verify` against an EID
// node, which has no W3C endpoint: the answer is built here from the DID's
// whole history, verified ([w3c.ResolveChecked]), at the head's time.
func resolveW3CEID(e *env, n nodeFlags, network eidclient.Network, id, accept string, verify bool) error {
	req := w3c.ParseRequest(id, "", accept)
	d, ok := req.DID()
	if !ok {
		resp, err := w3c.Resolve(req, w3c.History{}, w3c.Tip{})
		if err != nil {
			return err
		}
		return printW3C(e, &client.W3CAnswer{Status: resp.Status, ContentType: resp.ContentType, Location: resp.Location, Body: resp.Body})
	}
	if !verify {
		return usagef("an EID node has no W3C resolution endpoint: add --verify, and the answer is built here from the DID's whole history, verified")
	}
	r, _, ctx, cancel, err := n.eidResolver(network)
	if err != nil {
		return err
	}
	defer cancel()
	a, err := r.DID(ctx, d, true)
	if err != nil {
		return err
	}
	resp, err := w3c.ResolveChecked(req, a.Resolved.Verified, a.Head.Time)
	if err != nil {
		return fmt.Errorf("the EID node's history of %s: %w", d, err)
	}
	return printW3C(e, &client.W3CAnswer{Status: resp.Status, ContentType: resp.ContentType, Location: resp.Location, Body: resp.Body})
}

// eidVerification is what --json adds for an EID answer: where it came
// from and core/eid's report.
type eidVerification struct {
	Upstream  string   `json:"upstream"`
	ChainID   uint64   `json:"chainId"`
	Checked   []string `json:"checked"`
	Trusted   []string `json:"trusted"`
	Unchecked []string `json:"unchecked,omitempty"`
	// Migrated are the txids of operations from EID's migration window,
	// whose signatures alone were checked.
	Migrated []string `json:"migrated,omitempty"`
	// Expired reports that the latest document has expired at the chain
	// time: EID answers status 0 and leaves that to the client.
	Expired bool        `json:"expired"`
	outcome eid.Outcome // for the table
}

// printEIDLines writes the table's lines about an EID answer's
// verification: the outcome, expiry, and what was taken on the node's word.
func printEIDLines(w io.Writer, v *verdict) {
	x := v.eid
	switch x.outcome {
	case eid.OutcomeNothing:
		fmt.Fprintf(w, "verified\t%s\n", nothingToVerify)
		return
	case eid.OutcomeMigrated:
		fmt.Fprintf(w, "verified\tmigrated: %s are of EID's migration window, whose signatures alone were checked, by the chain and here; the rest: %s\n",
			strings.Join(x.Migrated, ", "), strings.Join(x.Checked, ", "))
	default:
		fmt.Fprintf(w, "verified\tyes, locally: %s, over %s\n", strings.Join(x.Checked, ", "), scope(v.checked))
	}
	if x.Expired {
		fmt.Fprintf(w, "expired\tyes, at the chain's time %s: EID answers 0 and leaves expiry to the client (resolvedid says 1)\n", v.chainTime.UTC().Format("2006-01-02T15:04:05Z"))
	}
	fmt.Fprintf(w, "trusted\ton the node's word: %s\n", strings.Join(x.Trusted, ", "))
	if len(x.Unchecked) > 0 {
		fmt.Fprintf(w, "unchecked\tby anyone: %s\n", strings.Join(x.Unchecked, ", "))
	}
}
