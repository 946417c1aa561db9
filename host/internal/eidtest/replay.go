package eidtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Fault is how a Server fails one HTTP request.
type Fault int

const (
	NoFault   Fault = iota // answer
	Status500              // HTTP 500 with a text body
	Garbage                // HTTP 200 with bytes that are not JSON
	Hangup                 // close the connection without an answer
)

// Options change how a Server answers, so that tests can reach a client's
// error paths.
type Options struct {
	// Checkpoint names the recording served (default scenario.Final), and
	// in live mode how far the scenario runs.
	Checkpoint string
	// Tamper, if set, is given each single answer (one JSON-RPC response
	// object, its id already the caller's) with the request's method and
	// params, and returns the bytes served in its place.
	Tamper func(method string, params json.RawMessage, answer []byte) []byte
	// Delay is waited before each HTTP answer (or until the client gives up).
	Delay time.Duration
	// Fault, if set, says how to fail the n-th HTTP request (from 0).
	Fault func(n int) Fault
}

// UnrecordedCode is the JSON-RPC error code a replay answers a request it
// has no recording of with.
const UnrecordedCode = -32099

// source answers one JSON-RPC request (an object) with one response object.
type source interface {
	answer(ctx context.Context, req request) ([]byte, error)
}

// request is a JSON-RPC request as it arrived.
type request struct {
	raw    []byte          // the request object as sent
	id     json.RawMessage // nil when absent
	method string
	params json.RawMessage // nil when absent
}

func parseRequest(raw []byte) (request, error) {
	var r struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(raw, &r); err != nil {
		return request{}, err
	}
	return request{raw: raw, id: r.ID, method: r.Method, params: r.Params}, nil
}

// Server is an HTTP JSON-RPC server answering as an EID node: from a
// recording, or by passing each request to a live node.
type Server struct {
	URL   string
	src   source
	opts  Options
	count atomic.Int64
}

// Requests returns how many HTTP requests the server has received.
func (s *Server) Requests() int { return int(s.count.Load()) }

func newServer(t testing.TB, src source, opts Options) *Server {
	s := &Server{src: src, opts: opts}
	hs := httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	t.Cleanup(hs.Close)
	s.URL = hs.URL + "/"
	return s
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(s.count.Add(1) - 1)
	// The body is read first: net/http notices a client hanging up (and
	// ends r.Context) only once the request's body has been read.
	var body bytes.Buffer
	if _, err := body.ReadFrom(http.MaxBytesReader(w, r.Body, 1<<20)); err != nil {
		http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		return
	}
	if s.opts.Delay > 0 {
		select {
		case <-time.After(s.opts.Delay):
		case <-r.Context().Done():
			return
		}
	}
	fault := NoFault
	if s.opts.Fault != nil {
		fault = s.opts.Fault(n)
	}
	switch fault {
	case Status500:
		http.Error(w, "eidtest: injected failure", http.StatusInternalServerError)
		return
	case Garbage:
		w.Write([]byte("\x00\xffeidtest: not json {"))
		return
	case Hangup:
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler) // closes the connection where hijacking cannot
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(append(s.reply(r.Context(), body.Bytes()), '\n'))
}

// reply answers a body: one request, or a batch element by element.
func (s *Server) reply(ctx context.Context, body []byte) []byte {
	trimmed := bytes.TrimSpace(body)
	if !bytes.HasPrefix(trimmed, []byte("[")) {
		return s.one(ctx, trimmed)
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(trimmed, &elems); err != nil {
		return errorObject(nil, -32700, "eidtest: batch is not JSON: "+err.Error())
	}
	if len(elems) == 0 {
		return s.one(ctx, trimmed) // the empty batch, as recorded
	}
	out := []byte{'['}
	for i, e := range elems {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, s.one(ctx, e)...)
	}
	return append(out, ']')
}

// one answers one request object.
func (s *Server) one(ctx context.Context, raw []byte) []byte {
	req := request{raw: raw, method: "[]"} // the empty batch, matched as a whole
	if !bytes.Equal(raw, []byte("[]")) {
		var err error
		if req, err = parseRequest(raw); err != nil {
			return errorObject(nil, -32700, fmt.Sprintf("eidtest: request %.60q is not a JSON-RPC object", raw))
		}
	}
	answer, err := s.src.answer(ctx, req)
	if err != nil {
		return errorObject(req.id, UnrecordedCode, err.Error())
	}
	if s.opts.Tamper != nil {
		answer = s.opts.Tamper(req.method, req.params, answer)
	}
	return answer
}

// errorObject returns a JSON-RPC 2.0 error answer, its members in the
// order geth writes them.
func errorObject(id json.RawMessage, code int, msg string) []byte {
	if id == nil {
		id = json.RawMessage("null")
	}
	m, _ := json.Marshal(msg)
	b := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	b = append(b, `,"error":{"code":`...)
	b = strconv.AppendInt(b, int64(code), 10)
	b = append(b, `,"message":`...)
	b = append(b, m...)
	return append(b, "}}"...)
}

// replay answers from recorded exchanges.
type replay struct {
	checkpoint string
	answers    map[string][]byte // key -> the recorded response object
}

// key is what a request is matched on: its method and its params, decoded
// and written again (object members sorted, no white space, numbers as
// written), so that member order and spacing do not matter but every value
// does. Absent and null params are the same; [] is not.
func key(method string, params json.RawMessage) (string, error) {
	canon := "null"
	if len(params) > 0 {
		dec := json.NewDecoder(bytes.NewReader(params))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return "", fmt.Errorf("params %.100s: %w", params, err)
		}
		b, err := json.Marshal(v)
		if err != nil {
			return "", err
		}
		canon = string(b)
	}
	return method + " " + canon, nil
}

// add indexes an exchange: a single request, or each element of a batch
// matched with the answer of the same id. The first recording of a key
// wins.
func (r *replay) add(x Exchange) error {
	if x.Response == nil {
		return nil // an answer that is not JSON matches nothing
	}
	if bytes.Equal(bytes.TrimSpace(x.Request), []byte("[]")) {
		r.put("[] null", x.Response)
		return nil
	}
	if !bytes.HasPrefix(bytes.TrimSpace(x.Request), []byte("[")) {
		req, err := parseRequest(x.Request)
		if err != nil {
			return err
		}
		k, err := key(req.method, req.params)
		if err != nil {
			return err
		}
		r.put(k, x.Response)
		return nil
	}
	var reqs, resps []json.RawMessage
	if err := json.Unmarshal(x.Request, &reqs); err != nil {
		return err
	}
	if err := json.Unmarshal(x.Response, &resps); err != nil {
		return nil // the node refused the whole batch: nothing per element
	}
	byID := map[string][]byte{}
	for _, a := range resps {
		var env struct{ ID json.RawMessage }
		if json.Unmarshal(a, &env) == nil {
			byID[string(env.ID)] = a
		}
	}
	for _, e := range reqs {
		req, err := parseRequest(e)
		if err != nil {
			continue
		}
		if a, ok := byID[string(req.id)]; ok {
			k, err := key(req.method, req.params)
			if err != nil {
				return err
			}
			r.put(k, a)
		}
	}
	return nil
}

func (r *replay) put(k string, answer []byte) {
	if _, ok := r.answers[k]; !ok {
		r.answers[k] = answer
	}
}

func (r *replay) answer(_ context.Context, req request) ([]byte, error) {
	k, err := key(req.method, req.params)
	if err != nil {
		return nil, fmt.Errorf("eidtest: %w", err)
	}
	a, ok := r.answers[k]
	if !ok {
		return nil, fmt.Errorf("eidtest: no recorded answer to %s %s at checkpoint %s", req.method, strings.TrimPrefix(k, req.method+" "), r.checkpoint)
	}
	if req.method == "[]" {
		return a, nil
	}
	return withID(a, req.id)
}

// withID returns the answer with its id member's value replaced by id (null
// when the request had none), every other byte as recorded.
func withID(answer []byte, id json.RawMessage) ([]byte, error) {
	if id == nil {
		id = json.RawMessage("null")
	}
	dec := json.NewDecoder(bytes.NewReader(answer))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("eidtest: recorded answer %.80s is not an object", answer)
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		start := dec.InputOffset() // just after the key: the colon and the value follow
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		if t == "id" {
			end := dec.InputOffset()
			out := append([]byte{}, answer[:start]...)
			out = append(out, ':')
			out = append(out, id...)
			return append(out, answer[end:]...), nil
		}
	}
	return nil, fmt.Errorf("eidtest: recorded answer %.80s has no id", answer)
}
