package eidnode

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"
)

func TestGenesisJSON(t *testing.T) {
	g := Genesis{ChainID: 7203, Period: 1, Signer: "0x71562B71999873DB5B286DF957AF199EC94617F7", MaxExpiredHeight: 6307200, GasLimit: 100_000_000}
	b, err := g.JSON()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Config     map[string]json.RawMessage
		Difficulty string
		GasLimit   string
		ExtraData  string
		Alloc      map[string]struct{ Balance string }
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, got, want string }{
		{"chainId", string(doc.Config["chainId"]), "7203"},
		{"clique", compact(doc.Config["clique"]), `{"period":1,"epoch":30000}`},
		{"customizeDIDHeight", string(doc.Config["customizeDIDHeight"]), "0"},
		{"oldDIDMigrateHeight", string(doc.Config["oldDIDMigrateHeight"]), "0"},
		{"docArraySortHeight", string(doc.Config["docArraySortHeight"]), "0"},
		{"checkCustomizeDIDBeginHeight", string(doc.Config["checkCustomizeDIDBeginHeight"]), "0"},
		{"maxExpiredHeight", string(doc.Config["maxExpiredHeight"]), "6307200"},
		{"pbftBlock", string(doc.Config["pbftBlock"]), ""},
		{"istanbulBlock", string(doc.Config["istanbulBlock"]), "0"},
		{"gasLimit", doc.GasLimit, "0x5f5e100"},
		{"extraData", doc.ExtraData, "0x" + strings.Repeat("00", 32) + "71562b71999873db5b286df957af199ec94617f7" + strings.Repeat("00", 65)},
		{"signer funded", doc.Alloc["0x71562b71999873db5b286df957af199ec94617f7"].Balance, "0x33b2e3c9fd0803ce8000000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.got != tc.want {
				t.Errorf("%s = %s, want %s", tc.name, tc.got, tc.want)
			}
		})
	}
}

func TestGenesisRefuses(t *testing.T) {
	ok := Genesis{ChainID: 7203, Signer: "0x71562b71999873db5b286df957af199ec94617f7"}
	for _, tc := range []struct {
		name string
		edit func(g *Genesis)
		want string
	}{
		{"mainnet's chain id", func(g *Genesis) { g.ChainID = 22 }, "chain id 22"},
		{"testnet's chain id", func(g *Genesis) { g.ChainID = 23 }, "chain id 23"},
		{"no chain id", func(g *Genesis) { g.ChainID = 0 }, "chain id 0"},
		{"short signer", func(g *Genesis) { g.Signer = "0x7156" }, `signer "0x7156"`},
		{"signer not hex", func(g *Genesis) { g.Signer = "0x" + strings.Repeat("zz", 20) }, "not an address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := ok
			tc.edit(&g)
			if _, err := g.JSON(); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

func compact(b []byte) string {
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		return err.Error()
	}
	return out.String()
}

func TestIsolated(t *testing.T) {
	lo := net.Interface{Name: "lo", Flags: net.FlagLoopback | net.FlagUp}
	for _, tc := range []struct {
		name string
		ifs  []net.Interface
		want string // "" for isolated
	}{
		{"loopback alone", []net.Interface{lo}, ""},
		{"nothing at all", nil, ""},
		{"an ethernet too", []net.Interface{lo, {Name: "eth0", Flags: net.FlagUp | net.FlagBroadcast}}, "this one has eth0"},
		{"a down interface counts", []net.Interface{lo, {Name: "wg0"}, {Name: "eth1"}}, "this one has wg0, eth1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := isolated(tc.ifs)
			if tc.want == "" {
				if err != nil {
					t.Errorf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrNotIsolated) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want ErrNotIsolated saying %q", err, tc.want)
			}
		})
	}
}
