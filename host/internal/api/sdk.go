package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/chain"
)

// The endpoints of the DID SDKs' simulated ID chain (Elastos.DID.JS.SDK
// SIMULATED_CHAIN.md and src/backend/simulatedidchainadapter.ts): the SDK
// posts a raw ID-chain request to /idtx and takes any 2xx as success,
// resolves through /resolve (served as JSON-RPC) and wipes the chain with
// /reset between tests.

// idtxWait bounds how long /idtx waits for the block holding the request,
// so that it answers before the listener's write timeout cuts it off.
const idtxWait = writeTimeout - 5*time.Second

// sdkError is the body of a failed /idtx or /reset: an ELA error code, what
// went wrong, and for a request the chain refused, the idop rule it breaks.
type sdkError struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Rule    idop.Rule `json:"rule,omitempty"`
}

// serveIDTx publishes a raw ID-chain request in a transaction funded by the
// dev account and answers 202 once a block holds it, or 400 with the
// reason it is invalid.
func (s *Server) serveIDTx(w http.ResponseWriter, r *http.Request) {
	buf := getBuffer()
	defer putBuffer(buf)
	if status, err := readBody(w, r, buf, maxRPCBody); err != nil {
		writeJSON(w, status, sdkError{Code: int(illegalDataFormat), Message: err.Error()})
		return
	}
	req, err := idop.ParseRequest(buf.Bytes())
	if err != nil {
		writeJSON(w, http.StatusBadRequest, sdkError{Code: int(ledger.Payload), Message: err.Error(), Rule: idop.RuleOf(err)})
		return
	}
	if s.opts.Follower != nil {
		s.relayIDTx(w, r, buf.Bytes())
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), idtxWait)
	defer cancel()
	if err := s.ensureRequest(ctx, req); err != nil {
		writeJSON(w, http.StatusBadGateway, sdkError{Code: int(internalError), Message: err.Error()})
		return
	}
	if _, err := s.chain.SubmitRequest(ctx, req); err != nil {
		s.writeSubmitError(w, err)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

// writeSubmitError answers a request the chain did not mine: 400 when it
// refused it, 504 when no block held it in time, 500 when the chain failed.
func (s *Server) writeSubmitError(w http.ResponseWriter, err error) {
	reject, rejected := errors.AsType[*chain.RejectError](err)
	switch {
	case rejected:
		writeJSON(w, http.StatusBadRequest, sdkError{Code: reject.Code, Message: err.Error(), Rule: idop.RuleOf(err)})
	case errors.Is(err, context.DeadlineExceeded):
		writeJSON(w, http.StatusGatewayTimeout, sdkError{Code: int(internalError),
			Message: fmt.Sprintf("the request was accepted but no block held it within %v: %v", idtxWait, err)})
	default:
		s.log.Error("/idtx failed", "err", err)
		writeJSON(w, http.StatusInternalServerError, sdkError{Code: int(internalError), Message: err.Error()})
	}
}

// serveReset wipes a devnet back to its genesis block: begun at
// ?time=T (an RFC 3339 time or Unix seconds) if given, else where it
// began. The simulated chain can also drop only ID or only credential
// transactions (?idtxsonly, ?vctxsonly); a ledger cannot drop one kind of
// transaction and keep the blocks that hold the other, so those are
// refused.
func (s *Server) serveReset(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	var at time.Time
	if q.Has("time") {
		var err error
		if at, err = parseTime(q.Get("time")); err != nil {
			writeJSON(w, http.StatusBadRequest, sdkError{Code: int(invalidParams), Message: err.Error()})
			return
		}
	}
	switch {
	case q.Has("idtxsonly") || q.Has("vctxsonly"):
		writeJSON(w, http.StatusBadRequest, sdkError{Code: int(invalidParams),
			Message: "idtxsonly and vctxsonly are not supported: a ledger cannot drop one kind of transaction; POST /reset without parameters resets the whole chain"})
	case !s.chain.Devnet():
		writeJSON(w, http.StatusForbidden, sdkError{Code: int(invalidMethod), Message: "only a devnet node can be reset"})
	default:
		err := s.resetAt(r.Context(), at)
		if chain.KindOf(err) == chain.KindInvalid {
			writeJSON(w, http.StatusBadRequest, sdkError{Code: int(invalidParams), Message: err.Error()})
			return
		}
		if err != nil {
			s.log.Error("/reset failed", "err", err)
			writeJSON(w, http.StatusInternalServerError, sdkError{Code: int(internalError), Message: err.Error()})
			return
		}
		w.WriteHeader(http.StatusOK)
	}
}
