package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/client"
)

// runResolve is `didlight resolve`.
func runResolve(args []string, stdout, stderr io.Writer) int {
	e := newEnv(stdout, stderr)
	return finish(e, "didlight resolve", resolveCmd(e, args))
}

func resolveCmd(e *env, args []string) error {
	c := newCommand("resolve", "DID", `
Resolves a DID through the node (resolvedid): its status (0 valid, 1 expired,
2 deactivated, 3 not found) and its operations, the latest one or, with --all,
the whole history newest first. --rpc may name an EID node of the real chain
(its JSON-RPC URL, or mainnet or testnet for the public endpoints), which is
asked did_resolveDID as the DID SDKs ask it; EID answers 0 for an expired DID.

With --verify the answer is checked here, as a light client must, instead of
trusting the node: every operation's signature, the previousTxid chain, who
signed, the documents' proofs and the status at the chain tip's time
(core/resolve.Verify), fetching and checking the documents of controllers and
other signers as needed.

With --format w3c it prints the W3C DID Resolution result instead, as the
node's GET /1.0/identifiers/{did} answers it; DID may then be a DID URL
(#fragment, ?versionId=, ?versionTime=, ?service=…&relativeRef=…). With
--verify that result is built here from the whole history, checked first
(core/w3c.ResolveVerified): the node's answer but for block heights. It exits
0 for a result (200, 410 deactivated, 303: the service URL is printed), 2 for
an invalid DID or DID URL (400), 1 for any other error status.

Against an EID node, --verify checks the answer with core/eid (docs/eid.md),
fetching and checking the documents of controllers and signers and, for
operations of EID's migration window, their transactions; it says what it
checked, what it took on the node's word and, with --json, its report. An
EID node has no W3C endpoint: --format w3c needs --verify, and is built here.
An answer that fails verification is an error naming what failed (exit 1).`, `
  didlight resolve did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U
  didlight resolve iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U --all --verify
  didlight resolve did:elastos:foobar --verify --json
  didlight resolve --rpc http://node.example:20336/ --verify foobar   # the REST URL is asked of the node
  didlight resolve --rpc mainnet --all --verify did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U   # the real chain, verified here
  didlight resolve --format w3c did:elastos:foobar
  didlight resolve --format w3c --verify 'did:elastos:foobar#vault'
  didlight resolve --format w3c --accept application/did+json 'did:elastos:foobar?versionTime=2026-01-01T00:00:00Z'`)
	var (
		n                   nodeFlags
		all, verify, asJSON bool
		format, accept      string
	)
	n.add(c.fs)
	c.fs.BoolVar(&all, "all", false, "show every operation, newest first")
	c.fs.BoolVar(&verify, "verify", false, "check the answer locally (light-client verification)")
	c.fs.BoolVar(&asJSON, "json", false, `print the resolve result object as the node sent it (--format json), with a "verification" member: {"ran":false}, or what --verify found`)
	c.fs.StringVar(&format, "format", formatTable, "what to print: table, json (the resolve result object) or w3c (the W3C DID Resolution result)")
	c.fs.StringVar(&accept, "accept", "", "with --format w3c: the media type asked for (application/did+json, application/did+ld+json, …); default the resolution result")
	rest, err := c.parse(e, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("give one DID (run \"didlight resolve -h\")")
	}
	switch {
	case asJSON && format != formatTable && format != formatJSON:
		return usagef("--json and --format %s exclude each other", format)
	case asJSON:
		format = formatJSON
	case format != formatTable && format != formatJSON && format != formatW3C:
		return usagef("--format %q: want table, json or w3c", format)
	case accept != "" && format != formatW3C:
		return usagef("--accept is for --format w3c")
	}
	if format == formatW3C {
		return resolveW3CCmd(e, n, rest[0], accept, verify)
	}
	d, err := did.Parse(rest[0])
	if err != nil {
		return usagef("%q is not a DID: %v", rest[0], err)
	}
	if network, ok, err := n.eidNetwork(); err != nil {
		return err
	} else if ok {
		return resolveEID(e, n, network, d, all, verify, format)
	}
	uses := rpcAPI
	if verify {
		uses |= restAPI // the chain tip's time
	}
	cl, ctx, cancel, err := n.client(uses)
	if err != nil {
		return err
	}
	defer cancel()
	raw, err := cl.Resolve(ctx, d.String(), all)
	if err != nil {
		return err
	}
	var v *verdict
	if verify {
		lc, err := newLightClient(ctx, cl)
		if err != nil {
			return err
		}
		checked, err := lc.verify(d, raw)
		if err != nil {
			return err
		}
		v = &verdict{checked: checked, chainTime: lc.now}
	}
	if format == formatJSON {
		return printResolvedJSON(e.stdout, raw, v)
	}
	return printResolved(e.stdout, raw, v)
}

// verdict is what a verification found; nil when none ran.
type verdict struct {
	checked   *resolve.Verified
	chainTime time.Time        // the chain tip's block time the status was judged at
	eid       *eidVerification // an EID node's answer: core/eid's report
}

// verification is what `resolve --json` adds to the node's result object,
// as its "verification" member: whether the answer was checked here, and
// what that found; for an EID node's answer, also core/eid's report. A
// check that fails prints no result at all.
type verification struct {
	Ran bool `json:"ran"`
	// Outcome is "verified", or "nothing to verify" for a DID the node
	// says does not exist (which no light client can check).
	Outcome string `json:"outcome,omitempty"`
	// Complete reports that every operation from the create on was
	// checked; false: the operations shown, the oldest on its own.
	Complete *bool `json:"complete,omitempty"`
	// ChainTime is the chain tip's block time the status was judged at.
	ChainTime string `json:"chainTime,omitempty"`
	*eidVerification
}

// The outcomes of a verification that passed.
const (
	outcomeVerified = "verified"
	outcomeNothing  = "nothing to verify"
	nothingToVerify = "nothing to verify: the node says this DID does not exist, which a light client cannot check (another node may know it)"
)

// verificationOf describes the verification v; nil means none ran.
func verificationOf(v *verdict) verification {
	switch {
	case v == nil:
		return verification{}
	case v.checked.Status == resolve.NotFound:
		return verification{Ran: true, Outcome: outcomeNothing, eidVerification: v.eid}
	}
	out := verification{Ran: true, Outcome: outcomeVerified, Complete: &v.checked.Complete, ChainTime: did.FormatTime(v.chainTime), eidVerification: v.eid}
	if v.eid != nil {
		out.Outcome = string(v.eid.outcome)
	}
	return out
}

// printResolvedJSON writes the resolve result object with its
// "verification" member.
func printResolvedJSON(w io.Writer, raw []byte, v *verdict) error {
	var r map[string]any
	if err := json.Unmarshal(raw, &r); err != nil || r == nil {
		return fmt.Errorf("the node's answer is not a resolve result: %.200s", raw)
	}
	r["verification"] = verificationOf(v)
	return printJSON(w, r)
}

// The formats of `didlight resolve`.
const (
	formatTable = "table"
	formatJSON  = "json"
	formatW3C   = "w3c"
)

// lightClient resolves DIDs through a node and checks every answer
// locally. It is the [did.Lookup] that verification asks for other DIDs'
// documents (controllers, authorization keys), each itself resolved and
// checked, once.
type lightClient struct {
	ctx  context.Context
	cl   *client.Client
	now  time.Time // the chain tip's block time
	seen map[string]*resolve.Verified
	busy map[string]bool // DIDs being checked, to stop a cycle
}

func newLightClient(ctx context.Context, cl *client.Client) (*lightClient, error) {
	_, now, err := cl.TipTime(ctx)
	if err != nil {
		return nil, err
	}
	return &lightClient{ctx: ctx, cl: cl, now: now, seen: map[string]*resolve.Verified{}, busy: map[string]bool{}}, nil
}

// verify checks a resolve result for d.
func (lc *lightClient) verify(d did.DID, raw []byte) (*resolve.Verified, error) {
	lc.busy[d.Key()] = true
	defer delete(lc.busy, d.Key())
	v, err := resolve.Verify(raw, lc, keys.Native{}, lc.now)
	if err != nil {
		return nil, fmt.Errorf("the node's answer for %s does not verify: %w", d, err)
	}
	if v.DID.Key() != d.Key() {
		return nil, fmt.Errorf("the node answered for %s, not %s", v.DID, d)
	}
	return v, nil
}

// Document resolves and checks d, and returns its latest document (also
// when d is deactivated, as Verify asks of its lookup), or nil when d does
// not exist or is being checked already.
func (lc *lightClient) Document(d did.DID) (*did.Document, error) {
	if v, ok := lc.seen[d.Key()]; ok {
		return v.Document, nil
	}
	if lc.busy[d.Key()] {
		return nil, nil
	}
	raw, err := lc.cl.Resolve(lc.ctx, d.String(), false)
	if err != nil {
		return nil, err
	}
	v, err := lc.verify(d, raw)
	if err != nil {
		return nil, err
	}
	lc.seen[d.Key()] = v
	return v.Document, nil
}

// resolved is the part of a resolve result the table shows.
type resolved struct {
	DID         string `json:"did"`
	Status      int    `json:"status"`
	Transaction []struct {
		Txid      string          `json:"txid"`
		Timestamp string          `json:"timestamp"`
		Operation json.RawMessage `json:"operation"`
	} `json:"transaction"`
}

// printResolved writes a resolve result as a table, with its latest
// document and what verification v found (nil: none ran).
func printResolved(w io.Writer, raw []byte, v *verdict) error {
	var r resolved
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("the node's answer is not a resolve result: %w", err)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "DID\t%s\nstatus\t%d %s\n", r.DID, r.Status, resolve.Status(r.Status))
	switch {
	case v == nil:
	case v.eid != nil:
		printEIDLines(tw, v)
	case v.checked.Status == resolve.NotFound:
		fmt.Fprintf(tw, "verified\t%s\n", nothingToVerify)
	default:
		fmt.Fprintf(tw, "verified\tyes, locally: signatures, previousTxid links, signers, document proofs and status, over %s\n", scope(v.checked))
	}
	var latest *did.Document
	if len(r.Transaction) > 0 {
		fmt.Fprintf(tw, "\nTXID\tTIME\tOPERATION\n")
	}
	for _, t := range r.Transaction {
		req, err := idop.ParseRequest(t.Operation)
		op := "(unreadable: " + fmt.Sprint(err) + ")"
		if err == nil {
			op = req.Header.Operation
			if dec, err := idop.Decode(req); err == nil && latest == nil && dec.Document != nil {
				latest = dec.Document
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", t.Txid, t.Timestamp, op)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if latest != nil {
		printDocument(w, latest)
	}
	return nil
}

// scope says which operations a verification checked.
func scope(checked *resolve.Verified) string {
	if checked.Complete {
		return "every operation from the create on"
	}
	return "the operations shown (the oldest on its own: ask --all for the whole chain)"
}

// printDocument writes the parts of a document people look for.
func printDocument(w io.Writer, doc *did.Document) {
	fmt.Fprintf(w, "\nDocument (latest)\n")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "  expires\t%s\n", did.FormatTime(doc.Expires()))
	if cs := doc.Controllers(); len(cs) > 0 {
		names := make([]string, len(cs))
		for i, c := range cs {
			names[i] = c.String()
		}
		fmt.Fprintf(tw, "  controllers\t%s %s\n", strings.Join(names, ", "), doc.Multisig())
	}
	for _, k := range doc.PublicKeys() {
		fmt.Fprintf(tw, "  key\t%s\t%s\n", k.ID, k.PublicKeyBase58)
	}
	for _, s := range doc.Services() {
		fmt.Fprintf(tw, "  service\t%s\t%s\t%s\n", s.ID, s.Type, s.Endpoint)
	}
	for _, c := range doc.Credentials() {
		fmt.Fprintf(tw, "  credential\t%s\t%s\n", c.ID, strings.Join(c.Types, ", "))
	}
	tw.Flush()
}
