package wasmrt_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/w3c"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/store/mem"
	"github.com/didlight/didlight/wasm/abi"
)

// chainCase is a W3C request about a DID a chain made, with the chain's
// resolvedid answer (all=true) and its own W3C answer.
type chainCase struct {
	name   string
	input  abi.ResolveW3CInput
	server w3c.Response
	docs   did.Documents
}

var chainCases struct {
	once  sync.Once
	cases []chainCase
	err   error
}

// chainW3CCases makes histories on a chain (host/internal/chain, in memory, mining
// as requests arrive): a DID created then updated, one deactivated, one
// expired, and a customized DID of 2 of 3 controllers transferred to a
// fourth; and records, for several requests about each, the chain's
// resolvedid answer and its W3C answer. It runs once per process.
func chainW3CCases(t testing.TB) []chainCase {
	chainCases.once.Do(func() { chainCases.cases, chainCases.err = makeChainCases() })
	if chainCases.err != nil {
		t.Fatal(chainCases.err)
	}
	return chainCases.cases
}

// member is a standard DID of the chain's histories.
type member struct {
	priv    *keys.PrivateKey
	subject did.DID
	primary did.URL
}

func newMember(name string) member {
	h := sha256.Sum256([]byte("wasmrt chain " + name))
	k, _ := keys.NewPrivateKey(h[:])
	d := did.FromKey(k.Public())
	return member{k, d, did.URL{DID: d, Fragment: did.PrimaryKey}}
}

func (m member) document(expires time.Time, services ...did.Service) (*did.Document, error) {
	doc, err := did.NewDocument(m.priv.Public(), expires, services...)
	if err != nil {
		return nil, err
	}
	return doc.Sign(m.priv, m.primary, time.Now())
}

// customized is the signed document of a customized DID, controllers ctrls
// (m of them signing).
func customized(name string, m int, expires time.Time, ctrls ...member) (*did.Document, error) {
	ids := make([]string, len(ctrls))
	for i, c := range ctrls {
		ids[i] = c.subject.String()
	}
	members := map[string]any{"id": "did:elastos:" + name, "controller": ids, "expires": did.FormatTime(expires),
		"service": []any{map[string]any{"id": "#shop", "type": "Shop", "serviceEndpoint": "https://shop.example.org/"}}}
	if len(ctrls) > 1 {
		members["multisig"] = fmt.Sprintf("%d:%d", m, len(ctrls))
	}
	text, _ := json.Marshal(members)
	doc, err := did.ParseDocument(text)
	for _, c := range ctrls[:m] {
		if err == nil {
			doc, err = doc.Sign(c.priv, c.primary, time.Now())
		}
	}
	return doc, err
}

func makeChainCases() ([]chainCase, error) {
	c, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- c.Run(ctx) }()
	defer func() {
		cancel()
		<-ran
		c.Close()
	}()
	far := time.Now().AddDate(3, 0, 0)
	var errs []error
	submit := func(r idop.Request, err error) string {
		if err != nil {
			errs = append(errs, err)
			return ""
		}
		h, err := c.SubmitRequest(ctx, r)
		errs = append(errs, err)
		return h.String()
	}
	service := func(m member, fragment, typ string) did.Service {
		return did.NewService(did.URL{DID: m.subject, Fragment: fragment}, typ, "https://example.org/"+fragment+"/")
	}
	doc := func(d *did.Document, err error) *did.Document {
		errs = append(errs, err)
		return d
	}

	alice := newMember("alice")
	create := submit(idop.NewCreate(doc(alice.document(far, service(alice, "hive", "HiveVault"))), alice.primary, alice.priv))
	if _, err := devnet.IncreaseTime(c, 100*time.Second); err != nil {
		return nil, err
	}
	submit(idop.NewUpdate(doc(alice.document(far, service(alice, "hive", "HiveVault"), service(alice, "web", "LinkedDomains"))), create, alice.primary, alice.priv))

	gone := newMember("gone")
	submit(idop.NewCreate(doc(gone.document(far, service(gone, "inbox", "DIDCommMessaging"))), gone.primary, gone.priv))
	submit(idop.NewDeactivate(gone.subject, gone.primary, gone.priv))

	ctrl := []member{newMember("a"), newMember("b"), newMember("c"), newMember("next")}
	var ctrlDocs []*did.Document
	for _, m := range ctrl {
		d := doc(m.document(far))
		ctrlDocs = append(ctrlDocs, d)
		submit(idop.NewCreate(d, m.primary, m.priv))
	}
	multi := doc(customized("WasmCorp", 2, far, ctrl[0], ctrl[1], ctrl[2]))
	corpCreate := submit(idop.NewCreate(multi, ctrl[0].primary, ctrl[0].priv))
	ticket := did.NewTransferTicket(multi.Subject(), ctrl[3].subject, corpCreate).Sign(ctrl[1].priv, ctrl[1].primary, time.Now()).Sign(ctrl[2].priv, ctrl[2].primary, time.Now())
	submit(idop.NewTransfer(doc(customized("WasmCorp", 1, far, ctrl[3])), ticket, ctrl[3].primary, ctrl[3].priv))

	late := newMember("late")
	submit(idop.NewCreate(doc(late.document(time.Now().Add(time.Hour))), late.primary, late.priv))
	if _, err := devnet.IncreaseTime(c, 2*time.Hour); err != nil {
		return nil, err
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}

	_, _, tipTime := c.Tip()
	now := time.Unix(tipTime, 0).UTC()
	docs := did.NewDocuments(ctrlDocs...)
	var cases []chainCase
	for _, r := range []struct {
		subject did.DID
		ids     []string
	}{
		{alice.subject, []string{"", "#primary", "#web", "?versionId=" + create, "?versionTime=" + did.FormatTime(now.Add(-time.Hour)), "?service=web&relativeRef=%2Fa%2Fb%23c", "?serviceType=HiveVault"}},
		{gone.subject, []string{"", "#inbox"}},
		{late.subject, []string{""}},
		{multi.Subject(), []string{"", "?versionId=" + corpCreate, "#shop", "?service=shop"}},
	} {
		result, err := c.ResolveDID(context.Background(), r.subject, true)
		if err != nil {
			return nil, err
		}
		for _, suffix := range r.ids {
			for _, accept := range []string{"", w3c.MediaDIDJSON, w3c.MediaDereferencing} {
				id := r.subject.String() + suffix
				server, err := c.ResolveW3C(context.Background(), id, "", accept)
				if err != nil {
					return nil, err
				}
				cases = append(cases, chainCase{
					name:   fmt.Sprintf("chain %s %q", id, accept),
					input:  abi.ResolveW3CInput{Result: result, Now: now, DID: id, Accept: accept},
					server: server,
					docs:   docs,
				})
			}
		}
	}
	return cases, nil
}

// heights finds the block heights a light client's answer cannot give.
var heights = regexp.MustCompile(`,"height":\d+,"confirmations":\d+`)

// addChainW3C adds the chain's histories to the parity cases, so that
// native, wazero and Node answer them alike.
func addChainW3C(t testing.TB, cs *cases) {
	for _, c := range chainW3CCases(t) {
		cs.add(c.name, "resolve_w3c", abi.Env{Lookup: c.docs}, c.input)
	}
}

// The module's answer from a history a chain made, which it verifies, is
// the chain's own answer to the same request but for the block heights.
func TestResolveW3CFromChain(t *testing.T) {
	host, _ := runtimes(t)
	ctx := context.Background()
	for _, c := range chainW3CCases(t) {
		got, err := host.ResolveW3C(ctx, c.input, abi.Env{Lookup: c.docs})
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		want := heights.ReplaceAll(c.server.Body, nil)
		if got.Status != c.server.Status || got.ContentType != c.server.ContentType || got.Location != c.server.Location || !bytes.Equal(got.Body, want) {
			t.Errorf("%s:\n module %d %s %q %s\n chain  %d %s %q %s", c.name, got.Status, got.ContentType, got.Location, got.Body,
				c.server.Status, c.server.ContentType, c.server.Location, want)
		}
		if bytes.Contains(c.server.Body, []byte(`"method":{`)) && !heights.Match(c.server.Body) {
			t.Errorf("%s: the chain's answer names no block: %s", c.name, c.server.Body)
		}
	}
}
