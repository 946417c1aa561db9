package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// W3CAnswer is an answer of a node's W3C DID Resolution endpoint: the
// binding's HTTP status, the media type of Body, the service endpoint a
// 303 redirects to, and the body (a resolution or dereferencing result, or
// a document alone).
type W3CAnswer struct {
	Status      int
	ContentType string
	Location    string
	Body        []byte
}

// IdentifiersURL is where the node resolves didURL by the W3C DID
// Resolution HTTP(S) binding: GET /1.0/identifiers/ beside the REST API,
// the DID URL percent-encoded so that its query and fragment travel in the
// path.
func (c *Client) IdentifiersURL(didURL string) string {
	return strings.TrimSuffix(c.rest, "/api/v1") + "/1.0/identifiers/" + url.PathEscape(didURL)
}

// ResolveW3C resolves a DID or dereferences a DID URL through the node's
// W3C endpoint, asking for the media type accept ("" for the default: the
// resolution or dereferencing result). A redirect is returned, not
// followed. Every status of the binding is an answer; the error is for no
// answer, or one that is not the binding's.
func (c *Client) ResolveW3C(ctx context.Context, didURL, accept string) (*W3CAnswer, error) {
	u := c.IdentifiersURL(didURL)
	req, err := http.NewRequestWithContext(ctx, "GET", u, nil)
	if err != nil {
		return nil, &UnreachableError{URL: u, Err: err}
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	hc := *c.http
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return nil, &UnreachableError{URL: u, Err: err}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return nil, &UnreachableError{URL: u, Err: fmt.Errorf("reading the answer: %w", err)}
	}
	a := &W3CAnswer{Status: resp.StatusCode, ContentType: resp.Header.Get("Content-Type"), Location: resp.Header.Get("Location"), Body: b}
	if a.Status == http.StatusSeeOther && a.Location != "" || strings.HasPrefix(a.ContentType, "application/did") || strings.HasPrefix(a.ContentType, "application/ld+json") {
		return a, nil
	}
	return nil, &UnreachableError{URL: u, Err: fmt.Errorf("HTTP %s, %q: not an answer of the W3C DID Resolution binding (a node older than this client?): %.200s", resp.Status, a.ContentType, b)}
}
