package eid

import (
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
)

// mainnetContract is the DID contract of mainnet (Elastos.DID.Java.SDK
// Network.java; the receipt of the mainnet vector is addressed to it).
const mainnetContract = "0x46e5936a9baa167b3368f4197edce746a66f7a7a"

// contractInput returns the input of a publishDidTransaction call with
// the operation's JSON, as web3 encodes it.
func contractInput(json []byte) []byte {
	b := append(PublishSelector[:0:0], PublishSelector[:]...)
	b = append(b, make([]byte, 64)...)
	b[4+31] = 32
	binary.BigEndian.PutUint64(b[4+56:], uint64(len(json)))
	b = append(b, json...)
	return append(b, make([]byte, (32-len(json)%32)%32)...)
}

// txAnswer writes an eth_getTransactionByHash response for r, in block
// from sender, to the mainnet DID contract.
func txAnswer(t testing.TB, r record, block uint64, from string) []byte {
	t.Helper()
	return marshal(t, map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{
		"blockHash":   "0x" + evmTxid("block"),
		"blockNumber": fmt.Sprintf("0x%x", block),
		"from":        strings.ToLower(from),
		"gas":         "0x2625a00",
		"hash":        "0x" + r.txid,
		"input":       "0x" + hex.EncodeToString(contractInput(r.req.AppendJSON(nil))),
		"nonce":       "0x1",
		"to":          mainnetContract,
		"value":       "0x0",
	}})
}

// migratedHistory is the history of a DID of the retired ID chain, as EID's
// migration window re-published it: a create whose document has no proof
// and an update naming the ID chain's transaction, both in June 2021; then,
// long after, an update of its owner that names the migrated update.
func migratedHistory(t testing.TB) (history, did.DID) {
	t.Helper()
	priv := privateKey(t, "user2.id.primary")
	june := time.Date(2021, 6, 18, 12, 0, 0, 0, time.UTC)
	doc := func(at time.Time, sign bool) *did.Document {
		d, err := did.NewDocument(priv.Public(), at.AddDate(5, 0, 0))
		if err != nil {
			t.Fatal(err)
		}
		def, _ := d.DefaultKey()
		if d, err = d.Sign(priv, def.ID, at); err != nil {
			t.Fatal(err)
		}
		if !sign {
			var m map[string]any
			if err := json.Unmarshal(d.Normalized(), &m); err != nil {
				t.Fatal(err)
			}
			delete(m, "proof")
			if d, err = did.ParseDocument(marshal(t, m)); err != nil {
				t.Fatal(err)
			}
		}
		return d
	}
	first, second, third := doc(june, false), doc(june.Add(time.Hour), true), doc(t0, true)
	subject := first.Subject()
	key := did.URL{DID: subject, Fragment: did.PrimaryKey}
	build := func(req idop.Request, err error) idop.Request {
		if err != nil {
			t.Fatal(err)
		}
		return req
	}
	h := history{
		{txid: evmTxid("migrated create"), at: june, req: build(idop.NewCreate(first, key, priv))},
		{txid: evmTxid("migrated update"), at: june.Add(time.Hour), req: build(idop.NewUpdate(second, evmTxid("an ID chain txid"), key, priv))},
	}
	h = append(h, record{txid: evmTxid("later update"), at: t0, req: build(idop.NewUpdate(third, h[1].txid, key, priv))})
	return h, subject
}

// parsedTx reads txAnswer's answer.
func parsedTx(t testing.TB, r record, block uint64, from string) *Transaction {
	t.Helper()
	tx, err := ParseTransaction(txAnswer(t, r, block, from))
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// Operations of the migration window are asked about, then reported as
// migrated when their block and sender are the window's, and refused as
// forged otherwise.
func TestVerifyDIDMigrated(t *testing.T) {
	h, subject := migratedHistory(t)
	answer := eidAnswer(t, h, subject.String(), true)
	req := Request{subject.String(), true}
	e := env(t)

	_, err := VerifyDID(answer, req, e)
	var need *NeedError
	if !errors.As(err, &need) || len(need.DIDs) != 0 || !slices.Equal(need.Txids, []string{h[0].txid, h[1].txid}) {
		t.Fatalf("first attempt: %v, want the two migrated transactions asked for", err)
	}

	inWindow := []*Transaction{parsedTx(t, h[0], 1200, migrationSender), parsedTx(t, h[1], 1201, migrationSender)}
	other := parsedTx(t, h[1], 1201, migrationSender)
	other.Request = h[2].req
	for _, tc := range []struct {
		name    string
		network Network
		txs     []*Transaction
		msg     string // of the refusal; "" for migrated
	}{
		{"in the window", Mainnet, inWindow, ""},
		{"after the window", Mainnet, []*Transaction{parsedTx(t, h[0], 34_561, migrationSender), inWindow[1]}, "which EID checked in full"},
		{"from another sender", Mainnet, []*Transaction{inWindow[0], parsedTx(t, h[1], 1201, "0x14b1cf2ceecfd04006a57dd060692758aa1ca330")}, "which EID checked in full"},
		{"on testnet, whose window ends at block 1", Testnet, inWindow, "which EID checked in full"},
		{"on a private chain", NetworkOf(1337), inWindow, "document has no proof"},
		{"a transaction carrying another operation", Mainnet, []*Transaction{inWindow[0], other}, "carries another operation"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e
			e.Network, e.Transactions = tc.network, tc.txs
			r, err := VerifyDID(answer, req, e)
			if tc.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("error %v, want one saying %q", err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Report.Outcome != OutcomeMigrated || !slices.Equal(r.Migrated, []string{h[1].txid, h[0].txid}) ||
				!slices.Contains(r.Report.Unchecked, UncheckedMigrated) || !slices.Contains(r.Report.Trusted, TrustedProvenance) {
				t.Errorf("migrated %v, report %+v", r.Migrated, r.Report)
			}
			if r.Document == nil || r.Txid != h[2].txid || !slices.Equal(r.Waivers, []resolve.Waiver{resolve.WaiveNone, resolve.WaiveMigrated, resolve.WaiveMigrated}) {
				t.Errorf("latest %s, waivers %v", r.Txid, r.Waivers)
			}
		})
	}
}

// What EID checked even in its window is checked without asking: a
// migrated operation with a broken signature is forged whatever its
// provenance, and so is a broken link stamped after the window.
func TestVerifyDIDMigrationRefusals(t *testing.T) {
	h, subject := migratedHistory(t)
	forged := slices.Clone(h)
	forged[0].req.Proof.Signature = forged[1].req.Proof.Signature
	late := slices.Clone(h)
	late[1].at = Mainnet.MigrationBefore.Add(time.Second)
	for _, tc := range []struct {
		name string
		h    history
		rule idop.Rule
	}{
		{"signature of a migrated create", forged, idop.RuleSignature},
		{"broken link after the window", late, idop.RulePreviousTxid},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := VerifyDID(eidAnswer(t, tc.h, subject.String(), true), Request{subject.String(), true}, env(t))
			var ve *resolve.VerifyError
			if !errors.As(err, &ve) || ve.Rule != tc.rule {
				t.Fatalf("error %v, want rule %s", err, tc.rule)
			}
		})
	}
}

// expiredCreate returns a standard DID's document that expired a month
// before at and the create publishing it, signed a year before at.
func expiredCreate(t *testing.T, at time.Time) (*did.Document, idop.Request) {
	t.Helper()
	priv := privateKey(t, "user3.id.primary")
	doc, err := did.NewDocument(priv.Public(), at.AddDate(0, -1, 0))
	if err != nil {
		t.Fatal(err)
	}
	def, _ := doc.DefaultKey()
	if doc, err = doc.Sign(priv, def.ID, at.AddDate(-1, 0, 0)); err != nil {
		t.Fatal(err)
	}
	req, err := idop.NewCreate(doc, def.ID, priv)
	if err != nil {
		t.Fatal(err)
	}
	return doc, req
}

// Until CustomizeDIDHeight EID did not check a standard DID's expiry: an
// operation publishing a document already expired is asked about, and
// verified without its expiry when its block is below that height.
func TestVerifyDIDEarlyExpiry(t *testing.T) {
	october := time.Date(2021, 10, 1, 0, 0, 0, 0, time.UTC)
	doc, req := expiredCreate(t, october)
	h := history{{txid: evmTxid("expired create"), at: october, req: req}}
	answer := eidAnswer(t, h, doc.Subject().String(), true)
	e := env(t)
	e.Now = october
	_, err := VerifyDID(answer, Request{doc.Subject().String(), true}, e)
	var need *NeedError
	if !errors.As(err, &need) || !slices.Equal(need.Txids, []string{h[0].txid}) {
		t.Fatalf("first attempt: %v, want the create asked for", err)
	}
	for _, tc := range []struct {
		name  string
		block uint64
		ok    bool
	}{
		{"below CustomizeDIDHeight", 2_000_000, true},
		{"at it", Mainnet.CustomizeDIDHeight, true},
		{"above it", Mainnet.CustomizeDIDHeight + 1, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := e
			e.Transactions = []*Transaction{parsedTx(t, h[0], tc.block, "0x14b1cf2ceecfd04006a57dd060692758aa1ca330")}
			r, err := VerifyDID(answer, Request{doc.Subject().String(), true}, e)
			if !tc.ok {
				var ve *resolve.VerifyError
				if !errors.As(err, &ve) || ve.Rule != idop.RuleExpired {
					t.Fatalf("error %v, want rule %s", err, idop.RuleExpired)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Report.Outcome != OutcomeVerified || !slices.Equal(r.Report.Unchecked, []Claim{UncheckedExpiry}) || len(r.Migrated) != 0 {
				t.Errorf("report %+v", r.Report)
			}
		})
	}
}
