package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsonrpc"
)

// maxRPCBody is the largest JSON-RPC or /idtx body read; a DID request with
// its document is a few kilobytes.
const maxRPCBody = 1 << 20

// rpcHandler routes the JSON-RPC listener: the resolver on / and /resolve
// (the path the SDKs' simulated-chain adapter uses) and the DID-SDK test
// endpoints. The JSON-RPC routes are read routes: the browser policy is
// applied to each body by the methods it calls (see serveRPC).
func (s *Server) rpcHandler() http.Handler {
	rt := newRouter("rpc", s, refuseSDK)
	s.rpc.routes = &rt.routes
	rt.handleUnlimited("POST /{$}", read, s.serveRPC)
	rt.handleUnlimited("POST /resolve", read, s.serveRPC)
	rt.handle("POST /idtx", control, s.sdkHandler(s.serveIDTx))
	rt.handle("POST /reset", control, s.sdkHandler(s.serveReset))
	s.probes(rt)
	rt.handleUnlimited("OPTIONS /", read, preflight)
	rt.handle("GET "+openAPIPath, read, serveOpenAPI(func() []byte {
		return openAPIDocument("didlight JSON-RPC", rpcAPIDoc, s.opts.Version, rpcDocs, rt.routes)
	}))
	rt.handle("/", read, rpcNotFound)
	return cors(rt)
}

// refuseSDK answers a request to a DID-SDK endpoint that the browser policy
// refuses, as the endpoint answers its errors.
func refuseSDK(w http.ResponseWriter, no *refusal) {
	writeJSON(w, no.status, sdkError{Code: int(refusalCode(no)), Message: no.reason})
}

// serveRPC answers one JSON-RPC body: a call or a batch. JSON-RPC errors
// are answered with HTTP 200, so that clients that treat any other status
// as a network failure (the SDKs do) read them. A body whose calls the
// browser policy refuses (one control is enough) is answered 403 or 415
// with one error, and none of its calls is made; a body of reads over the
// client's rate limit, 429. Notifications are made
// but not answered: a body of notifications only is answered 204.
func (s *Server) serveRPC(w http.ResponseWriter, r *http.Request) {
	buf := getBuffer()
	defer putBuffer(buf)
	if status, err := readBody(w, r, buf, maxRPCBody); err != nil {
		writeBody(w, status, appendResponse(nil, nil, nil, jsonrpc.InvalidRequest(err.Error())))
		return
	}
	calls, batch, derr := jsonrpc.Decode(buf.Bytes())
	if derr != nil {
		writeBody(w, http.StatusOK, appendResponse(nil, nil, nil, derr))
		return
	}
	a := callsAccess(calls)
	no := s.policy.check(r, a)
	if no == nil && a == read {
		no = s.limit.check(r, len(calls))
	}
	if no != nil {
		var id json.RawMessage
		if !batch {
			id = calls[0].ID
		}
		setRetryAfter(w, no)
		writeBody(w, no.status, appendResponse(nil, id, nil, jsonrpc.Refused(no.reason)))
		return
	}
	out := getBuffer()
	defer putBuffer(out)
	b := out.AvailableBuffer()
	answered := 0
	for _, c := range calls {
		if r.Context().Err() != nil {
			return // the client left, or the server is stopping: nobody reads the rest
		}
		if c.Notification && c.Err == nil {
			s.notify(r.Context(), c)
			continue
		}
		if batch {
			sep := byte(',')
			if answered == 0 {
				sep = '['
			}
			b = append(b, sep)
		}
		b = s.answer(r.Context(), b, c)
		answered++
	}
	switch {
	case answered == 0:
		w.WriteHeader(http.StatusNoContent)
		return
	case batch:
		b = append(b, ']')
	}
	out.Write(b) // keeps the bytes in the pooled buffer, grown if they had to be
	writeAnswer(w, r, out.Bytes())
}

// callsAccess returns what the calls of a body may do together: the most
// any of them may (unknown methods read nothing).
func callsAccess(calls []jsonrpc.Call) access {
	a := read
	for _, c := range calls {
		if m, ok := methods[c.Method]; ok && c.Err == nil {
			a = max(a, m.access)
		}
	}
	return a
}

// answer appends the response to one call, and counts it in the metrics.
func (s *Server) answer(ctx context.Context, dst []byte, c jsonrpc.Call) []byte {
	start := time.Now()
	result, err := s.call(ctx, c)
	s.metrics.call(c.Method, start, err)
	return appendResponse(dst, c.ID, result, err)
}

// call makes one call: its result, or its error.
func (s *Server) call(ctx context.Context, c jsonrpc.Call) (any, *jsonrpc.Error) {
	if c.Err != nil {
		return nil, c.Err
	}
	m, ok := methods[c.Method]
	switch {
	case !ok && strings.HasPrefix(c.Method, eidNamespace):
		return nil, eidMethodNotFound(c.Method)
	case !ok:
		return nil, jsonrpc.MethodNotFound(c.Method)
	case !s.serves(m):
		return nil, s.notServedRPC(c.Method)
	}
	return m.serve(s, ctx, c.Params)
}

// notify makes a notification's call and drops its answer. A read is not
// made at all: no one would see what it finds.
func (s *Server) notify(ctx context.Context, c jsonrpc.Call) {
	if m, ok := methods[c.Method]; ok && m.access != read && s.serves(m) {
		m.serve(s, ctx, c.Params)
	}
}

// appendResponse appends the JSON of jsonrpc.Result(id, result) or
// jsonrpc.Failure(id, err). A json.RawMessage result, which the chain hands
// out ready-made, is copied in without being parsed again.
func appendResponse(dst []byte, id json.RawMessage, result any, err *jsonrpc.Error) []byte {
	raw, ok := result.(json.RawMessage)
	if err != nil || !ok {
		resp := jsonrpc.Result(id, result)
		if err != nil {
			resp = jsonrpc.Failure(id, err)
		}
		b, merr := json.Marshal(resp)
		if merr != nil {
			b, _ = json.Marshal(jsonrpc.Failure(id, jsonrpc.InternalError("cannot encode the result: "+merr.Error())))
		}
		return append(dst, b...)
	}
	dst = append(dst, `{"jsonrpc":"2.0","result":`...)
	dst = append(dst, raw...)
	dst = append(dst, `,"id":`...)
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	dst = append(dst, id...)
	return append(dst, '}')
}

// readBody reads r's body into buf, at most limit bytes. On failure it
// returns the HTTP status to answer with and what went wrong.
func readBody(w http.ResponseWriter, r *http.Request, buf *bytes.Buffer, limit int64) (int, error) {
	if r.ContentLength > limit {
		return http.StatusRequestEntityTooLarge, fmt.Errorf("body of %d bytes, at most %d", r.ContentLength, limit)
	}
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength))
	}
	if _, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit)); err != nil {
		if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
			return http.StatusRequestEntityTooLarge, fmt.Errorf("body over %d bytes", limit)
		}
		return http.StatusBadRequest, fmt.Errorf("reading the body: %v", err)
	}
	return 0, nil
}

// rpcNotFound answers a path or HTTP method the JSON-RPC listener does not
// serve.
func rpcNotFound(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusNotFound, jsonrpc.Failure(nil, jsonrpc.Errorf(jsonrpc.CodeInvalidRequest, "Invalid Request",
		"%s %s is not served here: POST JSON-RPC to / or /resolve, DID requests to /idtx, resets to /reset", excerpt.Cut(r.Method), excerpt.Cut(r.URL.Path))))
}

// buffers recycles request and response buffers; each request needs two.
var buffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func getBuffer() *bytes.Buffer { return buffers.Get().(*bytes.Buffer) }

// putBuffer returns buf to the pool unless it grew beyond what ordinary
// requests need, so that one large request does not pin its memory.
func putBuffer(buf *bytes.Buffer) {
	if buf.Cap() > 64<<10 {
		return
	}
	buf.Reset()
	buffers.Put(buf)
}
