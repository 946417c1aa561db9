package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store/mem"
)

func TestFollowFlags(t *testing.T) {
	for i, tc := range []struct {
		args []string
		env  map[string]string
		want string // the normalized URL, or the error
		ok   bool
	}{
		{[]string{"--mem", "--follow", "http://10.0.0.7:20334"}, nil, "http://10.0.0.7:20334/api/v1", true},
		{[]string{"--mem"}, map[string]string{"DIDLIGHT_FOLLOW": "https://node.example/api/v1/"}, "https://node.example/api/v1", true},
		{[]string{"--mem"}, nil, "", true},
		{[]string{"--follow", "10.0.0.7:20334"}, nil, `follow: upstream "10.0.0.7:20334" has no scheme`, false},
		{[]string{"--follow", "http://h:1/eid"}, nil, "http://h:1/eid", true}, // maybe an EID node's: asked at start (followsEID)
		{[]string{"--follow", "ftp://h:1/"}, nil, `scheme "ftp"`, false},
		{[]string{"--follow", "http://h:1", "--demo"}, nil, "--follow and --demo exclude each other", false},
		{[]string{"--follow", "http://h:1", "--block-time", "0"}, nil, "--follow and --block-time exclude each other", false},
		{[]string{"--block-time", "1s"}, map[string]string{"DIDLIGHT_FOLLOW": "http://h:1"}, "--follow and --block-time exclude each other", false},
		{[]string{"--follow", "http://h:1", "--arbiters", "2"}, nil, "--follow and --arbiters exclude each other", false},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			cfg, err := parseNodeFlags(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
			switch {
			case tc.ok && (err != nil || cfg.follow != tc.want):
				t.Errorf("args %q env %v: follow %q, %v; want %q", tc.args, tc.env, cfg.follow, err, tc.want)
			case !tc.ok && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("args %q env %v: error %v, want one saying %q", tc.args, tc.env, err, tc.want)
			}
		})
	}
}

// A follower of another dev seed's chain does not start, and says why.
func TestFollowOtherSeed(t *testing.T) {
	up, err := chain.Open(chain.Config{DB: mem.New()})
	if err != nil {
		t.Fatal(err)
	}
	defer up.Close()
	upstream, err := node.Start(up, node.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Stop()

	cfg, err := parseNodeFlags([]string{"--mem", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0", "--dev-seed", "mine", "--follow", upstream.RESTURL()}, func(string) string { return "" }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stop := context.WithTimeout(context.Background(), 10*time.Second)
	defer stop()
	var out bytes.Buffer
	err = serveNode(runCtx, cfg, &out, slog.New(slog.DiscardHandler))
	theirs, _ := up.BlockHash(0)
	if err == nil || !strings.Contains(err.Error(), theirs.String()) || !strings.Contains(err.Error(), "--dev-seed") {
		t.Fatalf("serveNode following another seed's chain: %v, want an error naming its genesis %s and --dev-seed", err, theirs)
	}
	if strings.Contains(out.String(), "ready") {
		t.Errorf("the node said it was ready:\n%s", out.String())
	}
}
