package ela

// Tests against data from outside this package. Sources of testdata/:
//
//   - idchain-did-update-tx.hex: a signed DID update transaction of the
//     identity chain, from github.com/elastos/Elastos.ELA.SideChain.ID
//     mempool/validator_test.go (TestGenrateTxFromRawTxStr), commit bf715ab.
//   - token-transfer-tx.hex: a signed TransferAsset of the token side chain
//     (same transaction format), from github.com/zhangml123/Elastos.ORG.Developer
//     "Public/developerdoc/Ignore/Doc/Elastos Node API Interface.md"
//     (getrawtransaction, token column), commit 52442d0; the same document's
//     getrawmempool answer gives its txid.
//   - didchain-transfer-txs.json: two TransferAsset objects as a DID side
//     chain node's API showed them (same document, getrawtransaction and
//     getrawmempool, did column; transcribed from Python repr to JSON).
//   - sidechain-block-headers.json: block 1 of the DID, token and NEO side
//     chains as their nodes showed it, AuxPow included (same document,
//     getblock).
//
// The identity chain's mainnet genesis hash is checkpoint 0 of the ID chain
// in github.com/elastos/Elastos SPV.CPP/SDK/Wrapper/ChainParams.cpp, and its
// cross-chain address the IDChain GenesisAddress in the same SDK's
// MasterWalletManager documentation.

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/didlight/didlight/core/keys"
)

func TestELAAssetRegistration(t *testing.T) {
	// Written out by hand from the wire format: type 0x01, payload version 0,
	// name "ELA", empty description, precision 8, asset type 0, record type 0,
	// amount 0, zero controller, no attributes/inputs/outputs, lock time 0,
	// no programs.
	b, _ := hex.DecodeString("0100" + "03454c41" + "00" + "08" + "00" + "00" +
		"0000000000000000" + "000000000000000000000000000000000000000000" +
		"00" + "00" + "00" + "00000000" + "00")
	tx, err := ParseTx(b)
	if err != nil {
		t.Fatal(err)
	}
	const want = "a3d0eaa466df74983b5d7c543de6904f4c9418ead5ffd6d25814234a96db37b0"
	if got := tx.Hash().String(); got != want {
		t.Errorf("hash of the ELA registration = %s, want %s", got, want)
	}
	if got := ELAAssetID().String(); got != want {
		t.Errorf("ELAAssetID() = %s, want %s", got, want)
	}
	if !bytes.Equal(ELAAsset().Bytes(), b) {
		t.Errorf("ELAAsset().Bytes() = %x, want %x", ELAAsset().Bytes(), b)
	}
}

func TestGenesisBlock(t *testing.T) {
	g := GenesisBlock()
	if got, want := g.Hash().String(), "56be936978c261b2e649d58dbfaf3f23d4a868274f5522cd2adb4308a955c4a3"; got != want {
		t.Errorf("genesis hash %s, want %s", got, want)
	}
	if g.MerkleRoot() != g.Header.MerkleRoot {
		t.Errorf("genesis Merkle root %s, header says %s", g.MerkleRoot(), g.Header.MerkleRoot)
	}
	parsed, err := ParseBlock(g.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if diff := txDiff(g, parsed); diff != "" {
		t.Errorf("genesis block round trip (-built +parsed):\n%s", diff)
	}
	// The main chain's deposit address of the identity chain.
	h := g.Hash()
	if got := ToProgramHash(PrefixCrossChain, CrossChainScript(h)).Address(); got != "XKUh4GLhFJiqAMTF6HyWQrV9pK9HcGUdfJ" {
		t.Errorf("cross-chain address of the genesis block %s, want XKUh4GLhFJiqAMTF6HyWQrV9pK9HcGUdfJ", got)
	}
}

func TestRealTransactions(t *testing.T) {
	for _, tc := range []struct {
		file, txid string
		typ        TxType
	}{
		{"idchain-did-update-tx.hex", "", TxDIDOperation},
		{"token-transfer-tx.hex", "8e483e36fb6519ab2f74ca8abdbf773cd379fc8b97f48745602737d988cbf23e", TxTransferAsset},
	} {
		t.Run(tc.file, func(t *testing.T) {
			raw := readHex(t, tc.file)
			tx, err := ParseTx(raw)
			if err != nil {
				t.Fatal(err)
			}
			if tx.Type() != tc.typ {
				t.Errorf("type %v, want %v", tx.Type(), tc.typ)
			}
			if !bytes.Equal(tx.Bytes(), raw) {
				t.Error("Bytes() differs from the decoded input")
			}
			if tc.txid != "" && tx.Hash().String() != tc.txid {
				t.Errorf("txid %s, want %s", tx.Hash(), tc.txid)
			}
			// Each input spends an output of the program's own address; the
			// chain accepted the signature, so it must verify over
			// UnsignedBytes.
			referenced := []ProgramHash{ToProgramHash(PrefixStandard, tx.Programs[0].Code)}
			if err := tx.VerifyPrograms(referenced, keys.Native{}); err != nil {
				t.Errorf("VerifyPrograms: %v", err)
			}
			checkJSONRoundTrip(t, tx, raw)
		})
	}
}

// checkJSONRoundTrip converts tx to its REST object, through JSON text, and
// back, and wants the original bytes.
func checkJSONRoundTrip(t *testing.T, tx *Tx, raw []byte) {
	t.Helper()
	j := viaJSON[TxJSON](t, tx.JSON(TxContext{BlockHash: Hash{1}, Confirmations: 3, BlockTime: 1600000000}))
	back, err := j.Tx()
	if err != nil {
		t.Fatalf("TxJSON.Tx: %v", err)
	}
	if !bytes.Equal(back.Bytes(), raw) {
		t.Errorf("JSON round trip changed the bytes:\n got %x\nwant %x", back.Bytes(), raw)
	}
}

func TestRealTransactionJSON(t *testing.T) {
	var objects []json.RawMessage
	if err := json.Unmarshal(readFile(t, "didchain-transfer-txs.json"), &objects); err != nil {
		t.Fatal(err)
	}
	var txs []*Tx
	for i, obj := range objects {
		var j TxJSON
		if err := json.Unmarshal(obj, &j); err != nil {
			t.Fatal(err)
		}
		tx, err := j.Tx() // checks that the rebuilt bytes hash to the txid
		if err != nil {
			t.Fatalf("object %d: %v", i, err)
		}
		if tx.Size() != j.Size {
			t.Errorf("object %d: size %d, the node said %d", i, tx.Size(), j.Size)
		}
		// Built again with the node's context, the object is the node's.
		ctx := TxContext{Confirmations: j.Confirmations, BlockTime: j.BlockTime}
		if j.BlockHash != "" {
			ctx.BlockHash = mustHash(t, j.BlockHash)
		}
		rebuilt, err := json.Marshal(tx.JSON(ctx))
		if err != nil {
			t.Fatal(err)
		}
		var want, got any
		if err := json.Unmarshal(obj, &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(rebuilt, &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("object %d rebuilt differs from the node's (-node +ours):\n%s", i, diff)
		}
		txs = append(txs, tx)
	}
	// The first spends output 1 of the second, so that output's address is
	// the program hash the first's program must match and sign for.
	spent := txs[1].Outputs[txs[0].Inputs[0].Index].ProgramHash
	if txs[0].Inputs[0].TxID != txs[1].Hash() {
		t.Fatalf("vector changed: the first transaction no longer spends the second")
	}
	if err := txs[0].VerifyPrograms([]ProgramHash{spent}, keys.Native{}); err != nil {
		t.Errorf("VerifyPrograms of a real spend: %v", err)
	}
	other := ToProgramHash(PrefixStandard, SingleKeyScript(testKey(t, "user1.id.primary").Public(), OpCheckSig))
	if err := txs[0].VerifyPrograms([]ProgramHash{other}, keys.Native{}); err == nil {
		t.Error("VerifyPrograms accepted a program for another address")
	}
}

func TestRealBlockHeaders(t *testing.T) {
	var blocks []BlockJSON
	if err := json.Unmarshal(readFile(t, "sidechain-block-headers.json"), &blocks); err != nil {
		t.Fatal(err)
	}
	for _, j := range blocks {
		h, err := j.Header() // the fields must hash to j.Hash; the AuxPow must parse exactly
		if err != nil {
			t.Fatalf("block %s: %v", j.Hash, err)
		}
		// A header with no transactions decodes and re-encodes exactly.
		blk := &Block{Header: h}
		parsed, err := ParseBlock(blk.Bytes())
		if err != nil {
			t.Fatalf("block %s: %v", j.Hash, err)
		}
		if !bytes.Equal(parsed.Bytes(), blk.Bytes()) {
			t.Errorf("block %s: header round trip changed the bytes", j.Hash)
		}
		got := blk.JSON(BlockContext{Confirmations: j.Confirmations, Difficulty: j.Difficulty, ChainWork: j.ChainWork, NextBlockHash: mustHash(t, j.NextBlockHash)}, false)
		got.Tx, got.Size, got.StrippedSize, got.Weight = j.Tx, j.Size, j.StrippedSize, j.Weight // the transactions are not in the vector
		if diff := cmp.Diff(j, got); diff != "" {
			t.Errorf("block %s: our object differs from the node's (-node +ours):\n%s", j.Hash, diff)
		}
	}
}
