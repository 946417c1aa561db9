package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/core/ledger"
)

func TestHeightParam(t *testing.T) {
	for i, tc := range []struct {
		in   string
		want uint32
		ok   bool
	}{
		{"0", 0, true}, {"17", 17, true}, {"007", 7, true}, {"4294967295", 4294967295, true},
		{"4294967296", 0, false}, {"99999999999999999999999", 0, false}, {"", 0, false}, {"-1", 0, false},
		{"+1", 0, false}, {"1.0", 0, false}, {"0x10", 0, false}, {" 1", 0, false}, {"١", 0, false},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			r := httptest.NewRequest("GET", "/", nil)
			r.SetPathValue("height", tc.in)
			got, err := heightParam(r)
			if tc.ok != (err == nil) || got != tc.want {
				t.Errorf("heightParam(%q) = %d, %v; want %d ok=%v", tc.in, got, err, tc.want, tc.ok)
			}
			if err != nil && (err.code != invalidParams || !strings.Contains(err.detail, fmt.Sprintf("%q", tc.in))) {
				t.Errorf("heightParam(%q) error %+v: want 42002 naming the value", tc.in, err)
			}
		})
	}
}

func TestAppendResponseMatchesJSONRPC(t *testing.T) {
	for i, tc := range []struct {
		id     string
		result any
		err    *jsonrpc.Error
	}{
		{`1`, json.RawMessage(`{"did":"did:elastos:x","status":3}`), nil},
		{`"a"`, json.RawMessage(`[1,2]`), nil},
		{``, json.RawMessage(`{}`), nil},
		{`null`, map[string]int{"height": 3}, nil},
		{`7`, nil, jsonrpc.QueryParamsInvalid("x")},
		{``, nil, jsonrpc.ParseError("y")},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			want, err := json.Marshal(jsonrpc.Result(json.RawMessage(tc.id), tc.result))
			if tc.err != nil {
				want, err = json.Marshal(jsonrpc.Failure(json.RawMessage(tc.id), tc.err))
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := appendResponse([]byte("prefix"), json.RawMessage(tc.id), tc.result, tc.err); string(got) != "prefix"+string(want) {
				t.Errorf("appendResponse = %s\nwant          prefix%s", got, want)
			}
		})
	}
}

func TestWriteRESTEnvelopes(t *testing.T) {
	for i, tc := range []struct {
		result any
		err    *restError
		want   string
	}{
		{7, nil, `{"Desc":"Success","Error":0,"Result":7}`},
		{nil, fail(unknownBlock, "no block at height 9"), `{"Desc":"Unknown Block","Error":44003,"Result":"no block at height 9"}`},
		{nil, fail(invalidToken, ""), `{"Desc":"Verify token error","Error":42003,"Result":"Verify token error"}`},
		{nil, fail(45010, "spent"), `{"Desc":"INTERNAL ERROR, ErrDoubleSpend","Error":45010,"Result":"spent"}`},
		{nil, fail(49999, "?"), `{"Desc":"Unclassified error","Error":49999,"Result":"?"}`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			w := httptest.NewRecorder()
			writeREST(w, tc.result, tc.err)
			if w.Code != http.StatusOK || w.Body.String() != tc.want || w.Header().Get("Content-Type") != "application/json; charset=utf-8" {
				t.Errorf("writeREST = %d %s %q, want 200 %s", w.Code, w.Body, w.Header().Get("Content-Type"), tc.want)
			}
		})
	}
	w := httptest.NewRecorder()
	writeConfirm(w, nil, fail(unknownBlock, "no block x"))
	if want := `{"error":{"code":44003,"message":"Unknown Block","data":"no block x"},"id":null,"jsonrpc":"2.0","result":null}`; w.Body.String() != want {
		t.Errorf("writeConfirm = %s, want %s", w.Body, want)
	}
}

func TestAdmin(t *testing.T) {
	for i, tc := range []struct {
		token, remote, url string
		header             map[string]string
		want               bool
	}{
		{"", "127.0.0.1:5000", "/", nil, true},
		{"", "[::1]:5000", "/", nil, true},
		{"", "127.0.0.1:5000", "/", map[string]string{"X-Forwarded-For": "203.0.113.9"}, false},
		{"", "127.0.0.1:5000", "/", map[string]string{"Forwarded": "for=203.0.113.9"}, false},
		{"", "203.0.113.9:5000", "/", nil, false},
		{"", "203.0.113.9:5000", "/?token=", nil, false},
		{"s3cret", "203.0.113.9:5000", "/?token=s3cret", nil, true},
		{"s3cret", "203.0.113.9:5000", "/", map[string]string{"Authorization": "Bearer s3cret"}, true},
		{"s3cret", "203.0.113.9:5000", "/", map[string]string{"Authorization": "Bearer s3cre"}, false},
		{"s3cret", "203.0.113.9:5000", "/?token=s3cret", map[string]string{"Authorization": "Bearer wrong"}, false},
		{"s3cret", "203.0.113.9:5000", "/", map[string]string{"Authorization": "Basic s3cret"}, false},
		{"s3cret", "127.0.0.1:5000", "/", nil, true},
		{"", "not an address", "/", nil, false},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s := &Server{opts: Options{AdminToken: tc.token}}
			r := httptest.NewRequest("GET", tc.url, nil)
			r.RemoteAddr = tc.remote
			for k, v := range tc.header {
				r.Header.Set(k, v)
			}
			if got := s.admin(r); got != tc.want {
				t.Errorf("token %q from %s %s %v: admin = %v, want %v", tc.token, tc.remote, tc.url, tc.header, got, tc.want)
			}
		})
	}
}

func TestQueryParams(t *testing.T) {
	str := func(s string) *string { return &s }
	for i, tc := range []struct {
		p                   queryParams
		service, credential string
		condition           bool
		skip, limit         int
		err                 string
	}{
		{p: queryParams{Service: str("HiveVault")}, service: "HiveVault"},
		{p: queryParams{Credential: str("EmailCredential"), Skip: 20, Limit: 10}, credential: "EmailCredential", skip: 20, limit: 10},
		{p: queryParams{Query: str(`{credential.type:'X'}`), Limit: 1000}, condition: true, limit: 1000},
		{p: queryParams{Service: str("")}},
		{p: queryParams{}, err: "exactly one of service, credential and query; 0 given"},
		{p: queryParams{Service: str("a"), Query: str("{}")}, err: "2 given"},
		{p: queryParams{Service: str("a"), Credential: str("b"), Query: str("{}")}, err: "3 given"},
		{p: queryParams{Service: str("a"), Skip: -1}, err: "skip is -1"},
		{p: queryParams{Service: str("a"), Limit: -5}, err: "limit is -5"},
		{p: queryParams{Query: str(`{"a":`)}, err: "syntax error at byte 5"},
		{p: queryParams{Query: str(`{"$where":"1"}`)}, err: "$where"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			q, err := tc.p.compile()
			if tc.err != "" {
				if err == nil || err.Code != jsonrpc.CodeInvalidParams || err.Message != "Query parameters invalid." || !strings.Contains(fmt.Sprint(err.Data), tc.err) {
					t.Errorf("%+v: error %v, want -32602 Query parameters invalid. with %q", tc.p, err, tc.err)
				}
				return
			}
			if err != nil || q.Service != tc.service || q.Credential != tc.credential || (q.Condition != nil) != tc.condition || q.Skip != tc.skip || q.Limit != tc.limit {
				t.Errorf("%+v: compile = %+v, %v", tc.p, q, err)
			}
		})
	}
	_, err := (&queryParams{Query: str(`{"a":}`)}).compile()
	if data, ok := err.Data.(map[string]any); !ok || data["offset"] != 5 {
		t.Errorf("syntax error data = %#v, want the offset 5", err.Data)
	}
}

// Every code the chain may refuse a transaction with has ELA's text.
func TestRejectCodesHaveTexts(t *testing.T) {
	for _, c := range []ledger.Code{ledger.Malformed, ledger.InvalidInput, ledger.InvalidOutput, ledger.Balance, ledger.Signature,
		ledger.Payload, ledger.DoubleSpend, ledger.Duplicate, ledger.Size, ledger.UnknownReferredTx, ledger.ImmatureCoinbase,
		ledger.Locked, ledger.PoolFull} {
		if d := code(c).desc(); d == "Unclassified error" {
			t.Errorf("code %d (%s): Desc %q", c, c, d)
		}
	}
}
