package api

import (
	"fmt"
	"net/http"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/host/internal/follow"
	"github.com/didlight/didlight/host/internal/wire"
)

// restHandler routes the REST API. Every answer is the Desc/Error/Result
// envelope (the confirm endpoints: the JSON-RPC style one), including the
// answer to a path or method it does not serve (42001).
func (s *Server) restHandler() http.Handler {
	rt := newRouter("rest", s, refuseREST)
	s.rest.routes = &rt.routes
	get := func(path string, h func(*http.Request) (any, *restError)) {
		rt.handle("GET "+path, read, func(w http.ResponseWriter, r *http.Request) {
			result, err := h(r)
			writeREST(w, result, err)
		})
	}
	// The answers of blocks and confirms depend on the path and the tip
	// only: a cache may keep them (cache.go). The node's state, the
	// mempool and what it holds (a transaction, an address's coins) change
	// without a block.
	cached := func(path string, h func(*http.Request) (any, *restError), write func(http.ResponseWriter, any, *restError)) {
		rt.handle("GET "+path, read, func(w http.ResponseWriter, r *http.Request) {
			if s.chain != nil && s.notModified(w, r, r.URL.Path) {
				return
			}
			result, err := h(r)
			if err != nil && err.code == internalError {
				uncache(w)
			}
			write(w, result, err)
		})
	}
	get("/api/v1/node/connectioncount", s.connectionCount)
	get("/api/v1/node/state", s.nodeState)
	cached("/api/v1/block/height", s.blockHeight, writeREST)
	get("/api/v1/transactionpool", s.ledger(s.transactionPool))
	cached("/api/v1/block/hash/{height}", s.ledger(s.blockHash), writeREST)
	cached("/api/v1/block/details/height/{height}", s.ledger(s.blockByHeight), writeREST)
	cached("/api/v1/block/details/hash/{hash}", s.ledger(s.blockByHash), writeREST)
	cached("/api/v1/block/transactions/height/{height}", s.ledger(s.blockTransactions), writeREST)
	get("/api/v1/transaction/{hash}", s.ledger(s.transaction))
	get("/api/v1/asset/balances/{addr}", s.ledger(s.balances))
	get("/api/v1/asset/utxos/{addr}", s.ledger(s.utxos))
	get("/api/v1/asset/{hash}", s.ledger(s.asset))
	get("/api/v1/asset/balance/{addr}/{assetid}", s.ledger(s.balanceByAsset))
	get("/api/v1/asset/utxo/{addr}/{assetid}", s.ledger(s.utxosByAsset))
	cached("/api/v1/confirm/details/height/{height}", s.ledger(s.confirm), writeConfirm)
	cached("/api/v1/confirm/details/hash/{hash}", s.ledger(s.confirm), writeConfirm)
	s.probes(rt)
	if s.opts.Metrics != nil {
		rt.handle("GET "+metricsPath, control, s.serveMetrics(s.opts.Metrics))
	}
	rt.handle("GET "+identifiersPath+"{identifier...}", read, s.serveIdentifier)
	rt.handleUnlimited("OPTIONS "+identifiersPath, read, preflight)
	s.routeUniversalResolver(rt)
	rt.handle("GET "+openAPIPath, read, serveOpenAPI(func() []byte {
		return openAPIDocument("didlight REST", restAPIDoc, s.opts.Version, restDocs, rt.routes)
	}))
	rt.handle("GET /api/v1/restart", control, s.serveRestart)
	rt.handle("POST /api/v1/transaction", broadcast, s.ledgerHandler(s.serveBroadcast))
	rt.handleUnlimited("OPTIONS /api/v1/", read, preflight)
	notEndpoint := func(w http.ResponseWriter, r *http.Request) {
		writeREST(w, nil, fail(invalidMethod, fmt.Sprintf("%s %s is not an endpoint of this API", excerpt.Cut(r.Method), excerpt.Cut(r.URL.Path))))
	}
	rt.handle("/api/", read, notEndpoint)
	if s.opts.Web != nil {
		rt.handle("/", read, s.opts.Web.ServeHTTP)
	} else {
		rt.handle("/", read, notEndpoint)
	}
	return cors(s.observe(rt))
}

// refuseREST answers a request the browser policy refuses, in the REST
// envelope with the HTTP status the refusal says.
func refuseREST(w http.ResponseWriter, no *refusal) {
	c := refusalCode(no)
	writeJSON(w, no.status, envelope{Desc: c.desc(), Error: c, Result: no.reason})
}

// refusalCode is the ELA code of a refusal: 42003 (Verify token error) for
// a page of another site, 41003 (Illegal Dataformat) for a form body, -1
// (ELA's Unclassified error, as it has no code for it) for a client over
// the rate limit.
func refusalCode(no *refusal) code {
	switch no.status {
	case http.StatusUnsupportedMediaType:
		return illegalDataFormat
	case http.StatusTooManyRequests:
		return unclassified
	}
	return invalidToken
}

// connectionCount is the number of connected nodes: the neighbors.
func (s *Server) connectionCount(*http.Request) (any, *restError) {
	return len(s.neighbors()), nil
}

// nodeState reports the node: its id, tip, transaction counts and the ports
// it serves on. It has no peer-to-peer, websocket or open service, so those
// ports are 0.
func (s *Server) nodeState(*http.Request) (any, *restError) {
	st := wire.NodeState[follow.Neighbor, any]{
		Compile:   s.opts.Version,
		HexID:     "0x0",
		Height:    s.height(),
		RPCPort:   s.rpc.port(),
		RESTPort:  s.rest.port(),
		Neighbors: s.neighbors(),
	}
	if s.light != nil {
		st.Light = s.light.Status()
		return st, nil
	}
	cs := s.chain.Stats()
	st.ID, st.HexID, st.TxnCnt, st.RxTxnCnt = cs.NodeID, fmt.Sprintf("0x%x", cs.NodeID), cs.TxnCnt, cs.RxTxnCnt
	return st, nil
}

// blockHeight is the tip's height; on a light node its upstream's head.
func (s *Server) blockHeight(*http.Request) (any, *restError) {
	return s.height(), nil
}

// transactionPool lists the mempool's transactions in full.
func (s *Server) transactionPool(*http.Request) (any, *restError) {
	return s.mempoolJSON(), nil
}

func (s *Server) blockHash(r *http.Request) (any, *restError) {
	height, err := heightParam(r)
	if err != nil {
		return nil, err
	}
	h, err := s.blockHashAt(height)
	if err != nil {
		return nil, err
	}
	return h.String(), nil
}

// blockByHeight is the block with its transactions in full.
func (s *Server) blockByHeight(r *http.Request) (any, *restError) {
	height, err := heightParam(r)
	if err != nil {
		return nil, err
	}
	b, ctx, err := s.blockAt(height)
	if err != nil {
		return nil, err
	}
	return b.JSON(ctx, true), nil
}

// blockByHash is the block with its transactions' hashes.
func (s *Server) blockByHash(r *http.Request) (any, *restError) {
	h, err := hashParam(r, "hash")
	if err != nil {
		return nil, err
	}
	b, ctx, err := s.blockByID(h)
	if err != nil {
		return nil, err
	}
	return b.JSON(ctx, false), nil
}

// blockTransactions is the hashes of a block's transactions
// (Elastos.ELA servers/interfaces.go, GetBlockTransactions).
func (s *Server) blockTransactions(r *http.Request) (any, *restError) {
	height, err := heightParam(r)
	if err != nil {
		return nil, err
	}
	b, _, err := s.blockAt(height)
	if err != nil {
		return nil, err
	}
	hashes := make([]string, len(b.Transactions))
	for i, tx := range b.Transactions {
		hashes[i] = tx.Hash().String()
	}
	return struct {
		Hash         string
		Height       uint32
		Transactions []string
	}{b.Hash().String(), b.Header.Height, hashes}, nil
}

// confirm is the DPoS confirm of the block named by height or hash. Every
// block the chain holds has one, so an unknown block is the only miss (44003).
func (s *Server) confirm(r *http.Request) (any, *restError) {
	var h ela.Hash
	if r.PathValue("height") != "" {
		height, err := heightParam(r)
		if err != nil {
			return nil, err
		}
		if h, err = s.blockHashAt(height); err != nil {
			return nil, err
		}
	} else {
		var err *restError
		if h, err = hashParam(r, "hash"); err != nil {
			return nil, err
		}
	}
	c, cerr := s.chain.Confirm(h)
	if cerr != nil {
		return nil, s.chainError(cerr, unknownBlock, "no block %s", h)
	}
	return c.JSON(), nil
}

func (s *Server) transaction(r *http.Request) (any, *restError) {
	h, err := hashParam(r, "hash")
	if err != nil {
		return nil, err
	}
	tx, ctx, err := s.txByID(h)
	if err != nil {
		return nil, err
	}
	return tx.JSON(ctx), nil
}
