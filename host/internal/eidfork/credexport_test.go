package eidfork_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
	"github.com/didlight/didlight/host/internal/fixture"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// credentialCalls are the did_resolveCredential and did_listCredentials
// requests the recorded EID node was sent at its last checkpoint, each
// with params as an array (EID refuses them given as the object, which
// didlight serves alike), and the node's answer to each.
func credentialCalls(t *testing.T) (requests [][]byte, answers [][]byte) {
	t.Helper()
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range rec.Checkpoints[scenario.Final] {
		var req map[string]json.RawMessage
		var method string
		if json.Unmarshal(x.Request, &req) != nil || json.Unmarshal(req["method"], &method) != nil ||
			method != "did_resolveCredential" && method != "did_listCredentials" {
			continue
		}
		if params := bytes.TrimSpace(req["params"]); len(params) > 0 && params[0] == '{' {
			continue // answered as the array holding it: the array's own exchange covers it
		}
		requests, answers = append(requests, x.Request), append(answers, x.Response)
	}
	if len(requests) < 10 {
		t.Fatalf("the recording holds %d credential requests", len(requests))
	}
	return requests, answers
}

// postRaw sends body to url and returns the answer's body.
func postRaw(t *testing.T, url string, body []byte) []byte {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// serveChain serves a devnet as a node does.
func serveChain(t *testing.T, c *chain.Chain) *node.Node {
	t.Helper()
	n, err := node.Start(c, node.Config{Run: func(ctx context.Context) error { <-ctx.Done(); return nil }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	return n
}

// sameCredentialAnswers sends every recorded credential request to url and
// requires the recorded node's answer, byte for byte but for the id.
func sameCredentialAnswers(t *testing.T, url string, requests, answers [][]byte) {
	t.Helper()
	for i, req := range requests {
		if got := postRaw(t, url, req); !eidtest.SameAnswer(got, answers[i]) {
			t.Errorf("%s\n got %.600s\nwant %.600s", req, got, answers[i])
		}
	}
}

// TestExportCredentials exports an EID follower of the recorded node, and
// a fork of it that took every DID's credentials and every credential of
// the scenario, loads
// each in a new devnet, and requires every did_resolveCredential and
// did_listCredentials the node was sent to be answered there as the node
// answered it.
func TestExportCredentials(t *testing.T) {
	up, _ := upstream(t, scenario.Final)
	requests, answers := credentialCalls(t)
	t.Run("follower", func(t *testing.T) {
		db := mem.New()
		follow(t, up, db)
		f, err := fixture.ExportEID(db, chain.DefaultDevSeed)
		if err != nil {
			t.Fatal(err)
		}
		sameCredentialAnswers(t, serveChain(t, roundTrip(t, f)).RPCURL(), requests, answers)
	})
	t.Run("fork", func(t *testing.T) {
		fk := newFork(t, mem.New(), up.URL, headOf(t, up.Manifest, scenario.Final), -1)
		for _, x := range up.Manifest.DIDs {
			if err := fk.f.EnsureCredentials(context.Background(), didOf(t, up.Manifest, x.Name)); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range up.Manifest.Credentials {
			id, err := did.ParseURL(c.ID, did.DID{})
			if err != nil {
				t.Fatal(err)
			}
			if err := fk.f.EnsureCredential(context.Background(), id); err != nil {
				t.Fatal(err)
			}
		}
		f, err := fixture.Export(fk.c)
		if err != nil {
			t.Fatal(err)
		}
		sameCredentialAnswers(t, serveChain(t, roundTrip(t, f)).RPCURL(), requests, answers)
	})
}
