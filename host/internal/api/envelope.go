package api

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/wire"
)

// code is an error code of the node REST API. The values and their texts
// are those of the Elastos nodes (from Elastos.ELA servers/errors/errcode.go,
// ErrMap), so that clients written for them read ours.
type code int

const (
	unclassified       code = -1
	success            code = 0
	illegalDataFormat  code = 41003
	invalidMethod      code = 42001
	invalidParams      code = 42002
	invalidToken       code = 42003
	unknownTransaction code = 44001
	unknownBlock       code = 44003
	internalError      code = 45002
)

// desc returns the Desc text for c. The codes of transaction rules that a
// chain.RejectError carries (core/ledger) have their ELA texts too.
func (c code) desc() string {
	if d, ok := descs[c]; ok {
		return d
	}
	return "Unclassified error"
}

var descs = map[code]string{
	success:                        "Success",
	illegalDataFormat:              "Illegal Dataformat",
	invalidMethod:                  "Invalid method",
	invalidParams:                  "Invalid Params",
	invalidToken:                   "Verify token error",
	code(ledger.Malformed):         "Invalid transaction",
	unknownTransaction:             "Unknown BaseTransaction",
	unknownBlock:                   "Unknown Block",
	internalError:                  "Internal error",
	code(ledger.InvalidInput):      "INTERNAL ERROR, ErrInvalidInput",
	code(ledger.InvalidOutput):     "INTERNAL ERROR, ErrInvalidOutput",
	code(ledger.Balance):           "INTERNAL ERROR, ErrTransactionBalance",
	code(ledger.Signature):         "INTERNAL ERROR, ErrTransactionSignature",
	code(ledger.Payload):           "INTERNAL ERROR, ErrTransactionPayload",
	code(ledger.DoubleSpend):       "INTERNAL ERROR, ErrDoubleSpend",
	code(ledger.Duplicate):         "INTERNAL ERROR, ErrTransactionDuplicate",
	code(ledger.Size):              "INTERNAL ERROR, ErrTransactionSize",
	code(ledger.UnknownReferredTx): "INTERNAL ERROR, ErrUnknownReferredTx",
	code(ledger.ImmatureCoinbase):  "INTERNAL ERROR, ErrIneffectiveCoinbase",
	code(ledger.Locked):            "Error utxo locked",
	code(ledger.PoolFull):          "Error transactions size of transaction pool",
}

// restError is a failed REST request: its code and the detail that says
// which value was wrong. ELA puts that detail in Result, and the code's
// text there when it has none.
type restError struct {
	code   code
	detail string
}

func fail(c code, detail string) *restError { return &restError{code: c, detail: detail} }

// envelope is the REST answer, its error an ELA code.
type envelope = wire.RESTEnvelope[code, any]

// confirmEnvelope is the JSON-RPC style answer of the two confirm endpoints.
// On failure, error holds the ELA code and text as ELA's JSON-RPC server
// writes them ({"code","message"}) with the detail in data.
type confirmEnvelope struct {
	Error   *confirmError `json:"error"`
	ID      *struct{}     `json:"id"`
	JSONRPC string        `json:"jsonrpc"`
	Result  any           `json:"result"`
}

type confirmError struct {
	Code    code   `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

// writeREST writes result, or err, in the REST envelope. Failures are HTTP
// 200 with a non-zero Error, as ELA answers them.
func writeREST(w http.ResponseWriter, result any, err *restError) {
	e := envelope{Desc: success.desc(), Result: result}
	if err != nil {
		e = envelope{Desc: err.code.desc(), Error: err.code, Result: err.detail}
		if err.detail == "" {
			e.Result = e.Desc
		}
	}
	writeJSON(w, http.StatusOK, e)
}

// writeConfirm writes result, or err, in the confirm endpoints' envelope.
func writeConfirm(w http.ResponseWriter, result any, err *restError) {
	e := confirmEnvelope{JSONRPC: "2.0", Result: result}
	if err != nil {
		e.Error = &confirmError{Code: err.code, Message: err.code.desc(), Data: err.detail}
	}
	writeJSON(w, http.StatusOK, e)
}

// writeJSON writes v as the JSON body of a response with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		// Every value written here is built from plain fields; failing to
		// encode one is a bug, reported as such rather than half written.
		http.Error(w, "cannot encode the answer: "+err.Error(), http.StatusInternalServerError)
		return
	}
	writeBody(w, status, b)
}

// jsonType is the Content-Type of every JSON body, made once (see
// anyOrigin).
var jsonType = []string{"application/json; charset=utf-8"}

// writeBody writes a JSON body with status.
func writeBody(w http.ResponseWriter, status int, b []byte) {
	h := w.Header()
	h["Content-Type"] = jsonType
	h["Content-Length"] = []string{strconv.Itoa(len(b))}
	w.WriteHeader(status)
	w.Write(b)
}
