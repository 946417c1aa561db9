package jsonrpc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// Args reads the params of a method whose parameters have names, in either
// form a JSON-RPC request may give them: an object of them by name, or an
// array of them by position in names (the 1.0 form Elastos tools send).
// Absent or null params give no parameters. The result holds each parameter
// given, raw; one whose value is null counts as not given, as a client
// that fills a slot with null means.
//
// A name that is not in names, or more values than names, is invalid
// params, with data naming what the method takes. The Elastos nodes map
// positions onto names the same way (Elastos.ELA utils/http/jsonrpc/
// server.go, parseParams), but ignore extra values and unknown names; here a
// misspelt parameter is reported rather than silently dropped.
func Args(params json.RawMessage, names ...string) (map[string]json.RawMessage, *Error) {
	params = bytes.TrimSpace(params)
	out := map[string]json.RawMessage{}
	switch kind(params) {
	case "nothing", "null":
		return out, nil
	case "an array":
		var list []json.RawMessage
		if err := json.Unmarshal(params, &list); err != nil {
			return nil, InvalidParams(DescribeError(err, "params"))
		}
		if len(list) > len(names) {
			return nil, InvalidParams(fmt.Sprintf("params holds %d values; %s", len(list), takes(names)))
		}
		for i, v := range list {
			out[names[i]] = v
		}
	case "an object":
		if err := json.Unmarshal(params, &out); err != nil {
			return nil, InvalidParams(DescribeError(err, "params"))
		}
		for name := range out {
			if !slices.Contains(names, name) {
				return nil, InvalidParams(fmt.Sprintf("unknown parameter %s; %s", excerpt.Quote(name), takes(names)))
			}
		}
	default:
		return nil, InvalidParams(fmt.Sprintf("params is %s, want an object or an array", kind(params)))
	}
	for name, v := range out {
		if string(bytes.TrimSpace(v)) == "null" {
			delete(out, name)
		}
	}
	return out, nil
}

// takes says which parameters a method takes, for error data.
func takes(names []string) string {
	if len(names) == 0 {
		return "the method takes none"
	}
	return fmt.Sprintf("the method takes at most %d: %s", len(names), strings.Join(names, ", "))
}
