package eid

import (
	"testing"
	"time"

	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
)

// Accept checks an operation as EID did in its block: in full, but for
// the migration window's creates and updates from its sender (signature
// only) and expired documents up to CustomizeDIDHeight.
func TestAccept(t *testing.T) {
	migrated, _ := migratedHistory(t)
	october := time.Date(2021, 10, 1, 0, 0, 0, 0, time.UTC)
	_, expired := expiredCreate(t, october)
	const sender, other = "0xfeca85ac94c1c9ef6e1293fc1f94486305420d7f", "0x14b1cf2ceecfd04006a57dd060692758aa1ca330"
	private := Network{ChainID: 7203}
	for _, tc := range []struct {
		name   string
		net    Network
		req    idop.Request
		prev   int // the index in migrated of the operation before, -1 for none
		at     Recorded
		waiver resolve.Waiver
		rule   idop.Rule // "" for accepted
	}{
		{"a create without proof, from the window's sender in it", Mainnet, migrated[0].req, -1, Recorded{Block: 100, Time: migrated[0].at, From: sender}, resolve.WaiveMigrated, ""},
		{"the same create after the window", Mainnet, migrated[0].req, -1, Recorded{Block: Mainnet.MigrationEnd + 1, Time: migrated[0].at, From: sender}, resolve.WaiveNone, idop.RuleDocProof},
		{"the same create from another sender", Mainnet, migrated[0].req, -1, Recorded{Block: 100, Time: migrated[0].at, From: other}, resolve.WaiveNone, idop.RuleDocProof},
		{"the same create on a chain with no window", private, migrated[0].req, -1, Recorded{Block: 1, Time: migrated[0].at, From: sender}, resolve.WaiveNone, idop.RuleDocProof},
		{"an update naming an ID chain txid, in the window", Mainnet, migrated[1].req, 0, Recorded{Block: 200, Time: migrated[1].at, From: sender}, resolve.WaiveMigrated, ""},
		{"the same update after it", Mainnet, migrated[1].req, 0, Recorded{Block: 40_000, Time: migrated[1].at, From: sender}, resolve.WaiveNone, idop.RulePreviousTxid},
		{"an update checked in full", Mainnet, migrated[2].req, 1, Recorded{Block: 50_000, Time: migrated[2].at, From: other}, resolve.WaiveNone, ""},
		{"an expired document below CustomizeDIDHeight", Mainnet, expired, -1, Recorded{Block: 2_000_000, Time: october, From: other}, resolve.WaiveExpiry, ""},
		{"an expired document at it", Mainnet, expired, -1, Recorded{Block: Mainnet.CustomizeDIDHeight, Time: october, From: other}, resolve.WaiveExpiry, ""},
		{"a second operation on the DID in its block", Mainnet, migrated[2].req, 1, Recorded{Block: 50_000, Time: migrated[2].at, From: other, Earlier: true}, resolve.WaiveNone, RuleSameBlock},
		{"an expired document above it", Mainnet, expired, -1, Recorded{Block: Mainnet.CustomizeDIDHeight + 1, Time: october, From: other}, resolve.WaiveNone, idop.RuleExpired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			op, err := idop.Decode(tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var st *idop.State
			if tc.prev >= 0 {
				prev, err := idop.Decode(migrated[tc.prev].req)
				if err != nil {
					t.Fatal(err)
				}
				st = &idop.State{Document: prev.Document, Txid: migrated[tc.prev].txid}
			}
			w, err := tc.net.Accept(op, st, nil, fetchedOf(), keys.Native{}, tc.at)
			if got := idop.RuleOf(err); got != tc.rule || w != tc.waiver {
				t.Errorf("waiver %s, error %v; want %s, rule %q", w, err, tc.waiver, tc.rule)
			}
		})
	}
}
