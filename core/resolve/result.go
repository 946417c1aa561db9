package resolve

import (
	"strconv"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/jsontext"
)

// Result builds the resolvedid result object for d from its history (in
// any order): with all, every transaction newest first; without, the latest
// one, or for a deactivated DID the deactivate and then the transaction of
// the document it deactivated. tip is the block time of the chain tip (Unix
// seconds), against which expiry is judged. The status is in DialectSpec;
// see Dialect.Result for did_resolveDID's.
func Result(d did.DID, h []Entry, all bool, tip int64) ([]byte, error) {
	return result(DialectSpec, d, h, all, tip)
}

func result(dl Dialect, d did.DID, h []Entry, all bool, tip int64) ([]byte, error) {
	sorted := Sorted(h)
	status, latest, err := derive(sorted, tip)
	if err != nil {
		return nil, err
	}
	var txs []Entry
	switch {
	case status == NotFound:
	case all:
		txs = sorted
	case status == Deactivated:
		txs = []Entry{sorted[0], sorted[latest]}
	default:
		txs = sorted[:1]
	}
	return appendResult(nil, "did", d.String(), int(dl.Status(status)), txs), nil
}

// appendResult appends a resolve result object: the subject under key (did
// or id), the status, and the transactions, left out when there are none.
func appendResult(dst []byte, key, subject string, status int, txs []Entry) []byte {
	if dst == nil {
		dst = make([]byte, 0, resultSize(subject, txs))
	}
	dst = append(append(append(dst, `{"`...), key...), `":`...)
	dst = jsontext.JS.AppendString(dst, subject)
	dst = append(dst, `,"status":`...)
	dst = strconv.AppendInt(dst, int64(status), 10)
	if len(txs) > 0 {
		dst = append(dst, `,"transaction":[`...)
		for i, e := range txs {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendTransaction(dst, e)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// resultSize is about the size of a result, so that it is written
// without growing its buffer: the JSON syntax and the fixed members take
// less than 256 bytes per transaction.
func resultSize(subject string, txs []Entry) int {
	n := 64 + len(subject)
	for i := range txs {
		r := &txs[i].Request
		n += 256 + len(txs[i].Txid) + len(r.Header.PreviousTxid) + len(r.Header.Ticket) + len(r.Payload) +
			len(r.Proof.VerificationMethod) + len(r.Proof.Signature)
	}
	return n
}

func appendTransaction(dst []byte, e Entry) []byte {
	dst = append(dst, `{"txid":`...)
	dst = jsontext.JS.AppendString(dst, e.Txid)
	dst = append(dst, `,"timestamp":`...)
	dst = jsontext.JS.AppendString(dst, did.FormatTime(time.Unix(e.Time, 0)))
	dst = append(dst, `,"operation":`...)
	dst = e.Request.AppendJSON(dst)
	return append(dst, '}')
}
