package main

import (
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"
)

func TestParseNodeFlags(t *testing.T) {
	defaults := nodeConfig{dataDir: "./didlight-data", restAddr: "127.0.0.1:20334", rpcAddr: "127.0.0.1:20336", arbiters: 1, devSeed: "didlight", engine: "native"}
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
				arbiters: 3, devSeed: "s", demo: true, adminToken: "t", engine: "wasm", modulePath: "m.wasm"}
		}},
		{"single dash", []string{"-datadir", "/d"}, nil, func(c *nodeConfig) { c.dataDir = "/d" }},
		{"env", nil, map[string]string{"DIDLIGHT_DATADIR": "/e", "DIDLIGHT_REST_ADDR": ":9", "DIDLIGHT_BLOCK_TIME": "1m",
			"DIDLIGHT_DEMO": "true", "DIDLIGHT_ADMIN_TOKEN": "x", "DIDLIGHT_ARBITERS": "2", "DIDLIGHT_DEV_SEED": "q", "DIDLIGHT_RPC_ADDR": ":8"},
			func(c *nodeConfig) {
				c.dataDir, c.restAddr, c.rpcAddr, c.blockTime, c.demo, c.adminToken, c.arbiters, c.devSeed = "/e", ":9", ":8", time.Minute, true, "x", 2, "q"
			}},
		{"flag wins over env", []string{"--rest-addr", ":7"}, map[string]string{"DIDLIGHT_REST_ADDR": ":9"}, func(c *nodeConfig) { c.restAddr = ":7" }},
		{"mem from env", nil, map[string]string{"DIDLIGHT_MEM": "1"}, func(c *nodeConfig) { c.mem = true }},
		{"engine from env", nil, map[string]string{"DIDLIGHT_ENGINE": "wasm", "DIDLIGHT_MODULE": "/m"}, func(c *nodeConfig) { c.engine, c.modulePath = "wasm", "/m" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseNodeFlags(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			want := defaults
			tc.want(&want)
			if got != want {
				t.Errorf("got  %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestParseNodeFlagsRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{"--mem", "--datadir", "/d"}, nil, "--mem and --datadir exclude each other"},
		{[]string{"--mem"}, map[string]string{"DIDLIGHT_DATADIR": "/d"}, "--mem and --datadir exclude each other"},
		{[]string{"--datadir", ""}, nil, "--datadir is empty"},
		{[]string{"--block-time", "-1s"}, nil, "--block-time -1s is negative"},
		{[]string{"--block-time", "soon"}, nil, `invalid value "soon" for flag -block-time`},
		{[]string{"--arbiters", "0"}, nil, "--arbiters 0: want 1 to 64"},
		{[]string{"--arbiters", "65"}, nil, "--arbiters 65"},
		{[]string{"--dev-seed", ""}, nil, "--dev-seed is empty"},
		{[]string{"extra"}, nil, `unexpected argument "extra"`},
		{[]string{"--engine", "WASM"}, nil, `--engine "WASM": want native or wasm`},
		{nil, map[string]string{"DIDLIGHT_ENGINE": "js"}, `--engine "js"`},
		{[]string{"--nope"}, nil, "flag provided but not defined: -nope"},
		{nil, map[string]string{"DIDLIGHT_ARBITERS": "many"}, `DIDLIGHT_ARBITERS="many"`},
		{nil, map[string]string{"DIDLIGHT_MEM": "maybe"}, `DIDLIGHT_MEM="maybe"`},
	} {
		_, err := parseNodeFlags(tc.args, func(k string) string { return tc.env[k] }, io.Discard)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("args %q env %v: error %v, want one saying %q", tc.args, tc.env, err, tc.want)
		}
	}
}

func TestNodeHelpListsEveryFlagAndItsVariable(t *testing.T) {
	var out strings.Builder
	_, err := parseNodeFlags([]string{"-h"}, func(string) string { return "" }, &out)
	if !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("-h: error %v, want flag.ErrHelp", err)
	}
	for _, name := range []string{"mem", "datadir", "rest-addr", "rpc-addr", "block-time", "arbiters", "dev-seed", "demo", "admin-token"} {
		if !strings.Contains(out.String(), "--"+name+" ("+envName(name)+",") {
			t.Errorf("help does not list --%s with %s:\n%s", name, envName(name), out.String())
		}
	}
}
