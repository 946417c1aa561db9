package api

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsonrpc"
	"github.com/didlight/didlight/core/ledger"
)

// maxBroadcastBody bounds a broadcast: a transaction is at most 8 MB, and
// hex doubles it.
const maxBroadcastBody = 16 << 20

// serveBroadcast accepts a signed transaction (POST /api/v1/transaction,
// {"Action":"sendrawtransaction","data":HEX}) into the mempool and answers
// its hash. A body that is not that JSON is 41003 Illegal Dataformat, data
// that is not hex 42002, and a transaction the chain refuses carries the
// chain's code (43001 malformed, 45xxx rejected by a rule).
func (s *Server) serveBroadcast(w http.ResponseWriter, r *http.Request) {
	result, err := s.broadcast(w, r)
	writeREST(w, result, err)
}

func (s *Server) broadcast(w http.ResponseWriter, r *http.Request) (any, *restError) {
	buf := getBuffer()
	defer putBuffer(buf)
	if status, err := readBody(w, r, buf, maxBroadcastBody); err != nil {
		if status == http.StatusRequestEntityTooLarge {
			return nil, fail(code(ledger.Size), err.Error())
		}
		return nil, fail(illegalDataFormat, err.Error())
	}
	var body struct {
		Action *string `json:"Action"`
		Data   *string `json:"data"`
	}
	if err := json.Unmarshal(buf.Bytes(), &body); err != nil {
		return nil, fail(illegalDataFormat, `want {"Action":"sendrawtransaction","data":"<hex>"}: `+jsonrpc.DescribeError(err, "the body"))
	}
	switch {
	case body.Action != nil && *body.Action != "sendrawtransaction":
		return nil, fail(invalidParams, fmt.Sprintf("Action %s: this endpoint takes sendrawtransaction", excerpt.Quote(*body.Action)))
	case body.Data == nil:
		return nil, fail(invalidParams, "need a string parameter named data")
	}
	raw, err := hex.DecodeString(*body.Data)
	if err != nil {
		return nil, fail(invalidParams, "data is not hex: "+hexProblem(*body.Data))
	}
	return s.submit(r.Context(), raw)
}

// hexProblem says why s is not hex: the first character that is not a hex
// digit, and where, or its odd length.
func hexProblem(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return fmt.Sprintf("%s at byte %d is not a hex digit", excerpt.Quote(s[i:i+1]), i)
		}
	}
	return fmt.Sprintf("%d digits, an odd number", len(s))
}
