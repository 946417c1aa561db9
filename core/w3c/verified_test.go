package w3c_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/core/w3c"
)

// A light client's answer, built from a resolvedid answer it verified, is
// the node's byte for byte but for the block heights a result does not
// give.
func TestResolveVerified(t *testing.T) {
	alice, a, b, c, next := newUser(t, "alice"), newUser(t, "a"), newUser(t, "b"), newUser(t, "c"), newUser(t, "next")
	var controllers []*did.Document
	for _, u := range []user{a, b, c, next} {
		controllers = append(controllers, u.document(t, t0.AddDate(5, 0, 0)))
	}
	docs := did.NewDocuments(controllers...)
	now := t0.AddDate(0, 0, 30)
	for _, tc := range []struct {
		name string
		h    *history
		ids  []string
	}{
		{"standard", standard(t, alice, 3, false, 365*24*time.Hour), []string{"", "#primary", "?service=hive&relativeRef=%2Fx", "?versionTime=2026-03-02T12:00:00Z", "?serviceType=LinkedDomains"}},
		{"deactivated", standard(t, newUser(t, "gone"), 1, true, 365*24*time.Hour), []string{"", "#hive"}},
		{"expired", standard(t, newUser(t, "late"), 0, false, time.Hour), []string{""}},
		{"transferred", transferred(t, a, b, c, next), []string{"", "#shop"}},
	} {
		result, err := resolve.Result(tc.h.subject, tc.h.entries, true, now.Unix())
		if err != nil {
			t.Fatal(err)
		}
		unnamed := *tc.h
		unnamed.entries = append([]resolve.Entry(nil), tc.h.entries...)
		for i := range unnamed.entries {
			unnamed.entries[i].Height = 0
		}
		for _, suffix := range tc.ids {
			for _, accept := range []string{"", w3c.MediaDIDJSON} {
				id := tc.h.subject.String() + suffix
				got, err := w3c.ResolveVerified(w3c.ParseRequest(id, "", accept), result, docs, keys.Native{}, now)
				if err != nil {
					t.Errorf("%s %s: %v", tc.name, id, err)
					continue
				}
				want := resolveRequest(t, &unnamed, w3c.Tip{Time: now.Unix()}, id, "", accept)
				node := resolveRequest(t, tc.h, w3c.Tip{Height: 500, Time: now.Unix()}, id, "", accept)
				if got.Status != want.Status || got.Location != want.Location || !bytes.Equal(got.Body, want.Body) || bytes.Contains(got.Body, []byte(`"height"`)) {
					t.Errorf("%s %s %q:\n verified %d %s\n want     %d %s", tc.name, id, accept, got.Status, got.Body, want.Status, want.Body)
				}
				if node.Status != got.Status || accept == "" && len(got.Body) > 0 && !bytes.Contains(node.Body, []byte(`"confirmations":`)) {
					t.Errorf("%s %s: the node answers %d %s", tc.name, id, node.Status, node.Body)
				}
			}
		}
	}

	h := standard(t, alice, 1, false, 365*24*time.Hour)
	all, _ := resolve.Result(alice.subject, h.entries, true, now.Unix())
	latest, _ := resolve.Result(alice.subject, h.entries, false, now.Unix())
	tampered := bytes.Replace(all, []byte(h.entries[0].Txid), []byte(strings.Repeat("0", 64)), 1)
	other := newUser(t, "other").subject.String()
	for _, tc := range []struct {
		name, id string
		result   []byte
		want     func(error) bool
	}{
		{"latest only", alice.subject.String(), latest, func(err error) bool { return errors.Is(err, w3c.ErrIncomplete) }},
		{"tampered", alice.subject.String(), tampered, func(err error) bool { _, ok := errors.AsType[*resolve.VerifyError](err); return ok }},
		{"another DID", other, all, func(err error) bool { return err != nil && strings.Contains(err.Error(), "not "+other) }},
		{"not JSON", alice.subject.String(), []byte("{"), func(err error) bool { return err != nil }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := w3c.ResolveVerified(w3c.ParseRequest(tc.id, "", ""), tc.result, nil, keys.Native{}, now); !tc.want(err) {
				t.Errorf("%s: %v", tc.name, err)
			}
		})
	}
	notFound := []byte(`{"did":"` + other + `","status":3}`)
	if resp, err := w3c.ResolveVerified(w3c.ParseRequest(other, "", ""), notFound, nil, keys.Native{}, now); err != nil || resp.Status != 404 {
		t.Errorf("not found: %v %d %s", err, resp.Status, resp.Body)
	}
	if resp, err := w3c.ResolveVerified(w3c.ParseRequest("did:web:x", "", ""), []byte("not read"), nil, keys.Native{}, now); err != nil || resp.Status != 501 {
		t.Errorf("a request refused before the result is read: %v %d", err, resp.Status)
	}
}
