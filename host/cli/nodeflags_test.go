package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseNodeFlags(t *testing.T) {
	defaults := nodeConfig{dataDir: "./didlight-data", restAddr: "127.0.0.1:20334", rpcAddr: "127.0.0.1:20336", arbiters: 1, devSeed: "didlight", engine: "native", mapBudgetMB: 128,
		light:   lightConfig{cacheMB: 64, poll: 2 * time.Second, budget: 10, timeout: 10 * time.Second},
		service: serviceConfig{readyMaxLag: 5, rateLimit: 50, rateBurst: 100}}
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		want func(c *nodeConfig)
	}{
		{"defaults", nil, nil, func(*nodeConfig) {}},
		{"every flag", []string{"--mem", "--rest-addr", ":1", "--rpc-addr=:2", "--block-time", "2s", "--arbiters", "3",
			"--dev-seed", "s", "--demo", "--admin-token", "t", "--engine", "wasm", "--module", "m.wasm"}, nil, func(c *nodeConfig) {
			*c = nodeConfig{mem: true, dataDir: "./didlight-data", restAddr: ":1", rpcAddr: ":2", blockTime: 2 * time.Second,
				arbiters: 3, devSeed: "s", demo: true, adminToken: "t", engine: "wasm", modulePath: "m.wasm", warnings: []string{tokenWarning}, mapBudgetMB: 128,
				light: defaults.light, service: defaults.service}
		}},
		{"single dash", []string{"-datadir", "/d"}, nil, func(c *nodeConfig) { c.dataDir = "/d" }},
		{"env", nil, map[string]string{"DIDLIGHT_DATADIR": "/e", "DIDLIGHT_REST_ADDR": ":9", "DIDLIGHT_BLOCK_TIME": "1m",
			"DIDLIGHT_DEMO": "true", "DIDLIGHT_ADMIN_TOKEN": "x", "DIDLIGHT_ARBITERS": "2", "DIDLIGHT_DEV_SEED": "q", "DIDLIGHT_RPC_ADDR": ":8"},
			func(c *nodeConfig) {
				c.dataDir, c.restAddr, c.rpcAddr, c.blockTime, c.demo, c.adminToken, c.arbiters, c.devSeed = "/e", ":9", ":8", time.Minute, true, "x", 2, "q"
			}},
		{"flag wins over env", []string{"--rest-addr", ":7"}, map[string]string{"DIDLIGHT_REST_ADDR": ":9"}, func(c *nodeConfig) { c.restAddr = ":7" }},
		{"map budget", []string{"--map-budget", "0"}, nil, func(c *nodeConfig) { c.mapBudgetMB = 0 }},
		{"map budget from env", nil, map[string]string{"DIDLIGHT_MAP_BUDGET": "512"}, func(c *nodeConfig) { c.mapBudgetMB = 512 }},
		{"ready max lag", []string{"--ready-max-lag", "0"}, nil, func(c *nodeConfig) { c.service.readyMaxLag = 0 }},
		{"service", []string{"--no-metrics", "--no-compress", "--cache-max-age", "30s"}, nil, func(c *nodeConfig) {
			c.service.noMetrics, c.service.noCompress, c.service.cacheMaxAge = true, true, 30*time.Second
		}},
		{"rate limit", []string{"--rate-limit", "2.5", "--rate-burst", "5", "--rate-limit-loopback", "--trusted-proxy", "10.0.0.7", "--trusted-proxy=fd00::/8,192.168.1.9/24"}, nil, func(c *nodeConfig) {
			c.service.rateLimit, c.service.rateBurst, c.service.rateLoop = 2.5, 5, true
			c.service.proxies.prefixes = []string{"10.0.0.7/32", "fd00::/8", "192.168.1.0/24"}
		}},
		{"trusted proxies from env", nil, map[string]string{"DIDLIGHT_TRUSTED_PROXY": "172.18.0.0/16", "DIDLIGHT_RATE_LIMIT": "0"}, func(c *nodeConfig) {
			c.service.proxies, c.service.rateLimit = proxyList{prefixes: []string{"172.18.0.0/16"}, fromEnv: true}, 0
		}},
		{"ready max lag from env", nil, map[string]string{"DIDLIGHT_READY_MAX_LAG": "20"}, func(c *nodeConfig) { c.service.readyMaxLag = 20 }},
		{"mem from env", nil, map[string]string{"DIDLIGHT_MEM": "1"}, func(c *nodeConfig) { c.mem = true }},
		{"genesis time", []string{"--genesis-time", "2025-06-01T12:00:00.9+02:00"}, nil, func(c *nodeConfig) {
			c.genesisTime = time.Date(2025, 6, 1, 10, 0, 0, 0, time.UTC)
		}},
		{"genesis time from env", nil, map[string]string{"DIDLIGHT_GENESIS_TIME": "2025-06-01T00:00:00Z"}, func(c *nodeConfig) {
			c.genesisTime = time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
		}},
		{"engine from env", nil, map[string]string{"DIDLIGHT_ENGINE": "wasm", "DIDLIGHT_MODULE": "/m"}, func(c *nodeConfig) { c.engine, c.modulePath = "wasm", "/m" }},
		{"a token on the command line is warned about", []string{"--admin-token=t"}, nil, func(c *nodeConfig) {
			c.adminToken, c.warnings = "t", []string{tokenWarning}
		}},
		{"origins repeated", []string{"--cors-origin", "http://localhost:3000", "--cors-origin=HTTPS://App.Example:443/"}, nil, func(c *nodeConfig) {
			c.corsOrigins.origins = []string{"http://localhost:3000", "https://app.example"}
		}},
		{"origins from env", nil, map[string]string{"DIDLIGHT_CORS_ORIGIN": "http://a.example, http://b.example:8080"}, func(c *nodeConfig) {
			c.corsOrigins = originList{origins: []string{"http://a.example", "http://b.example:8080"}, fromEnv: true}
		}},
		{"light", []string{"--light", "mainnet", "--light-cache", "8", "--light-poll", "500ms", "--light-budget", "-1", "--light-timeout", "3s"}, nil, func(c *nodeConfig) {
			c.light = lightConfig{endpoints: endpointList{urls: []string{"mainnet"}}, cacheMB: 8, poll: 500 * time.Millisecond, budget: -1, timeout: 3 * time.Second}
		}},
		{"light endpoints repeated", []string{"--light", "http://127.0.0.1:20636", "--light=http://10.0.0.2:20636,http://10.0.0.3:20636"}, nil, func(c *nodeConfig) {
			c.light.endpoints.urls = []string{"http://127.0.0.1:20636", "http://10.0.0.2:20636", "http://10.0.0.3:20636"}
		}},
		{"light from env, as the Docker image takes it", nil, map[string]string{"DIDLIGHT_LIGHT": "testnet", "DIDLIGHT_DATADIR": "/data", "DIDLIGHT_REQUIRE_UPSTREAM": "true"}, func(c *nodeConfig) {
			c.light.endpoints, c.dataDir, c.requireUpstream = endpointList{urls: []string{"testnet"}, fromEnv: true}, "/data", true
		}},
		{"an upstream required, and followed", []string{"--require-upstream", "--follow", "http://127.0.0.1:20334"}, nil, func(c *nodeConfig) {
			c.requireUpstream, c.follow, c.eidFollow.url = true, "http://127.0.0.1:20334/api/v1", "http://127.0.0.1:20334"
		}},
		{"origins on the command line replace env's", []string{"--cors-origin", "http://c.example"}, map[string]string{"DIDLIGHT_CORS_ORIGIN": "http://a.example"}, func(c *nodeConfig) {
			c.corsOrigins.origins = []string{"http://c.example"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseNodeFlags(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			want := defaults
			tc.want(&want)
			if diff := cmp.Diff(want, got, cmp.AllowUnexported(nodeConfig{}, originList{}, lightConfig{}, endpointList{}, eidFollowConfig{}, serviceConfig{}, proxyList{})); diff != "" {
				t.Errorf("config (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseNodeFlagsRefuses(t *testing.T) {
	for i, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--mem", "--datadir", "/d"}, nil, "--mem and --datadir exclude each other"},
		{[]string{"--mem"}, map[string]string{"DIDLIGHT_DATADIR": "/d"}, "--mem and --datadir exclude each other"},
		{[]string{"--datadir", ""}, nil, "--datadir is empty"},
		{[]string{"--block-time", "-1s"}, nil, "--block-time -1s is negative"},
		{[]string{"--block-time", "soon"}, nil, `invalid value "soon" for flag -block-time`},
		{[]string{"--no-mining", "--block-time", "1s"}, nil, "--no-mining and --block-time exclude each other"},
		{[]string{"--block-time", "0"}, map[string]string{"DIDLIGHT_NO_MINING": "true"}, "--no-mining and --block-time exclude each other"},
		{[]string{"--no-mining", "--follow", "http://127.0.0.1:20334"}, nil, "--no-mining and --follow exclude each other"},
		{[]string{"--arbiters", "0"}, nil, "--arbiters 0: want 1 to 64"},
		{[]string{"--map-budget", "-1"}, nil, "--map-budget -1 is negative"},
		{[]string{"--cache-max-age", "-5s"}, nil, "--cache-max-age -5s is negative"},
		{[]string{"--rate-limit", "-1"}, nil, "--rate-limit -1: want requests a second"},
		{[]string{"--rate-burst", "0"}, nil, "--rate-burst 0: want 1 or more"},
		{[]string{"--trusted-proxy", "lb.internal"}, nil, `trusted proxy "lb.internal"`},
		{[]string{"--ready-max-lag", "-1"}, nil, "invalid value"},
		{[]string{"--map-budget", "1G"}, nil, "invalid value \"1G\" for flag -map-budget"},
		{[]string{"--arbiters", "65"}, nil, "--arbiters 65"},
		{[]string{"--dev-seed", ""}, nil, "--dev-seed is empty"},
		{[]string{"extra"}, nil, `unexpected argument "extra"`},
		{[]string{"--genesis-time", "2025-06-01"}, nil, `invalid value "2025-06-01" for flag -genesis-time: not an RFC 3339 time: want one such as 2025-06-01T00:00:00Z`},
		{[]string{"--genesis-time", "1960-01-01T00:00:00Z"}, nil, "genesis time -315619200 is out of range: want a time after 1970-01-01T00:00:00Z and before 2106-02-07T06:28:15Z"},
		{nil, map[string]string{"DIDLIGHT_GENESIS_TIME": "now"}, `DIDLIGHT_GENESIS_TIME="now": not an RFC 3339 time`},
		{[]string{"--engine", "WASM"}, nil, `--engine "WASM": want native or wasm`},
		{nil, map[string]string{"DIDLIGHT_ENGINE": "js"}, `--engine "js"`},
		{[]string{"--nope"}, nil, "flag provided but not defined: -nope"},
		{nil, map[string]string{"DIDLIGHT_ARBITERS": "many"}, `DIDLIGHT_ARBITERS="many"`},
		{nil, map[string]string{"DIDLIGHT_MEM": "maybe"}, `DIDLIGHT_MEM="maybe"`},
		{[]string{"--cors-origin", "localhost:3000"}, nil, "want http:// or https://"},
		{[]string{"--cors-origin", "*"}, nil, "want http:// or https://"},
		{[]string{"--cors-origin", "http://a.example/app"}, nil, "without a path"},
		{nil, map[string]string{"DIDLIGHT_CORS_ORIGIN": "http://a.example,null"}, `DIDLIGHT_CORS_ORIGIN`},
		{[]string{"--admin-token-file", "/nonexistent/token"}, nil, "--admin-token-file: open /nonexistent/token"},
		{[]string{"--admin-token", "t", "--admin-token-file", "/x"}, nil, "exclude each other"},
		{[]string{"--light", "mainnet", "--follow", "http://127.0.0.1:20334"}, nil, "--light and --follow exclude each other: a light node has no chain of its own"},
		{[]string{"--light", "mainnet", "--demo"}, nil, "--light and --demo exclude each other"},
		{[]string{"--light", "mainnet"}, map[string]string{"DIDLIGHT_ENGINE": "wasm"}, "--light and --engine exclude each other"},
		{[]string{"--light", "mainnet,testnet"}, nil, "--light"},
		{[]string{"--light", "ftp://node.example"}, nil, `invalid value "ftp://node.example" for flag -light: eid: endpoint "ftp://node.example": scheme "ftp"`},
		{[]string{"--light-cache", "8"}, nil, "--light-cache needs --light"},
		{[]string{"--light", "mainnet", "--light-cache", "0"}, nil, "--light-cache 0: want 1 MB or more"},
		{[]string{"--light", "mainnet", "--light-budget", "0"}, nil, "--light-budget 0"},
		{[]string{"--light", "mainnet", "--light-poll", "1ms"}, nil, "--light-poll 1ms"},
		{[]string{"--light", "mainnet", "--light-timeout", "10ms"}, nil, "--light-timeout 10ms"},
		{[]string{"--require-upstream"}, nil, "--require-upstream: give --follow URL"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, err := parseNodeFlags(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("args %q env %v: error %v, want one saying %q", tc.args, tc.env, err, tc.want)
			}
		})
	}
}

func TestNodeHelpListsEveryFlagAndItsVariable(t *testing.T) {
	var out strings.Builder
	_, err := parseNodeFlags([]string{"-h"}, func(string) string { return "" }, &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: error %v, want flag.ErrHelp", err)
	}
	for _, name := range []string{"mem", "datadir", "rest-addr", "rpc-addr", "block-time", "arbiters", "dev-seed", "demo", "admin-token", "admin-token-file", "cors-origin"} {
		if !strings.Contains(out.String(), "--"+name+" ("+envName(name)+",") {
			t.Errorf("help does not list --%s with %s:\n%s", name, envName(name), out.String())
		}
	}
}

// The admin token can be read from a file (its first line, trimmed), also
// named by the variable; a file other users can read is warned about, and
// an empty one refused.
func TestAdminTokenFile(t *testing.T) {
	dir := t.TempDir()
	private, open, empty := filepath.Join(dir, "private"), filepath.Join(dir, "open"), filepath.Join(dir, "empty")
	for name, f := range map[string]struct {
		text string
		mode os.FileMode
	}{private: {" s3cret \nignored\n", 0o600}, open: {"t2", 0o644}, empty: {"\n", 0o600}} {
		if err := os.WriteFile(name, []byte(f.text), f.mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(name, f.mode) // whatever the umask
	}
	parse := func(args []string, env map[string]string) (nodeConfig, error) {
		return parseNodeFlags(args, func(k string) string { return env[k] }, io.Discard)
	}
	if c, err := parse([]string{"--admin-token-file", private}, nil); err != nil || c.adminToken != "s3cret" || len(c.warnings) != 0 {
		t.Errorf("private file: token %q, warnings %q, %v", c.adminToken, c.warnings, err)
	}
	if c, err := parse(nil, map[string]string{"DIDLIGHT_ADMIN_TOKEN_FILE": open}); err != nil || c.adminToken != "t2" || len(c.warnings) != 1 || !strings.Contains(c.warnings[0], "chmod 600") {
		t.Errorf("file others can read: token %q, warnings %q, %v", c.adminToken, c.warnings, err)
	}
	if _, err := parse([]string{"--admin-token-file", empty}, nil); err == nil || !strings.Contains(err.Error(), "first line is empty") {
		t.Errorf("empty file: %v", err)
	}
	if c, err := parse(nil, map[string]string{"DIDLIGHT_ADMIN_TOKEN": "env"}); err != nil || c.adminToken != "env" || len(c.warnings) != 0 {
		t.Errorf("token from the variable: %q, warnings %q, %v; want no warning", c.adminToken, c.warnings, err)
	}
}
