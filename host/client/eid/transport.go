package eid

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/did/sdkjson"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/host/client"
)

// transport sends one JSON-RPC request to one URL and reads its answer:
// at most maxAnswer bytes, with the id it sent, within timeout.
type transport struct {
	http      *http.Client
	timeout   time.Duration
	maxAnswer int64
}

// request is a JSON-RPC 2.0 request. The SDKs send their resolves without
// the jsonrpc member; EID and didlight take both, and 2.0 says it belongs.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      string          `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// answer is a JSON-RPC response. Result is the JSON null when the node
// answered "result": null, and nil when it sent no result.
type answer struct {
	JSONRPC string
	ID      json.RawMessage
	Result  json.RawMessage
	Error   *rpcError
}

// rpcError is an answer's error member.
type rpcError struct {
	Code    int
	Message string
	Data    json.RawMessage
}

// attempt is the outcome of one request that got no result.
type attempt struct {
	err        error         // a *client.UnreachableError or *client.RPCError naming the URL
	retry      bool          // the same request may get an answer if sent again
	retryAfter time.Duration // what the endpoint asked to be left alone for (HTTP 429 or 503)
	local      bool          // the client's own limit refused it, not the endpoint: its rank stands
}

// newID returns a request id as the SDKs make theirs: 16 random bytes in
// hex (Elastos.DID.JS.SDK src/didbackend.ts, generateRequestId).
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// call sends method with params to url and returns the result, raw.
// params null or nil sends an empty list.
func (t *transport) call(ctx context.Context, url, method string, params json.RawMessage) (json.RawMessage, *attempt) {
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage("[]")
	}
	id := newID()
	body, err := json.Marshal(request{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, &attempt{err: fmt.Errorf("eid: %s params: %w", method, err)}
	}
	b, a := t.post(ctx, url, body)
	if a != nil {
		return nil, a
	}
	result, err := decodeAnswer(b, id, url)
	if err != nil {
		return nil, &attempt{err: err}
	}
	return result, nil
}

// post sends body to url and returns the body of a 2xx answer.
func (t *transport) post(ctx context.Context, url string, body []byte) ([]byte, *attempt) {
	unreachable := func(err error, retry bool) *attempt {
		return &attempt{err: &client.UnreachableError{URL: url, Err: err}, retry: retry}
	}
	rctx, cancel := context.WithTimeoutCause(ctx, t.timeout, fmt.Errorf("no answer within %v", t.timeout))
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, unreachable(err, false)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := t.http.Do(req)
	if err != nil {
		return nil, t.lost(ctx, rctx, url, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		head, _ := io.ReadAll(io.LimitReader(resp.Body, excerpt.Max))
		a := unreachable(fmt.Errorf("HTTP %s: %s", resp.Status, excerpt.Bytes(head)), busy(resp.StatusCode))
		if busy(resp.StatusCode) {
			a.retryAfter = retryAfter(resp.Header.Get("Retry-After"), time.Now())
		}
		return nil, a
	}
	if resp.ContentLength > t.maxAnswer {
		return nil, unreachable(fmt.Errorf("%w: %d bytes announced, at most %d taken", ErrTooLarge, resp.ContentLength, t.maxAnswer), false)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, t.maxAnswer+1))
	if err != nil {
		return nil, t.lost(ctx, rctx, url, fmt.Errorf("reading the answer: %w", err))
	}
	if int64(len(b)) > t.maxAnswer {
		return nil, unreachable(fmt.Errorf("%w: over %d bytes", ErrTooLarge, t.maxAnswer), false)
	}
	return b, nil
}

// lost is the attempt of a request that got no whole answer: retried
// unless ctx ended. Then the error is ctx's cause, which names url if it
// is the call's own timeout.
func (t *transport) lost(ctx, rctx context.Context, url string, err error) *attempt {
	if ctx.Err() != nil {
		if _, ok := errors.AsType[*deadlineError](context.Cause(ctx)); ok {
			return &attempt{err: &client.UnreachableError{URL: url, Err: context.Cause(ctx)}}
		}
		return &attempt{err: context.Cause(ctx)}
	}
	if rctx.Err() != nil {
		err = context.Cause(rctx) // this request's own timeout
	}
	if ue, ok := errors.AsType[*neturl.Error](err); ok {
		err = ue.Err // drop its repetition of method and URL
	}
	return &attempt{err: &client.UnreachableError{URL: url, Err: err}, retry: true}
}

// busy reports whether an HTTP status says the server may answer later:
// 429 Too Many Requests and the 5xx server errors.
func busy(status int) bool {
	return status == http.StatusTooManyRequests || status/100 == 5
}

// maxRetryAfter bounds what a Retry-After can ask for: a call's deadline
// bounds the wait anyway; this keeps an endpoint from being left out longer.
const maxRetryAfter = 10 * time.Minute

// retryAfter reads a Retry-After header, seconds or an HTTP date (RFC
// 9110, 10.2.3), as the wait it asks for from now: 0 when there is none or
// it cannot be read, at most maxRetryAfter.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	var d time.Duration
	if s, err := strconv.ParseUint(v, 10, 32); err == nil {
		d = time.Duration(s) * time.Second
	} else if at, err := http.ParseTime(v); err == nil {
		d = at.Sub(now)
	}
	return min(max(d, 0), maxRetryAfter)
}

// readAnswer reads an answer's members as encoding/json reads them into an
// answer (names in any case, the last of a repeated member, others
// skipped), with core's JSON scanner, which reads an answer of tens of
// kilobytes (a long history) several times faster; unlike encoding/json
// it refuses text that is not UTF-8 and values nested deeper than
// [sdkjson.MaxDepth], which no JSON-RPC answer of EID's has.
func readAnswer(b []byte) (answer, error) {
	var a answer
	d := sdkjson.NewDecoder(b)
	for m := d.Object(); m.Next(); {
		switch k := m.Key(); {
		case strings.EqualFold(k, "jsonrpc"):
			if !d.Null() {
				a.JSONRPC = d.Str()
			}
		case strings.EqualFold(k, "id"):
			a.ID = d.Raw()
		case strings.EqualFold(k, "result"):
			a.Result = d.Raw()
		case strings.EqualFold(k, "error"):
			a.Error = readError(d)
		default:
			d.Skip()
		}
	}
	return a, d.Finish()
}

// readError reads an answer's error member: nil for null.
func readError(d *sdkjson.Decoder) *rpcError {
	if d.Null() {
		return nil
	}
	e := &rpcError{}
	for m := d.Object(); m.Next(); {
		switch k := m.Key(); {
		case strings.EqualFold(k, "code"):
			if !d.Null() {
				e.Code = readCode(d)
			}
		case strings.EqualFold(k, "message"):
			if !d.Null() {
				e.Message = d.Str()
			}
		case strings.EqualFold(k, "data"):
			e.Data = d.Raw()
		default:
			d.Skip()
		}
	}
	return e
}

// readCode reads an error's code, which JSON-RPC 2.0 makes an integer:
// written as one (-32601, not -32601.0 or -3.2601e4), as encoding/json
// reads an int.
func readCode(d *sdkjson.Decoder) int {
	raw := d.Raw()
	code, err := strconv.Atoi(string(raw))
	if err != nil && d.Err() == nil {
		d.Fail(fmt.Errorf("error code %s is not an integer", excerpt.Bytes(raw)))
	}
	return code
}

// decodeAnswer reads a JSON-RPC answer to the request with id, sent to
// url: its result, or a *client.RPCError, or a *client.UnreachableError
// for anything else.
func decodeAnswer(b []byte, id, url string) (json.RawMessage, error) {
	a, err := readAnswer(b)
	if err != nil {
		return nil, &client.UnreachableError{URL: url, Err: fmt.Errorf("%w: %s", ErrNotJSONRPC, excerpt.Bytes(b))}
	}
	return a.check(b, id, url)
}

// check returns a's result if a, read from b, answers the request with
// id; otherwise as decodeAnswer does.
func (a *answer) check(b []byte, id, url string) (json.RawMessage, error) {
	garbled := func(format string, args ...any) error {
		return &client.UnreachableError{URL: url, Err: fmt.Errorf(format, args...)}
	}
	if a.JSONRPC != "2.0" {
		return nil, garbled("%w: jsonrpc is %s: %s", ErrNotJSONRPC, excerpt.Quote(a.JSONRPC), excerpt.Bytes(b))
	}
	var got string
	if json.Unmarshal(a.ID, &got) != nil || got != id {
		return nil, garbled("%w: sent id %q, the answer has %s", ErrWrongID, id, excerpt.Bytes(a.ID))
	}
	if a.Error != nil {
		e := &client.RPCError{URL: url, Code: a.Error.Code, Message: excerpt.Cut(a.Error.Message)}
		if len(a.Error.Data) > 0 && string(a.Error.Data) != "null" {
			e.Data = excerpt.Bytes(a.Error.Data)
		}
		return nil, e
	}
	if a.Result == nil {
		return nil, garbled("%w: neither result nor error: %s", ErrNotJSONRPC, excerpt.Bytes(b))
	}
	return a.Result, nil
}
