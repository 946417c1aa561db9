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
func TestFollowRecordedDIDMethods(t *testing.T) {
	n, _ := startFollower(t)
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	compared := map[string]int{}
	for _, x := range rec.Checkpoints["final"] {
		var req struct{ Method string }
		if json.Unmarshal(x.Request, &req) != nil || !strings.HasPrefix(req.Method, "did_") {
			continue
		}
		t.Run(x.Note, func(t *testing.T) {
			resp, err := http.Post(n.RPCURL(), "application/json", bytes.NewReader(x.Request))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != x.Status || !eidtest.SameAnswer(got, x.Response) {
				t.Errorf("%s\n got %d %.600s\nwant %d %.600s", x.Request, resp.StatusCode, got, x.Status, x.Body())
			}
		})
		compared[req.Method]++
	}
	for _, m := range []string{"did_resolveDID", "did_resolveCredential", "did_listCredentials"} {
		if compared[m] < 5 {
			t.Errorf("compared %d answers of %s", compared[m], m)
		}
	}
}
