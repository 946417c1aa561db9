package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keystore"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/core/spend"
	"github.com/didlight/didlight/host/client"
)

// runDID is `didlight did`.
func runDID(args []string, stdout, stderr io.Writer) int {
	return runGroup("did", "Publish DID operations signed by a wallet's key, paid by the wallet.", []subcommand{
		{"create", "publish a new DID: the wallet's own, or a customized one it controls", didCreate},
		{"update", "publish a new document for a DID: services, expiry", didUpdate},
		{"deactivate", "deactivate a DID for good", didDeactivate},
	}, args, stdout, stderr)
}

// opFlags are the flags every DID operation takes.
type opFlags struct {
	w      walletFlags
	n      nodeFlags
	fee    string
	noWait bool
	asJSON bool
}

func (o *opFlags) add(fs *flag.FlagSet) {
	o.w.add(fs, true)
	o.n.add(fs)
	fs.StringVar(&o.fee, "fee", defaultFee, "ELA the wallet pays for the transaction carrying the operation")
	fs.BoolVar(&o.noWait, "no-wait", false, "return once the node accepts the transaction, without waiting for its block")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON: did, operation, txid, blockhash")
}

// docFlags say what a document holds.
type docFlags struct {
	services    serviceList
	noServices  bool
	expires     string
	years       int
	controllers didList
	multisig    string
}

func (d *docFlags) add(fs *flag.FlagSet, customized bool) {
	fs.Var(&d.services, "service", "a service, as ID,TYPE,ENDPOINT (ID like #vault); repeat for more")
	fs.BoolVar(&d.noServices, "no-services", false, "publish no service (update: drop the current ones)")
	fs.StringVar(&d.expires, "expires", "", "expiry, RFC 3339 UTC (2031-01-01T00:00:00Z)")
	fs.IntVar(&d.years, "years", 0, "expiry this many years from now (create: 5 when neither this nor --expires is given)")
	if customized {
		fs.Var(&d.controllers, "controller", "with --id: a controller DID (the wallet's DID is one anyway); repeat for more")
		fs.StringVar(&d.multisig, "multisig", "", "with --id and several controllers: M:N, how many must sign (this tool signs alone, so M is 1)")
	}
}

// expiry returns the expiry the flags ask for, or def when they ask none.
func (d *docFlags) expiry(now, def time.Time) (time.Time, error) {
	switch {
	case d.expires != "" && d.years != 0:
		return time.Time{}, usagef("give --expires or --years, not both")
	case d.expires != "":
		t, err := time.Parse(time.RFC3339, d.expires)
		if err != nil {
			return time.Time{}, usagef("--expires %q: %v", d.expires, err)
		}
		return t.UTC(), nil
	case d.years < 0 || d.years > 100:
		return time.Time{}, usagef("--years %d: want 1 to 100", d.years)
	case d.years > 0:
		return now.AddDate(d.years, 0, 0), nil
	}
	return def, nil
}

// servicesFor returns the services the flags ask for (resolved against
// subject), or current when they ask nothing.
func (d *docFlags) servicesFor(subject did.DID, current []did.Service) ([]did.Service, error) {
	if d.noServices {
		if len(d.services) > 0 {
			return nil, usagef("give --service or --no-services, not both")
		}
		return nil, nil
	}
	if len(d.services) == 0 {
		return current, nil
	}
	out := make([]did.Service, len(d.services))
	for i, s := range d.services {
		parts := strings.SplitN(s, ",", 3)
		if len(parts) != 3 {
			return nil, usagef("--service %q: want ID,TYPE,ENDPOINT", s)
		}
		id, err := did.ParseURL(strings.TrimSpace(parts[0]), subject)
		if err != nil || id.Fragment == "" || id.DID != subject {
			return nil, usagef("--service %q: the id %q is not a fragment of %s (like #vault)", s, parts[0], subject)
		}
		out[i] = did.NewService(id, strings.TrimSpace(parts[1]), strings.TrimSpace(parts[2]))
	}
	return out, nil
}

// serviceList and didList collect repeated flags.
type serviceList []string

func (l *serviceList) String() string     { return strings.Join(*l, " ") }
func (l *serviceList) Set(s string) error { *l = append(*l, s); return nil }

type didList []did.DID

func (l *didList) String() string { return fmt.Sprint(*l) }
func (l *didList) Set(s string) error {
	d, err := did.Parse(s)
	if err != nil {
		return err
	}
	*l = append(*l, d)
	return nil
}

func didCreate(e *env, args []string) error {
	c := newCommand("did create", "", `
Publishes a new DID. By default it is the wallet's own DID (derived from its
key, as the SDKs derive it): the document has that key as #primary, the
services and the expiry given, and a proof by the key. With --id NAME it is the
customized DID did:elastos:NAME instead, controlled by the wallet's DID and any
--controller (which must exist already). The operation is signed by the
wallet's key, carried by a transaction of type 0x0a that the wallet pays, and
broadcast; the command waits for its block.`, `
  didlight did create --wallet alice.json
  didlight did create --wallet alice.json --service '#hive,HiveVault,https://hive.example.com' --years 2
  didlight did create --wallet alice.json --id acme --controller did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U --multisig 1:2`)
	var (
		o    opFlags
		d    docFlags
		name string
	)
	o.add(c.fs)
	d.add(c.fs, true)
	c.fs.StringVar(&name, "id", "", "publish the customized DID did:elastos:NAME, controlled by the wallet's DID")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	if name == "" && (len(d.controllers) > 0 || d.multisig != "") {
		return usagef("--controller and --multisig are for a customized DID: give --id NAME")
	}
	wallet, err := o.w.open(e)
	if err != nil {
		return err
	}
	now := time.Now().UTC().Truncate(time.Second)
	expires, err := d.expiry(now, now.AddDate(5, 0, 0))
	if err != nil {
		return err
	}
	var doc *did.Document
	if name == "" {
		doc, err = standardDocument(wallet, &d, expires, nil, now)
	} else {
		doc, err = customizedDocument(wallet, name, &d, expires, now)
	}
	if err != nil {
		return err
	}
	req, err := idop.NewCreate(doc, signer(wallet), wallet.Key)
	if err != nil {
		return err
	}
	return o.publish(e, wallet, doc.Subject(), req)
}

// signer returns the key URL the wallet signs with: its DID's #primary.
func signer(w *keystore.Wallet) did.URL {
	return did.URL{DID: w.DID(), Fragment: did.PrimaryKey}
}

// standardDocument builds and signs the wallet's own document.
func standardDocument(w *keystore.Wallet, d *docFlags, expires time.Time, current []did.Service, now time.Time) (*did.Document, error) {
	services, err := d.servicesFor(w.DID(), current)
	if err != nil {
		return nil, err
	}
	doc, err := did.NewDocument(w.Key.Public(), expires, services...)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return doc.Sign(w.Key, signer(w), now)
}

// customizedContext is the JSON-LD context of v2 documents, which customized
// DIDs need (Elastos.DID.JS.SDK src/diddocument.ts).
var customizedContext = []string{"https://www.w3.org/ns/did/v1", "https://ns.elastos.org/did/v1", "https://w3id.org/security/v1"}

// customizedDocument builds and signs the document of did:elastos:name,
// controlled by the wallet's DID and the --controller DIDs.
func customizedDocument(w *keystore.Wallet, name string, d *docFlags, expires time.Time, now time.Time) (*did.Document, error) {
	subject, err := did.Parse(name)
	if err != nil || !subject.IsCustomized() {
		return nil, usagef("--id %q: want a name such as acme (a DID that is not an address)", name)
	}
	controllers := []did.DID{w.DID()}
	for _, c := range d.controllers {
		if c.Key() != w.DID().Key() {
			controllers = append(controllers, c)
		}
	}
	services, err := d.servicesFor(subject, nil)
	if err != nil {
		return nil, err
	}
	return signCustomized(w, subject, controllers, d.multisig, expires, services, now)
}

// signCustomized writes a customized document as the SDKs do, parses it
// (which checks it) and signs it as the wallet's DID, a controller.
func signCustomized(w *keystore.Wallet, subject did.DID, controllers []did.DID, multisig string, expires time.Time, services []did.Service, now time.Time) (*did.Document, error) {
	if multisig != "" && !strings.HasPrefix(multisig, "1:") {
		return nil, usagef("--multisig %s: this tool signs with one wallet, so only 1:N documents can be published with it", multisig)
	}
	if len(controllers) > 1 && multisig == "" {
		multisig = fmt.Sprintf("1:%d", len(controllers))
	}
	if len(controllers) == 1 {
		multisig = ""
	}
	type service struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Endpoint string `json:"serviceEndpoint"`
	}
	doc := struct {
		Context    []string  `json:"@context"`
		ID         string    `json:"id"`
		Controller []string  `json:"controller"`
		Multisig   string    `json:"multisig,omitempty"`
		Service    []service `json:"service,omitempty"`
		Expires    string    `json:"expires"`
	}{Context: customizedContext, ID: subject.String(), Multisig: multisig, Expires: did.FormatTime(expires)}
	for _, c := range controllers {
		doc.Controller = append(doc.Controller, c.String())
	}
	for _, s := range services {
		doc.Service = append(doc.Service, service{s.ID.String(), s.Type, s.Endpoint})
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	parsed, err := did.ParseDocument(b)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return parsed.Sign(w.Key, signer(w), now)
}

// publish wraps the request in a transaction the wallet pays, broadcasts
// it, waits for its block unless told not to, and reports.
func (o *opFlags) publish(e *env, w *keystore.Wallet, subject did.DID, req idop.Request) error {
	fee, err := parseAmount("--fee", o.fee)
	if err != nil {
		return err
	}
	cl, ctx, cancel, err := o.n.client(bothAPIs)
	if err != nil {
		return err
	}
	defer cancel()
	payload := &ela.Operation{
		Header:  ela.OperationHeader(req.Header),
		Payload: req.Payload,
		Proof:   ela.OperationProof(req.Proof),
	}
	tx, err := buildSpend(ctx, cl, w.ProgramHash(), spend.Order{Fee: fee, Payload: payload})
	if err != nil {
		return err
	}
	tx.SignStandard(w.Key)
	txid, block, err := sendTx(ctx, e, cl, tx, !o.noWait)
	if err != nil {
		return err
	}
	res := struct {
		DID       string `json:"did"`
		Operation string `json:"operation"`
		Txid      string `json:"txid"`
		BlockHash string `json:"blockhash,omitempty"`
	}{subject.String(), req.Header.Operation, txid.String(), block}
	if o.asJSON {
		return printJSON(e.stdout, res)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "DID\t%s\noperation\t%s\ntxid\t%s\n", res.DID, res.Operation, res.Txid)
	if block != "" {
		fmt.Fprintf(tw, "block\t%s\n", block)
	} else {
		fmt.Fprintf(tw, "block\tnot yet: the node accepted the transaction\n")
	}
	return tw.Flush()
}

// current resolves d through the node and checks the answer locally, so
// that an update builds on the genuine latest document and transaction.
func current(ctx context.Context, cl *client.Client, d did.DID) (*resolve.Verified, error) {
	lc, err := newLightClient(ctx, cl)
	if err != nil {
		return nil, err
	}
	raw, err := cl.Resolve(ctx, d.String(), false)
	if err != nil {
		return nil, err
	}
	v, err := lc.verify(d, raw)
	if err != nil {
		return nil, err
	}
	switch v.Status {
	case resolve.NotFound:
		return nil, usagef("%s does not exist: create it first", d)
	case resolve.Deactivated:
		return nil, usagef("%s is deactivated: nothing can change it any more", d)
	}
	return v, nil
}

func didUpdate(e *env, args []string) error {
	c := newCommand("did update", "[DID]", `
Publishes a new document for a DID: by default the wallet's own, or the
customized DID given, which the wallet's DID controls. The current document is
resolved and verified first; the new one keeps its services and expiry unless
--service, --no-services, --expires or --years say otherwise, and is signed
by the wallet's key, with previousTxid the DID's last transaction. This tool
writes documents with one key (#primary) and services: a document holding more
(other keys, credentials) is refused rather than cut down, unless --force.`, `
  didlight did update --wallet alice.json --service '#hive,HiveVault,https://hive2.example.com'
  didlight did update --wallet alice.json --years 10
  didlight did update --wallet alice.json did:elastos:acme --no-services`)
	var (
		o     opFlags
		d     docFlags
		force bool
	)
	o.add(c.fs)
	d.add(c.fs, false)
	c.fs.BoolVar(&force, "force", false, "publish even if the current document holds keys or credentials this tool does not carry over")
	rest, err := c.parse(e, args)
	if err != nil {
		return err
	}
	wallet, target, err := o.openTarget(e, rest)
	if err != nil {
		return err
	}
	cl, ctx, cancel, err := o.n.client(bothAPIs)
	if err != nil {
		return err
	}
	defer cancel()
	cur, err := current(ctx, cl, target)
	if err != nil {
		return err
	}
	old := cur.Document
	if !force && (len(old.PublicKeys()) > 1 || len(old.Credentials()) > 0 || len(old.Authorization()) > 0) {
		return usagef("%s holds keys, credentials or authorizations this tool does not carry over: update it with an SDK, or --force to drop them", target)
	}
	now := time.Now().UTC().Truncate(time.Second)
	expires, err := d.expiry(now, old.Expires())
	if err != nil {
		return err
	}
	var doc *did.Document
	if old.IsCustomized() {
		if !old.HasController(wallet.DID()) {
			return usagef("%s is not controlled by the wallet's DID %s", target, wallet.DID())
		}
		var services []did.Service
		if services, err = d.servicesFor(target, old.Services()); err == nil {
			doc, err = signCustomized(wallet, target, old.Controllers(), old.Multisig().String(), expires, services, now)
		}
	} else {
		doc, err = standardDocument(wallet, &d, expires, old.Services(), now)
	}
	if err != nil {
		return err
	}
	req, err := idop.NewUpdate(doc, cur.Txid, signer(wallet), wallet.Key)
	if err != nil {
		return err
	}
	return o.publish(e, wallet, target, req)
}

// openTarget opens the wallet and returns it with the DID an operation is
// about (see targetDID).
func (o *opFlags) openTarget(e *env, rest []string) (*keystore.Wallet, did.DID, error) {
	wallet, err := o.w.open(e)
	if err != nil {
		return nil, did.DID{}, err
	}
	target, err := targetDID(wallet, rest)
	return wallet, target, err
}

// targetDID is the DID an operation is about: the positional argument, or
// the wallet's own.
func targetDID(w *keystore.Wallet, rest []string) (did.DID, error) {
	switch len(rest) {
	case 0:
		return w.DID(), nil
	case 1:
		d, err := did.Parse(rest[0])
		if err != nil {
			return d, usagef("%q is not a DID: %v", rest[0], err)
		}
		if !d.IsCustomized() && d != w.DID() {
			return d, usagef("%s is another key's DID; this wallet's is %s", d, w.DID())
		}
		return d, nil
	}
	return did.DID{}, usagef("give at most one DID")
}

func didDeactivate(e *env, args []string) error {
	c := newCommand("did deactivate", "[DID]", `
Deactivates a DID for good: by default the wallet's own, or the customized DID
given, which the wallet's DID controls. Signed by the wallet's key, paid by the
wallet. A deactivated DID resolves with status 2 and can never change again.`, `
  didlight did deactivate --wallet alice.json
  didlight did deactivate --wallet alice.json did:elastos:acme --json`)
	var o opFlags
	o.add(c.fs)
	rest, err := c.parse(e, args)
	if err != nil {
		return err
	}
	wallet, target, err := o.openTarget(e, rest)
	if err != nil {
		return err
	}
	req, err := idop.NewDeactivate(target, signer(wallet), wallet.Key)
	if err != nil {
		return err
	}
	return o.publish(e, wallet, target, req)
}
