package light

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/resolve"
)

// FuzzSpecResult checks the making of resolvedid's answer from any
// did_resolveDID answer against encoding/json: a result only from an
// object, its transaction member carried over as it was written (the last
// one, as encoding/json keeps), valid JSON out.
func FuzzSpecResult(f *testing.F) {
	for _, s := range []string{
		`{"did":"did:elastos:x","status":0,"transaction":[{"txid":"ab","timestamp":"2021-01-01T00:00:00Z","operation":{}}]}`,
		`{"did":"did:elastos:x","status":3}`,
		`{"transaction":[1],"transaction":[2]}`,
		`{"transaction":{}}`, `{"transaction":null}`, `[]`, `null`, `{`, `{"a":"\ud800"}`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	d, err := did.Parse("did:elastos:iop7hwsiP3uDuf5TjvZxGB44tUTvuj2vQS")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw []byte, status uint8) {
		st := resolve.Status(status % 4)
		out, err := specResult(d, raw, st)
		if err != nil {
			return
		}
		var want struct {
			Transaction json.RawMessage `json:"transaction"`
		}
		var got struct {
			DID         string          `json:"did"`
			Status      resolve.Status  `json:"status"`
			Transaction json.RawMessage `json:"transaction"`
		}
		if json.Unmarshal(raw, &want) != nil || json.Unmarshal(out, &got) != nil {
			t.Fatalf("%q made %q", raw, out)
		}
		if got.DID != d.String() || got.Status != st || (st != resolve.NotFound && !bytes.Equal(got.Transaction, want.Transaction)) ||
			(st == resolve.NotFound && got.Transaction != nil) {
			t.Fatalf("%q, status %d, made %q", raw, st, out)
		}
	})
}
