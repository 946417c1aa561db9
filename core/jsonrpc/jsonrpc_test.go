package jsonrpc

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestDecodeSingle(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		method     string
		id         string
		code       int // 0: the call is valid
	}{
		{"2.0 with id", `{"jsonrpc":"2.0","method":"resolvedid","params":{},"id":1}`, "resolvedid", "1", 0},
		{"string id", `{"jsonrpc":"2.0","method":"query","id":"a-1"}`, "query", `"a-1"`, 0},
		{"negative id", `{"method":"query","id":-7}`, "query", "-7", 0},
		{"1.0 style", `{"method":"resolvedid","params":{},"id":3}`, "resolvedid", "3", 0},
		{"ela-cli style", `{"id":null,"jsonrpc":"","method":"getblockcount","params":{}}`, "getblockcount", "null", 0},
		{"1.0 style without id", `{"method":"resolvedid"}`, "resolvedid", "null", 0},
		{"ela-cli's empty version", `{"jsonrpc":"","method":"getblockcount","id":4}`, "getblockcount", "4", 0},
		{"1.0 named", `{"jsonrpc":"1.0","method":"getblockcount","id":"x"}`, "getblockcount", `"x"`, 0},
		{"null id", `{"jsonrpc":"2.0","method":"resolvedid","id":null}`, "resolvedid", "null", 0},
		{"decimal id", `{"jsonrpc":"2.0","method":"m","id":1.5}`, "", "null", CodeInvalidRequest},
		{"exponent id", `{"jsonrpc":"2.0","method":"m","id":1e3}`, "", "null", CodeInvalidRequest},
		{"object id", `{"jsonrpc":"2.0","method":"m","id":{}}`, "", "null", CodeInvalidRequest},
		{"wrong version", `{"jsonrpc":"3.0","method":"m","id":1}`, "", "null", CodeInvalidRequest},
		{"no method", `{"jsonrpc":"2.0","id":9}`, "", "9", CodeInvalidRequest},
		{"method not string", `{"jsonrpc":"2.0","method":5,"id":9}`, "", "null", CodeInvalidRequest},
		{"method null", `{"jsonrpc":"2.0","method":null,"id":9}`, "", "null", CodeInvalidRequest},
		{"version not a string", `{"jsonrpc":2,"method":"m","id":9}`, "", "null", CodeInvalidRequest},
		{"names are case-sensitive", `{"jsonrpc":"2.0","METHOD":"m","id":9}`, "", "9", CodeInvalidRequest},
		{"not an object", `"resolvedid"`, "", "null", CodeInvalidRequest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls, batch, err := Decode([]byte(tc.body))
			if err != nil || batch || len(calls) != 1 {
				t.Fatalf("Decode = %d calls, batch %v, err %v; want one call", len(calls), batch, err)
			}
			c := calls[0]
			if got := code(c.Err); got != tc.code {
				t.Errorf("error code %d (%v), want %d", got, c.Err, tc.code)
			}
			if c.Method != tc.method || string(c.ID) != tc.id {
				t.Errorf("method %q id %s, want %q %s", c.Method, c.ID, tc.method, tc.id)
			}
		})
	}
}

// A 2.0 request without an id member is a notification; one with id null,
// or without a version (1.0 style, or ela-cli's empty one), is not; an
// invalid request is answered even without an id.
func TestNotifications(t *testing.T) {
	for i, tc := range []struct {
		body         string
		notification bool
		code         int
	}{
		{`{"jsonrpc":"2.0","method":"dev_mine"}`, true, 0},
		{`{"jsonrpc":"2.0","method":"dev_mine","params":{}}`, true, 0},
		{`{"jsonrpc":"2.0","method":"dev_mine","id":null}`, false, 0},
		{`{"method":"dev_mine"}`, false, 0},
		{`{"jsonrpc":"","method":"dev_mine"}`, false, 0},
		{`{"jsonrpc":"2.0","method":5}`, false, CodeInvalidRequest},
		{`{"jsonrpc":"2.0"}`, false, CodeInvalidRequest},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			calls, _, err := Decode([]byte(tc.body))
			if err != nil || len(calls) != 1 {
				t.Fatalf("Decode(%s): %v", tc.body, err)
			}
			if c := calls[0]; c.Notification != tc.notification || code(c.Err) != tc.code {
				t.Errorf("Decode(%s): notification %v, error %v; want %v, code %d", tc.body, c.Notification, c.Err, tc.notification, tc.code)
			}
		})
	}
}

// Errors say what is wrong in JSON's terms, never in Go's, and quote at
// most the start of what they were given.
func TestErrorsSayNoGo(t *testing.T) {
	long := strings.Repeat("x", 70000)
	bodies := []string{
		`{"jsonrpc":"` + long + `","method":"m","id":1}`,
		`{"jsonrpc":"2.0","method":"m","id":1` + long,
		`{"jsonrpc":"2.0","method":["m"],"id":1}`,
		`{"jsonrpc":"2.0","method":"m","id":1.` + strings.Repeat("5", 70000) + `}`,
		`nul`, `[1,`, `{"a" 1}`,
	}
	for _, body := range bodies {
		calls, _, err := Decode([]byte(body))
		if err == nil {
			err = calls[0].Err
		}
		checkNoGo(t, body, err)
	}
	type params struct {
		DID   string `json:"did"`
		Limit int    `json:"limit"`
		Skip  uint   `json:"skip"`
	}
	for in, want := range map[string]string{
		`{"limit":"x"}`:                "limit: want an integer",
		`{"limit":1.5}`:                "limit: want an integer",
		`{"limit":1e30}`:               "limit: want an integer",
		`{"skip":-1}`:                  "skip: want an integer of 0 or more",
		`{"did":{"a":1}}`:              "did: want a string",
		`{"` + long + `":1}`:           "unknown parameter",
		`[{"did":1},2]`:                "holds 2 elements",
		`{"did":"` + long + `","x":1}`: `unknown parameter "x": want did, limit or skip`,
	} {
		err := DecodeParams(json.RawMessage(in), new(params))
		if err == nil || !strings.Contains(fmt.Sprint(err.Data), want) {
			t.Errorf("DecodeParams(%.40s) = %v, want %q", in, err, want)
		}
		checkNoGo(t, in, err)
	}
}

func checkNoGo(t *testing.T, in string, err *Error) {
	t.Helper()
	if err == nil {
		t.Errorf("%.40s: no error", in)
		return
	}
	data := fmt.Sprint(err.Data)
	for _, goText := range []string{"Go ", "json:", "struct", "unmarshal", "int64", "[]"} {
		if strings.Contains(data, goText) {
			t.Errorf("%.40s: data %q speaks Go (%q)", in, data, goText)
		}
	}
	if len(data) > 300 {
		t.Errorf("%.40s: data of %d bytes, want the input quoted at its start only", in, len(data))
	}
}

func code(e *Error) int {
	if e == nil {
		return 0
	}
	return e.Code
}

func TestDecodeBodyErrors(t *testing.T) {
	for i, tc := range []struct {
		body string
		code int
		want string
	}{
		{`{"method":`, CodeParseError, "unexpected end"},
		{``, CodeParseError, "unexpected end"},
		{`[]`, CodeInvalidRequest, "empty batch"},
		{"[" + strings.Repeat(`{"method":"m"},`, MaxBatch) + `{"method":"m"}]`, CodeInvalidRequest, "batch of 101 calls"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			calls, _, err := Decode([]byte(tc.body))
			if err == nil || err.Code != tc.code || !strings.Contains(fmt.Sprint(err.Data), tc.want) {
				t.Errorf("Decode(%.20q) = %d calls, error %v; want code %d with %q", tc.body, len(calls), err, tc.code, tc.want)
			}
		})
	}
}

func TestDecodeBatchDecodesEachCall(t *testing.T) {
	calls, batch, err := Decode([]byte(`[{"method":"a","id":1}, 7, {"method":"b","id":"x","params":[{"did":"d"}]}]`))
	if err != nil || !batch || len(calls) != 3 {
		t.Fatalf("Decode = %d calls, batch %v, err %v", len(calls), batch, err)
	}
	if calls[0].Method != "a" || calls[0].Err != nil {
		t.Errorf("call 0 = %+v", calls[0])
	}
	if calls[1].Err == nil || calls[1].Err.Code != CodeInvalidRequest || string(calls[1].ID) != "null" {
		t.Errorf("call 1 = %+v, want invalid request with id null", calls[1])
	}
	if calls[2].Method != "b" || string(calls[2].ID) != `"x"` || string(calls[2].Params) != `[{"did":"d"}]` {
		t.Errorf("call 2 = %+v", calls[2])
	}
}

func TestDecodeParams(t *testing.T) {
	type params struct {
		DID    string `json:"did"`
		All    bool   `json:"all"`
		Hidden int    `json:"-"`
		Plain  int
	}
	for i, tc := range []struct {
		in   string
		want params
		err  string
	}{
		{`{"did":"a","Plain":2}`, params{DID: "a", Plain: 2}, ""},
		{`{"-":1}`, params{}, `unknown parameter "-": want did, all or Plain`},
		{`{"did":"a",`, params{}, "params: want an object"},
		{`{"did":5,"al":true}`, params{}, `unknown parameter "al"`}, // a misspelt name first
		{`[{"did":"a"}`, params{}, "params: want an object, or an array holding one object"},
		{`{"did":"did:elastos:x","all":true}`, params{DID: "did:elastos:x", All: true}, ""},
		{`[{"did":"did:elastos:x"}]`, params{DID: "did:elastos:x"}, ""},
		{` [ {"did":"y"} ] `, params{DID: "y"}, ""},
		{`[]`, params{}, "holds 0 elements"},
		{`[{"did":"a"},{"did":"b"}]`, params{}, "holds 2 elements"},
		{`["a"]`, params{}, "params is a string"},
		{``, params{}, "params is nothing"},
		{`{"did":"a","al":true}`, params{}, `unknown parameter "al": want did, all or Plain`},
		{`{"DID":"a"}`, params{}, `unknown parameter "DID"`}, // names are matched exactly
		{`{"did":5}`, params{}, "did: want a string"},
		{`{"did":"a","all":"yes"}`, params{}, "all: want true or false"},
		{`"x"`, params{}, "params is a string"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			var got params
			err := DecodeParams(json.RawMessage(tc.in), &got)
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("DecodeParams(%s) error %v", tc.in, err)
			case tc.err != "" && (err == nil || err.Code != CodeInvalidParams || !strings.Contains(fmt.Sprint(err.Data), tc.err)):
				t.Errorf("DecodeParams(%s) error %v, want -32602 with %q", tc.in, err, tc.err)
			case tc.err == "" && got != tc.want:
				t.Errorf("DecodeParams(%s) = %+v, want %+v", tc.in, got, tc.want)
			}
		})
	}
}

func TestResponseShapes(t *testing.T) {
	for i, tc := range []struct {
		r    Response
		want string
	}{
		{Result(json.RawMessage(`1`), map[string]int{"status": 3}), `{"jsonrpc":"2.0","result":{"status":3},"id":1}`},
		{Result(nil, "x"), `{"jsonrpc":"2.0","result":"x","id":null}`},
		{Failure(json.RawMessage(`"q"`), QueryParamsInvalid("")), `{"jsonrpc":"2.0","error":{"code":-32602,"message":"Query parameters invalid."},"id":"q"}`},
		{Failure(nil, ResolverError("store closed")), `{"jsonrpc":"2.0","error":{"code":-32001,"message":"Resolver internal error.","data":"store closed"},"id":null}`},
		{Failure(nil, MethodNotFound("nope")), `{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":"no method \"nope\""},"id":null}`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			b, err := json.Marshal(tc.r)
			if err != nil || string(b) != tc.want {
				t.Errorf("Marshal = %s, %v; want %s", b, err, tc.want)
			}
		})
	}
}

func TestErrorMessages(t *testing.T) {
	for i, tc := range []struct {
		err  *Error
		code int
		msg  string
	}{
		{ParseError(""), -32700, "Parse error"},
		{InvalidRequest(""), -32600, "Invalid Request"},
		{InvalidParams(""), -32602, "Invalid params"},
		{InternalError(""), -32603, "Internal error"},
		{Errorf(-32000, "Server error", "%d", 4), -32000, "Server error"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if tc.err.Code != tc.code || tc.err.Message != tc.msg {
				t.Errorf("%v: code %d message %q, want %d %q", tc.err, tc.err.Code, tc.err.Message, tc.code, tc.msg)
			}
		})
	}
	if got := Errorf(-32000, "Server error", "%d left", 4).Error(); got != "jsonrpc -32000: Server error (4 left)" {
		t.Errorf("Error() = %q", got)
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x","all":false},"id":1}`,
		`[{"method":"query","params":[{"service":"Hive"}],"id":"a"},{"id":2.5}]`,
		`{"id":-0}`, `[]`, `nul`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		calls, batch, err := Decode(body)
		if err != nil {
			checkNoGo(t, string(body), err)
			if len(calls) != 0 {
				t.Fatalf("error %v with %d calls", err, len(calls))
			}
			return
		}
		if !batch && len(calls) != 1 {
			t.Fatalf("single body gave %d calls", len(calls))
		}
		for _, c := range calls {
			if !json.Valid(c.ID) {
				t.Fatalf("call id %q is not JSON", c.ID)
			}
			if c.Notification && (c.Err != nil || string(c.ID) != "null") {
				t.Fatalf("a notification with error %v and id %s", c.Err, c.ID)
			}
			if c.Err != nil {
				checkNoGo(t, string(body), c.Err)
			}
			if c.Err == nil && c.Method == "" {
				t.Fatal("valid call without method")
			}
			if _, err := json.Marshal(Result(c.ID, nil)); err != nil {
				t.Fatalf("answer does not encode: %v", err)
			}
		}
	})
}

func FuzzDecodeParams(f *testing.F) {
	for _, s := range []string{`{"did":"x","all":true}`, `[{"did":"x"}]`, `{"limit":1.5}`, `{"did":null}`, `[]`, `{"":1}`,
		`{"did":"\u00e9\ud800","all":false,"did":"y"}`, `{"Did":"x"}`, `{"did":"x","all":"true"}`, `{"Name":"n","all":true}`,
		`{"limit":10,"skip":-0}`, `{"limit":1e2}`, `{"skip":99999999999999999999}`, `{"limit":null,"skip":7}`} {
		f.Add([]byte(s))
	}
	type params struct {
		DID   *string `json:"did"`
		All   bool    `json:"all"`
		Limit int     `json:"limit"`
	}
	type plainParams struct { // what decodePlain sets
		DID   *string `json:"did"`
		All   bool    `json:"all"`
		Name  string
		Limit int  `json:"limit"`
		Skip  *int `json:"skip"`
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if !json.Valid(in) {
			if decodePlain(in, new(plainParams)) {
				t.Fatalf("decodePlain took %q, which is not JSON", in)
			}
			return // bodies are checked whole before their params are read
		}
		if err := DecodeParams(in, new(params)); err != nil {
			if err.Code != CodeInvalidParams {
				t.Fatalf("code %d", err.Code)
			}
			checkNoGo(t, string(in), err)
		}
		var plain, want plainParams
		if decodePlain(in, &plain) {
			if err := json.Unmarshal(in, &want); err != nil || !reflect.DeepEqual(plain, want) {
				t.Fatalf("decodePlain(%s) = %+v; encoding/json: %+v, %v", in, plain, want, err)
			}
		}
	})
}
