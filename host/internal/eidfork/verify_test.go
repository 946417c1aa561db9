package eidfork_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/fork"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/fixture"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// editPayload returns req with its base64url payload decoded, edited by
// edit and encoded again.
func editPayload(t *testing.T, req idop.Request, edit func(string) string) idop.Request {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(req.Payload)
	if err != nil {
		t.Fatalf("payload %.60s: %v", req.Payload, err)
	}
	if e := edit(string(b)); e != string(b) {
		req.Payload = base64.RawURLEncoding.EncodeToString([]byte(e))
		return req
	}
	t.Fatalf("the edit changed nothing in %.200s", b)
	return req
}

// TestImportRefusesEditedDIDs exports an EID follower of the recorded
// node, edits one operation of the file in each case (a document, a
// credential, an update's previousTxid, a signature), and requires the
// import to be refused with an error naming the DID or credential edited,
// the store left without a chain: the untouched file imports into it
// afterwards.
func TestImportRefusesEditedDIDs(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	db := mem.New()
	follow(t, up, db)
	exported, err := fixture.ExportEID(db, chain.DefaultDevSeed)
	if err != nil {
		t.Fatal(err)
	}
	// first returns the index of the first kept subject with an operation
	// of kind op, and that operation's index.
	first := func(op string) (int, int) {
		for i, k := range exported.DIDs {
			for j, o := range k.Ops {
				if o.Request.Header.Operation == op {
					return i, j
				}
			}
		}
		t.Fatalf("the export holds no %s", op)
		return 0, 0
	}
	cases := []struct {
		name string
		op   string
		edit func(idop.Request) idop.Request
		want string
	}{
		{"document", idop.Create, func(r idop.Request) idop.Request {
			return editPayload(t, r, func(s string) string { return strings.Replace(s, `"expires":"20`, `"expires":"21`, 1) })
		}, "signature"},
		{"credential", idop.Declare, func(r idop.Request) idop.Request {
			return editPayload(t, r, func(s string) string { return strings.Replace(s, `"issuanceDate":"20`, `"issuanceDate":"19`, 1) })
		}, "signature"},
		{"previousTxid", idop.Update, func(r idop.Request) idop.Request {
			r.Header.PreviousTxid = strings.Repeat("0", 64)
			return r
		}, "previous-txid"},
		{"signature", idop.Deactivate, func(r idop.Request) idop.Request {
			sig := []byte(r.Proof.Signature)
			sig[3] ^= 1
			r.Proof.Signature = string(sig)
			return r
		}, "signature"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			i, j := first(tc.op)
			f := *exported
			f.DIDs = append([]*fork.Kept(nil), exported.DIDs...)
			edited := *f.DIDs[i]
			edited.Ops = append([]fork.Op(nil), edited.Ops...)
			edited.Ops[j].Request = tc.edit(edited.Ops[j].Request)
			f.DIDs[i] = &edited

			var buf bytes.Buffer
			if _, err := f.WriteTo(&buf); err != nil {
				t.Fatal(err)
			}
			read, err := fixture.Parse(buf.Bytes())
			if err != nil {
				t.Fatal(err) // the checksum is the file's own: only the verification can tell
			}
			into := mem.New()
			err = fixture.Import(context.Background(), into, chain.Config{}, read)
			if err == nil || !strings.Contains(err.Error(), edited.DID+" does not verify") || !strings.Contains(strings.ToLower(err.Error()), tc.want) {
				t.Fatalf("importing the file with %s's %s edited: %v, want it refused naming it and %q", edited.DID, tc.op, err, tc.want)
			}
			if err := fixture.Import(context.Background(), into, chain.Config{}, exported); err != nil {
				t.Fatalf("the untouched file, after the refusal: %v", err)
			}
		})
	}
}
