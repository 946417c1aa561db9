package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/host/internal/chain"
)

// queryParams are query's parameters; pointers tell a member left out from
// one given empty.
type queryParams struct {
	Service    *string `json:"service"`
	Credential *string `json:"credential"`
	Query      *string `json:"query"`
	Skip       int     `json:"skip"`
	Limit      int     `json:"limit"`
}

// query answers query: exactly one of service, credential and query, then
// skip and limit.
func (s *Server) query(ctx context.Context, params json.RawMessage) (any, *jsonrpc.Error) {
	var p queryParams
	if err := jsonrpc.DecodeParams(params, &p); err != nil {
		return nil, err
	}
	q, err := p.compile()
	if err != nil {
		return nil, err
	}
	result, cerr := s.queries.Query(ctx, q)
	if cerr != nil {
		return nil, s.chainFailure("query", jsonrpc.QueryParamsInvalid, cerr)
	}
	return json.RawMessage(result), nil
}

// compile checks the parameters and turns them into the chain's query,
// compiling a find condition. Every failure is -32602 "Query parameters
// invalid.". A limit of 0 (or none) and one above the most a page holds
// are the chain's to settle (resolve.DefaultQueryLimit, resolve.MaxQueryLimit).
func (p *queryParams) compile() (chain.Query, *jsonrpc.Error) {
	given := 0
	for _, v := range []*string{p.Service, p.Credential, p.Query} {
		if v != nil {
			given++
		}
	}
	if given != 1 {
		return chain.Query{}, jsonrpc.QueryParamsInvalid(fmt.Sprintf("give exactly one of service, credential and query; %d given", given))
	}
	if err := nonNegative(p.Skip, p.Limit, jsonrpc.QueryParamsInvalid); err != nil {
		return chain.Query{}, err
	}
	q := chain.Query{Skip: p.Skip, Limit: p.Limit}
	switch {
	case p.Service != nil:
		q.Service = *p.Service
	case p.Credential != nil:
		q.Credential = *p.Credential
	default:
		c, cerr := find.Compile(*p.Query)
		if cerr != nil {
			return chain.Query{}, conditionError(cerr)
		}
		q.Condition = c
	}
	return q, nil
}

// conditionError reports a query string that is not a find condition; a
// syntax error's data carries the byte offset.
func conditionError(err error) *jsonrpc.Error {
	e := jsonrpc.QueryParamsInvalid(err.Error())
	if se := (*find.SyntaxError)(nil); errors.As(err, &se) {
		e.Data = map[string]any{"error": err.Error(), "offset": se.Offset}
	}
	return e
}
