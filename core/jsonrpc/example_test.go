package jsonrpc_test

import (
	"encoding/json"
	"fmt"

	"github.com/didlight/didlight/core/jsonrpc"
)

// A server decodes a body, answers each call, and keeps the batch shape.
func Example() {
	body := []byte(`[{"jsonrpc":"2.0","method":"did_resolveDID","params":[{"did":"did:elastos:foo"}],"id":1},
	                 {"jsonrpc":"2.0","method":"nope","id":2}]`)
	calls, batch, err := jsonrpc.Decode(body)
	if err != nil {
		panic(err)
	}
	var out []jsonrpc.Response
	for _, c := range calls {
		if c.Err != nil {
			out = append(out, jsonrpc.Failure(c.ID, c.Err))
			continue
		}
		switch c.Method {
		case "did_resolveDID":
			var p struct {
				DID string `json:"did"`
				All bool   `json:"all"`
			}
			if err := jsonrpc.DecodeParams(c.Params, &p); err != nil {
				out = append(out, jsonrpc.Failure(c.ID, err))
				continue
			}
			out = append(out, jsonrpc.Result(c.ID, map[string]any{"did": p.DID, "status": 3}))
		default:
			out = append(out, jsonrpc.Failure(c.ID, jsonrpc.MethodNotFound(c.Method)))
		}
	}
	b, _ := json.Marshal(out)
	fmt.Println(batch)
	fmt.Println(string(b))
	// Output:
	// true
	// [{"jsonrpc":"2.0","result":{"did":"did:elastos:foo","status":3},"id":1},{"jsonrpc":"2.0","error":{"code":-32601,"message":"Method not found","data":"no method \"nope\""},"id":2}]
}
