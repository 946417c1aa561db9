package ela

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// Test keys: the Elastos DID SDK's test keys from the shared vectors.
func testKey(t testing.TB, name string) *keys.PrivateKey {
	t.Helper()
	k, err := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/" + name + ".sk"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func testKeys(t testing.TB, names ...string) []*keys.PrivateKey {
	out := make([]*keys.PrivateKey, len(names))
	for i, n := range names {
		out[i] = testKey(t, n)
	}
	return out
}

// readHex reads a hex file from testdata.
func readHex(t testing.TB, name string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimSpace(string(readFile(t, name))))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return b
}

func readFile(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// viaJSON marshals v and unmarshals the text into a T, as a value crosses
// an API.
func viaJSON[T any](t testing.TB, v any) T {
	t.Helper()
	var out T
	text, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(text, &out)
	}
	if err != nil {
		t.Fatalf("through JSON: %v", err)
	}
	return out
}

func mustHash(t testing.TB, s string) Hash {
	t.Helper()
	h, err := ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// txDiff compares transactions, treating nil and empty slices alike (the
// decoder makes empty lists, hand-built values may leave them nil).
func txDiff(want, got any) string { return cmp.Diff(want, got, cmpopts.EquateEmpty()) }

// sampleTxs returns hand-built identity-chain transactions covering every
// payload type and payload version, with every list filled.
func sampleTxs(t testing.TB) map[string]*Tx {
	t.Helper()
	user := testKey(t, "user1.id.primary")
	addr := ToProgramHash(PrefixStandard, SingleKeyScript(user.Public(), OpCheckSig))
	base := func(p Payload, version byte) *Tx {
		return &Tx{
			PayloadVersion: version,
			Payload:        p,
			Attributes: []Attribute{
				{Usage: AttrNonce, Data: []byte("1234567890")},
				{Usage: AttrMemo, Data: []byte("memo")},
			},
			Inputs: []Input{{TxID: Hash{1, 2, 3}, Index: 1, Sequence: 0xfffffffe}},
			Outputs: []Output{
				{AssetID: ELAAssetID(), Value: 150_000_000, ProgramHash: addr},
				{AssetID: ELAAssetID(), Value: 1, OutputLock: 100, ProgramHash: ProgramHash{}},
			},
			LockTime: 7,
			Programs: []Program{{Code: SingleKeyScript(user.Public(), OpCheckSig), Parameter: append([]byte{0x40}, make([]byte, 64)...)}},
		}
	}
	return map[string]*Tx{
		"coinbase":      base(&CoinBase{Data: []byte("ELA miner")}, 4),
		"coinbase-bin":  base(&CoinBase{Data: []byte{0xff, 0x00, 0xc3}}, 4),
		"registerasset": base(&RegisterAsset{Asset: Asset{Name: "TOKEN", Description: "d", Precision: 4, AssetType: 1, RecordType: 1}, Amount: 21 * OneELA, Controller: addr}, 0),
		"transferasset": base(&TransferAsset{}, 0),
		"record":        base(&Record{Type: "note", Data: []byte{0, 1, 2}}, 0),
		"sidechainpow":  base(&SideChainPow{SideBlockHash: Hash{9}, SideGenesisHash: Hash{8}, BlockHeight: 42, Signature: []byte{1, 2}}, 0),
		"recharge-v0":   base(&RechargeToSideChain{MerkleProof: []byte{1}, MainChainTransaction: []byte{2, 3}}, RechargeVersionTx),
		"recharge-v1":   base(&RechargeToSideChain{MainChainTransactionHash: Hash{7}}, RechargeVersionHash),
		"crosschain": base(&TransferCrossChainAsset{Assets: []CrossChainAsset{
			{Address: "EbVKbGDWFmS83NQjC9Bwn1E8AcRmTAtacm", OutputIndex: 1, Amount: 99_990_000},
			{Address: "ETGJLEtN79oepAHAuKgUJjuwY7WvqsWHvf", OutputIndex: 300, Amount: 0},
		}}, 0),
		"did-create":   base(didOp("create", "", ""), 0),
		"did-update":   base(didOp("update", "896fde395ee59f2ebc054d315d94878f1ecd94ac35ff1e74ce68e834d9542e61", ""), 0),
		"did-transfer": base(didOp("transfer", "", "eyJpZCI6ImRpZDplbGFzdG9zOmZvb2JhciJ9"), 0),
		"did-deactivate": base(&Operation{
			Header:  OperationHeader{Specification: "elastos/did/1.0", Operation: "deactivate"},
			Payload: "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y",
			Proof:   OperationProof{VerificationMethod: "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y#primary", Signature: "c2ln"},
		}, 0),
	}
}

func didOp(op, previous, ticket string) *Operation {
	return &Operation{
		Header:  OperationHeader{Specification: "elastos/did/1.0", Operation: op, PreviousTxid: previous, Ticket: ticket},
		Payload: "eyJpZCI6ImRpZDplbGFzdG9zOmlYY1JoWUIzOGdNdDFwaGk1SkpNamVYTDJUTDhjZzU4eSJ9",
		Proof:   OperationProof{Type: "ECDSAsecp256r1", VerificationMethod: "#primary", Signature: "c2lnbmF0dXJl"},
	}
}
