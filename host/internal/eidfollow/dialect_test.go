package eidfollow_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/eidtest"
)

// A follower of the recorded EID node answers every did_* request the node
// was sent at the last checkpoint (resolves, credential reads and lists,
// in the SDKs' form and in every other form the recorder tried: without the
// did:elastos: prefix, upper-cased, all a string, wrong params) with the
// body the node gave, byte for byte but for the id, which is the caller's.
// The one form answered otherwise, on purpose, is params given as the
// object itself: EID refuses it (non-array args), didlight serves both
// params forms (DESIGN.md) and answers it as the array holding it.
func TestFollowRecordedDIDMethods(t *testing.T) {
	n, _ := startFollower(t)
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	compared := map[string]int{}
	for _, x := range rec.Checkpoints["final"] {
		var req map[string]json.RawMessage
		var method string
		if json.Unmarshal(x.Request, &req) != nil || json.Unmarshal(req["method"], &method) != nil || !strings.HasPrefix(method, "did_") {
			continue
		}
		t.Run(x.Note, func(t *testing.T) {
			status, got := postRaw(t, n.RPCURL(), x.Request)
			want, wantStatus := x.Response, x.Status
			if params := bytes.TrimSpace(req["params"]); len(params) > 0 && params[0] == '{' {
				if !bytes.Contains(x.Response, []byte(`"non-array args"`)) {
					t.Fatalf("EID answered params an object with %s, not non-array args", x.Response)
				}
				req["params"] = append(append([]byte{'['}, params...), ']')
				asArray, _ := json.Marshal(req)
				wantStatus, want = postRaw(t, n.RPCURL(), asArray)
			}
			if status != wantStatus || !eidtest.SameAnswer(got, want) {
				t.Errorf("%s\n got %d %.600s\nwant %d %.600s", x.Request, status, got, wantStatus, want)
			}
		})
		compared[method]++
	}
	for _, m := range []string{"did_resolveDID", "did_resolveCredential", "did_listCredentials"} {
		if compared[m] < 5 {
			t.Errorf("compared %d answers of %s", compared[m], m)
		}
	}
}

// postRaw sends body to url and returns the answer's status and body.
func postRaw(t *testing.T, url string, body []byte) (int, []byte) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, got
}
