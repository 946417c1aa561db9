package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/didlight/didlight/host/client"
	"github.com/didlight/didlight/host/internal/follow"
)

// A follower's server (Options.Follower) relays the writes it is sent to
// its upstream and answers with the upstream's answer; every server
// records the followers polling it (Options.Peers) and lists them, and a
// follower's upstream, as neighbors in the node state.

// neighbors are the node's peers: its upstream first when it follows one,
// then the followers that polled it within the last minute.
func (s *Server) neighbors() []follow.Neighbor {
	out := []follow.Neighbor{}
	if s.opts.Follower != nil {
		out = append(out, s.opts.Follower.Neighbor())
	}
	if s.opts.Peers != nil {
		out = append(out, s.opts.Peers.Followers()...)
	}
	return out
}

// observe tells Options.Peers of every REST request, so that it notices
// followers by their [follow.Header].
func (s *Server) observe(next http.Handler) http.Handler {
	if s.opts.Peers == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.opts.Peers.Observe(r)
		next.ServeHTTP(w, r)
	})
}

// relayTx broadcasts raw through the upstream: its transaction id, or its
// refusal with the upstream's code and detail; 45002 when it did not
// answer.
func (s *Server) relayTx(ctx context.Context, raw []byte) (string, *restError) {
	txid, err := s.opts.Follower.SendTx(ctx, raw)
	if refused, ok := errors.AsType[*client.RESTError](err); ok {
		detail := refused.Detail
		if detail == "" {
			detail = refused.Desc
		}
		return "", fail(code(refused.Code), detail)
	}
	if err != nil {
		s.log.Warn("relaying a broadcast to the upstream failed", "upstream", s.opts.Follower.Upstream(), "err", err)
		return "", fail(internalError, fmt.Sprintf("this node follows %s and relays transactions to it, which failed: %v", s.opts.Follower.Upstream(), err))
	}
	return txid.String(), nil
}

// relayIDTx publishes a DID request through the upstream's /idtx and
// answers with its answer, once the follower holds the block (see
// [follow.Follower.PublishRequest]); 502 when the upstream did not answer.
func (s *Server) relayIDTx(w http.ResponseWriter, r *http.Request, body []byte) {
	ctx, cancel := context.WithTimeout(r.Context(), idtxWait)
	defer cancel()
	a, err := s.opts.Follower.PublishRequest(ctx, body)
	if err != nil {
		s.log.Warn("relaying /idtx to the upstream failed", "upstream", s.opts.Follower.Upstream(), "err", err)
		writeJSON(w, http.StatusBadGateway, sdkError{Code: int(internalError),
			Message: fmt.Sprintf("this node follows %s and relays DID requests to it, which failed: %v", s.opts.Follower.Upstream(), err)})
		return
	}
	if a.ContentType != "" {
		w.Header().Set("Content-Type", a.ContentType)
	}
	w.WriteHeader(a.Status)
	w.Write(a.Body)
}
