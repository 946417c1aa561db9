package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/client"
)

// resolveW3CCmd is `didlight resolve --format w3c`: the W3C DID Resolution
// answer for id (a DID, a bare id or a DID URL), as the node gives it, or
// with verify built here from the node's whole history, checked first.
func resolveW3CCmd(e *env, n nodeFlags, id, accept string, verify bool) error {
	if !strings.HasPrefix(id, "did:") {
		id = "did:elastos:" + id // a bare id, as the other formats take it
	}
	if network, ok, err := n.eidNetwork(); err != nil {
		return err
	} else if ok {
		return resolveW3CEID(e, n, network, id, accept, verify)
	}
	uses := restAPI // the node's /1.0/identifiers
	if verify {
		uses = bothAPIs // resolvedid and the chain tip's time
	}
	cl, ctx, cancel, err := n.client(uses)
	if err != nil {
		return err
	}
	defer cancel()
	var answer *client.W3CAnswer
	if verify {
		req := w3c.ParseRequest(id, "", accept)
		var raw []byte
		lc := &lightClient{}
		if d, ok := req.DID(); ok {
			if raw, err = cl.Resolve(ctx, d.String(), true); err != nil {
				return err
			}
			if lc, err = newLightClient(ctx, cl); err != nil {
				return err
			}
		}
		resp, err := w3c.ResolveVerified(req, raw, lc, keys.Native{}, lc.now)
		if err != nil {
			return fmt.Errorf("the node's history of %s does not verify: %w", id, err)
		}
		answer = &client.W3CAnswer{Status: resp.Status, ContentType: resp.ContentType, Location: resp.Location, Body: resp.Body}
	} else {
		if answer, err = cl.ResolveW3C(ctx, id, accept); err != nil {
			return err
		}
	}
	return printW3C(e, answer)
}

// printW3C prints an answer: the body, indented in its own member order,
// or the URL a 303 redirects to; an error status is also an error, whose
// exit code is 2 for an invalid DID or DID URL (400) and 1 otherwise.
func printW3C(e *env, a *client.W3CAnswer) error {
	if a.Status == http.StatusSeeOther {
		_, err := fmt.Fprintln(e.stdout, a.Location)
		return err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, a.Body, "", "  "); err != nil {
		return fmt.Errorf("the answer (HTTP %d, %s) is not JSON: %w", a.Status, a.ContentType, err)
	}
	out.WriteByte('\n')
	if _, err := e.stdout.Write(out.Bytes()); err != nil {
		return err
	}
	if a.Status < 400 {
		return nil
	}
	var problem struct {
		Meta struct {
			Error struct{ Title, Detail string }
		} `json:"didResolutionMetadata"`
		Deref struct {
			Error struct{ Title, Detail string }
		} `json:"dereferencingMetadata"`
	}
	json.Unmarshal(a.Body, &problem)
	p := problem.Meta.Error
	if p.Title == "" {
		p = problem.Deref.Error
	}
	if a.Status == http.StatusBadRequest {
		return usagef("HTTP 400: %s %s", p.Title, p.Detail)
	}
	return fmt.Errorf("HTTP %d: %s %s", a.Status, p.Title, p.Detail)
}
