package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/client"
)

// runQuery is `didlight query`.
func runQuery(args []string, stdout, stderr io.Writer) int {
	e := newEnv(stdout, stderr)
	return finish(e, "didlight query", queryCmd(e, args))
}

func queryCmd(e *env, args []string) error {
	c := newCommand("query", "", `
Finds DIDs whose latest document (not deactivated; expired ones included)
has a service of a type, an embedded credential of a type, or matches a
document-store find condition over the document and its "credential" view
(id, type, issuer, issuanceDate, expirationDate, subject). Give exactly one of
--service, --credential and --find. Results come in DID creation order, paged
with --skip and --limit (the node's default page is 20, at most 256).`, `
  didlight query --service HiveVault
  didlight query --credential SelfProclaimedCredential --skip 20 --limit 10
  didlight query --find '{"credential":{"type":["SelfProclaimedCredential"],"subject":{"email":{$exists:true}}}}' --json`)
	var (
		n           nodeFlags
		q           client.Query
		asJSON      bool
		skip, limit int
	)
	n.add(c.fs)
	c.fs.StringVar(&q.Service, "service", "", "a service type")
	c.fs.StringVar(&q.Credential, "credential", "", "a credential type")
	c.fs.StringVar(&q.Condition, "find", "", "a find condition (strict JSON or the relaxed form: {$exists:true})")
	c.fs.IntVar(&skip, "skip", 0, "documents to skip")
	c.fs.IntVar(&limit, "limit", 0, fmt.Sprintf("documents to return (0: the node's default, %d; at most %d)", resolve.DefaultQueryLimit, resolve.MaxQueryLimit))
	c.fs.BoolVar(&asJSON, "json", false, "print the query result object as the node sent it")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	given := 0
	for _, v := range []string{q.Service, q.Credential, q.Condition} {
		if v != "" {
			given++
		}
	}
	switch {
	case given != 1:
		return usagef("give exactly one of --service, --credential and --find")
	case skip < 0 || limit < 0:
		return usagef("--skip and --limit must not be negative")
	}
	if q.Condition != "" {
		if _, err := find.Compile(q.Condition); err != nil {
			return usagef("--find: %v", err)
		}
	}
	q.Skip, q.Limit = skip, limit
	cl, ctx, cancel, err := n.client(rpcAPI)
	if err != nil {
		return err
	}
	defer cancel()
	raw, err := cl.QueryDIDs(ctx, q)
	if err != nil {
		return err
	}
	if limit > resolve.MaxQueryLimit {
		fmt.Fprintf(e.stderr, "note: --limit %d is above the query method's maximum, %d: the node returns at most %d documents a page (page on with --skip)\n",
			limit, resolve.MaxQueryLimit, resolve.MaxQueryLimit)
	}
	if asJSON {
		return indentJSON(e.stdout, raw)
	}
	var r struct {
		Total, Start, Count int
		Document            []json.RawMessage
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return fmt.Errorf("the node's answer is not a query result: %w", err)
	}
	fmt.Fprintf(e.stdout, "%d document(s) match; showing %d from %d\n", r.Total, r.Count, r.Start)
	if r.Count == 0 {
		return nil
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "\nDID\tEXPIRES\tSERVICES\tCREDENTIALS\n")
	for _, b := range r.Document {
		doc, err := did.ParseDocument(b)
		if err != nil {
			fmt.Fprintf(tw, "(unreadable document: %v)\n", err)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", doc.Subject(), did.FormatTime(doc.Expires()),
			strings.Join(doc.ServiceTypes(), ","), strings.Join(doc.CredentialTypes(), ","))
	}
	return tw.Flush()
}
