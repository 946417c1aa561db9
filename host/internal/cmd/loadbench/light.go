package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/eidtest/eidnode"
	"github.com/didlight/didlight/host/internal/eidtest/scenario"
)

// A light node (`didlight node --light`) is measured in front of an EID
// upstream: the recorded EID scenario's replay, served by this program
// (-light), or a live private EID node on which the scenario runs first
// (-eid-geth), which is then measured too, with the very requests the DID
// SDKs send it.

// upstream is the EID node a light node asks, and the DIDs the scenario
// made on it.
type upstream struct {
	url      string
	contract string   // the scenario's DID contract, which an EID follower must be given
	dids     []string // that exist
	live     []string // that exist and are not deactivated (W3C resolves them with 200)
	eid      *server  // the live EID node, measured too; nil for the replay
	stop     func()
}

// replayUpstream serves the recorded scenario's replay (its final
// checkpoint) on a loopback port of this process.
func replayUpstream() (*upstream, error) {
	h, m, err := eidtest.Handler(scenario.Final)
	if err != nil {
		return nil, fmt.Errorf("-light: the recorded EID scenario: %v (run loadbench from the repository's root)", err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(l)
	dids, live := created(m)
	return &upstream{url: "http://" + l.Addr().String() + "/", contract: m.Contract, dids: dids, live: live, stop: func() { srv.Close() }}, nil
}

// liveUpstream starts a private EID node with geth, which must run in a
// network namespace of its own ([eidnode.Start] refuses otherwise), and runs
// the scenario on it: two to three minutes.
func liveUpstream(ctx context.Context, geth, dir string, logw io.Writer) (*upstream, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	n, err := eidnode.Start(ctx, eidnode.Config{Geth: geth, Dir: dir})
	if err != nil {
		return nil, fmt.Errorf("-eid-geth: %w", err)
	}
	fmt.Fprintln(os.Stderr, "loadbench: running the EID scenario on a private EID node (a few minutes)")
	m, err := scenario.Run(ctx, n, scenario.Hooks{Log: func(format string, args ...any) { fmt.Fprintf(logw, format+"\n", args...) }})
	if err != nil {
		n.Stop()
		return nil, fmt.Errorf("-eid-geth: the scenario: %w", err)
	}
	eid := &server{name: "eid", pid: n.Pid(), halt: func() { n.Stop() }, urls: map[string]string{"JSON-RPC": n.URL}}
	dids, live := created(m)
	return &upstream{url: n.URL, contract: m.Contract, dids: dids, live: live, eid: eid, stop: eid.stop}, nil
}

// created lists the scenario's DIDs that exist at its end, and those of
// them not deactivated.
func created(m *scenario.Manifest) (dids, live []string) {
	for _, s := range m.DIDs {
		ops := m.Accepted(s.DID)
		if len(ops) == 0 {
			continue
		}
		dids = append(dids, s.DID)
		if ops[len(ops)-1].Operation != idop.Deactivate {
			live = append(live, s.DID)
		}
	}
	return dids, live
}

// startLight starts `didlight node --light` in front of up, without a
// request budget (the upstream is this machine's), on free loopback ports.
func startLight(ctx context.Context, bin string, up *upstream, logw io.Writer) (*server, error) {
	cmd := exec.Command(bin, "node", "--light", up.url, "--light-budget", "-1", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0")
	return startServer(ctx, "light", cmd, logw, func(l string) bool { return strings.HasPrefix(l, "ready") }, time.Minute)
}

// startFollower starts `didlight node --follow` of up, an EID follower
// indexing the upstream's chain in memory, without a request budget, on
// free loopback ports, and waits until it has synced up's head.
func startFollower(ctx context.Context, bin string, up *upstream, logw io.Writer) (*server, error) {
	cmd := exec.Command(bin, "node", "--follow", up.url, "--did-contract", up.contract, "--follow-budget", "-1", "--mem",
		"--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0")
	s, err := startServer(ctx, "eidf", cmd, logw, func(l string) bool { return strings.HasPrefix(l, "ready") }, time.Minute)
	if err != nil {
		return nil, err
	}
	if err := waitSynced(ctx, s.urls["REST API"], up.url); err != nil {
		s.stop()
		return nil, fmt.Errorf("eidf: %w", err)
	}
	return s, nil
}

// waitSynced waits, for a minute at most, until the follower whose REST
// API is at rest reports the height of the EID node at eidURL.
func waitSynced(ctx context.Context, rest, eidURL string) error {
	raw, err := post(ctx, eidURL, `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`)
	if err != nil {
		return err
	}
	var head struct{ Result string }
	if err := json.Unmarshal(raw, &head); err != nil {
		return fmt.Errorf("eth_blockNumber: %v: %.200s", err, raw)
	}
	want, err := strconv.ParseUint(strings.TrimPrefix(head.Result, "0x"), 16, 64)
	if err != nil {
		return fmt.Errorf("eth_blockNumber: %q", head.Result)
	}
	var got struct{ Result uint64 }
	for deadline := time.Now().Add(time.Minute); got.Result < want; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("at block %d after a minute, the EID node at %d", got.Result, want)
		}
		resp, err := http.Get(rest + "/block/height")
		if err != nil {
			return err
		}
		json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
	}
	return nil
}

// followerKinds are the request kinds of an EID follower, for the
// scenario's DIDs: did_resolveDID as the SDKs send it, resolvedid, and a
// query page, all answered from its index.
func followerKinds(dids []string) []kind {
	sdk := make([]string, len(dids))
	for i, d := range dids {
		sdk[i] = sdkBody(d)
	}
	query := `{"jsonrpc":"2.0","id":1,"method":"query","params":{"query":"{\"id\":{\"$exists\":true}}","skip":0,"limit":10}}`
	return []kind{
		{name: "eidf-did_resolveDID", server: "eidf", listener: "rpc", method: "POST", bodies: sdk, want: `"result":{"did"`},
		{name: "eidf-resolvedid", server: "eidf", listener: "rpc", method: "POST", bodies: resolveBodies(dids, true), want: `"status":`},
		{name: "eidf-query", server: "eidf", listener: "rpc", method: "POST", bodies: []string{query}, want: `"total":`},
	}
}

// sdkBody is did_resolveDID as the DID SDKs send it: no jsonrpc member, an
// id of 32 hex digits, the DID and all true in an array.
func sdkBody(did string) string {
	id := sha256.Sum256([]byte(did))
	return fmt.Sprintf(`{"id":%q,"method":"did_resolveDID","params":[{"did":%q,"all":true}]}`, hex.EncodeToString(id[:16]), did)
}

// lightKinds are the request kinds of a light node, for the scenario's
// DIDs: resolvedid and did_resolveDID answered from what it kept, and W3C
// resolution built from it; with eid, did_resolveDID sent to the EID node
// itself.
func lightKinds(dids, live []string, eid bool) []kind {
	sdk := make([]string, len(dids))
	for i, d := range dids {
		sdk[i] = sdkBody(d)
	}
	ks := []kind{
		{name: "light-resolvedid", server: "light", listener: "rpc", method: "POST", bodies: resolveBodies(dids, false), want: `"status":`},
		{name: "light-resolvedid-all", server: "light", listener: "rpc", method: "POST", bodies: resolveBodies(dids, true), want: `"status":`},
		{name: "light-did_resolveDID", server: "light", listener: "rpc", method: "POST", bodies: sdk, want: `"result":{"did"`},
		{name: "light-w3c", server: "light", listener: "root", method: "GET", path: "/1.0/identifiers/", paths: live, want: `"didResolutionMetadata":{"contentType"`},
	}
	if eid {
		ks = append(ks, kind{name: "eid-did_resolveDID", server: "eid", listener: "rpc", method: "POST", bodies: sdk, want: `"result":{"did"`})
	}
	return ks
}
