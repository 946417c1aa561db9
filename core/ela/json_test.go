package ela

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// sampleBlock returns a block after genesis with a coinbase and every
// sample transaction.
func sampleBlock(t testing.TB) *Block {
	g := GenesisBlock()
	b := &Block{
		Header: Header{Previous: g.Hash(), Timestamp: g.Header.Timestamp + 120, Bits: g.Header.Bits, Nonce: 7, Height: 1, AuxPow: g.Header.AuxPow},
		Transactions: []*Tx{{
			PayloadVersion: 4,
			Payload:        &CoinBase{Data: []byte("didlight")},
			Attributes:     []Attribute{{Usage: AttrNonce, Data: []byte{1, 2, 3, 4}}},
			Inputs:         []Input{{Index: 0xffff, Sequence: 0xffffffff}},
			Outputs:        []Output{{AssetID: ELAAssetID(), Value: 5 * OneELA}},
		}},
	}
	samples := sampleTxs(t)
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range samples {
			if !yield(n) {
				return
			}
		}
	}) {
		b.Transactions = append(b.Transactions, samples[name])
	}
	b.Header.MerkleRoot = b.MerkleRoot()
	return b
}

func TestBlockRoundTrip(t *testing.T) {
	for _, b := range []*Block{GenesisBlock(), sampleBlock(t)} {
		raw := b.Bytes()
		parsed, err := ParseBlock(raw)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(parsed.Bytes(), raw) || parsed.Hash() != b.Hash() {
			t.Errorf("block %s: binary round trip changed it", b.Hash())
		}

		ctx := BlockContext{Confirmations: 4, NextBlockHash: Hash{5}, Difficulty: "1", ChainWork: "00000004"}
		j := viaJSON[BlockJSON](t, b.JSON(ctx, true))
		back, err := j.Block()
		if err != nil {
			t.Fatalf("block %s: %v", b.Hash(), err)
		}
		if !bytes.Equal(back.Bytes(), raw) {
			t.Errorf("block %s: JSON round trip changed the bytes", b.Hash())
		}
		if j.Size != len(raw) || j.Tx[0].Full.BlockHash != b.Hash().String() || j.Tx[0].Full.BlockTime != b.Header.Timestamp {
			t.Errorf("block %s: size %d, first tx in block %q at %d", b.Hash(), j.Size, j.Tx[0].Full.BlockHash, j.Tx[0].Full.BlockTime)
		}
	}
}

func TestBlockJSONHashes(t *testing.T) {
	b := sampleBlock(t)
	text, err := json.Marshal(b.JSON(BlockContext{}, false))
	if err != nil {
		t.Fatal(err)
	}
	var generic struct {
		Tx            []string
		NextBlockHash string `json:"nextblockhash"`
		VersionHex    string `json:"versionhex"`
	}
	if err := json.Unmarshal(text, &generic); err != nil {
		t.Fatalf("tx is not a list of hash strings: %v", err)
	}
	if len(generic.Tx) != len(b.Transactions) || generic.Tx[1] != b.Transactions[1].Hash().String() {
		t.Errorf("tx hashes %v", generic.Tx)
	}
	if generic.NextBlockHash != strings.Repeat("0", 64) || generic.VersionHex != "00000000" {
		t.Errorf("nextblockhash %q versionhex %q", generic.NextBlockHash, generic.VersionHex)
	}
	var j BlockJSON
	if err := json.Unmarshal(text, &j); err != nil {
		t.Fatal(err)
	}
	if _, err := j.Header(); err != nil {
		t.Errorf("Header() from a hashes-only object: %v", err)
	}
	if _, err := j.Block(); !isDecodeError(err, ErrInvalid, "tx[0]", -1) {
		t.Errorf("Block() from a hashes-only object: error %v", err)
	}
}

func TestBlockJSONErrors(t *testing.T) {
	good := sampleBlock(t).JSON(BlockContext{}, true)
	for _, tc := range []struct {
		name   string
		change func(*BlockJSON)
		kind   error
		field  string
	}{
		{"hash", func(j *BlockJSON) { j.Nonce++ }, ErrInvalid, "hash"},
		{"previous", func(j *BlockJSON) { j.PreviousBlockHash = "x" }, ErrInvalid, "previousblockhash"},
		{"auxpow hex", func(j *BlockJSON) { j.AuxPow = "0" }, ErrInvalid, "auxpow"},
		{"auxpow cut", func(j *BlockJSON) { j.AuxPow = j.AuxPow[:100] }, ErrTruncated, "auxpow.sideauxblocktx.payload.sidegenesishash"},
		{"auxpow longer", func(j *BlockJSON) { j.AuxPow += "00" }, ErrTrailingData, "end"},
		{"tx", func(j *BlockJSON) { j.Tx[2].Full.LockTime++ }, ErrInvalid, "tx[2].txid"},
	} {
		j := good
		j.Tx = slices.Clone(good.Tx)
		for i, t := range j.Tx {
			full := *t.Full
			j.Tx[i].Full = &full
		}
		tc.change(&j)
		_, err := j.Block()
		if !isDecodeError(err, tc.kind, tc.field, -1) {
			t.Errorf("%s: error %v; want %v at %s", tc.name, err, tc.kind, tc.field)
		}
	}
}

func TestTxJSONErrors(t *testing.T) {
	good := sampleTxs(t)["did-update"].JSON(TxContext{})
	for _, tc := range []struct {
		name   string
		change func(*TxJSON)
		kind   error
		field  string
	}{
		{"txid", func(j *TxJSON) { j.LockTime++ }, ErrInvalid, "txid"},
		{"version", func(j *TxJSON) { j.Version = 9 }, ErrUnsupported, "version"},
		{"type", func(j *TxJSON) { j.Type = TxWithdrawFromSideChain }, ErrUnsupported, "type"},
		{"attribute usage", func(j *TxJSON) { j.Attributes[0].Usage = 0x55 }, ErrInvalid, "attributes[0].usage"},
		{"attribute data", func(j *TxJSON) { j.Attributes[1].Data = "xy" }, ErrInvalid, "attributes[1].data"},
		{"input txid", func(j *TxJSON) { j.Inputs[0].TxID = "00" }, ErrInvalid, "vin[0].txid"},
		{"output index", func(j *TxJSON) { j.Outputs[1].N = 0 }, ErrInvalid, "vout[1].n"},
		{"precision", func(j *TxJSON) { j.Outputs[0].Value = "1.000000001" }, ErrInvalid, "vout[0].value"},
		{"negative", func(j *TxJSON) { j.Outputs[0].Value = "-1" }, ErrInvalid, "vout[0].value"},
		{"address", func(j *TxJSON) { j.Outputs[0].Address = "EbVKbGDWFmS83NQjC9Bwn1E8AcRmTAtacn" }, ErrInvalid, "vout[0].address"},
		{"asset", func(j *TxJSON) { j.Outputs[0].AssetID = "" }, ErrInvalid, "vout[0].assetid"},
		{"program", func(j *TxJSON) { j.Programs[0].Code = "abc" }, ErrInvalid, "programs[0].code"},
		{"payload missing", func(j *TxJSON) { j.Payload = nil }, ErrInvalid, "payload"},
		{"payload shape", func(j *TxJSON) { j.Payload = json.RawMessage(`[1]`) }, ErrInvalid, "payload"},
		{"previousTxid on create", func(j *TxJSON) {
			j.Payload = json.RawMessage(`{"header":{"specification":"elastos/did/1.0","operation":"create","previousTxid":"x"},"payload":"","proof":{"verificationMethod":"","signature":""}}`)
		}, ErrInvalid, "payload.header.previousTxid"},
		{"ticket on update", func(j *TxJSON) {
			j.Payload = json.RawMessage(`{"header":{"specification":"elastos/did/1.0","operation":"update","ticket":"x"},"payload":"","proof":{"verificationMethod":"","signature":""}}`)
		}, ErrInvalid, "payload.header.ticket"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := good
			j.Attributes = slices.Clone(good.Attributes)
			j.Inputs = slices.Clone(good.Inputs)
			j.Outputs = slices.Clone(good.Outputs)
			j.Programs = slices.Clone(good.Programs)
			tc.change(&j)
			_, err := j.Tx()
			if !isDecodeError(err, tc.kind, tc.field, -1) {
				t.Errorf("%s: error %v; want %v at %s", tc.name, err, tc.kind, tc.field)
			}
		})
	}
}

// The binary limits hold for transactions rebuilt from JSON.
func TestTxJSONLimits(t *testing.T) {
	tx := transfer()
	tx.Programs = []Program{{Code: make([]byte, MaxProgramCodeSize+1)}}
	j := tx.JSON(TxContext{})
	_, err := j.Tx()
	var de *DecodeError
	if !errors.Is(err, ErrTooLarge) || !errors.As(err, &de) || de.Field != "programs[0].code" {
		t.Errorf("oversized program code from JSON: error %v", err)
	}
}

func TestPayloadJSONShapes(t *testing.T) {
	samples := sampleTxs(t)
	for name, want := range map[string]string{
		"coinbase":      `{"CoinbaseData":"ELA miner"}`,
		"coinbase-bin":  `{"CoinbaseData":"` + "\ufffd" + `\u0000` + "\ufffd" + `","CoinbaseDataHex":"ff00c3"}`,
		"transferasset": `null`,
		"record":        `{"RecordType":"note","RecordData":"000102"}`,
		"sidechainpow":  `{"BlockHeight":42,"SideBlockHash":"09` + zeros(31) + `","SideGenesisHash":"08` + zeros(31) + `","SignedData":"0102"}`,
		"recharge-v1":   `{"mainchaintxhash":"` + zeros(31) + `07"}`,
		"crosschain":    `{"crosschainassets":[{"crosschainaddress":"EbVKbGDWFmS83NQjC9Bwn1E8AcRmTAtacm","outputindex":1,"crosschainamount":"0.99990000"},{"crosschainaddress":"ETGJLEtN79oepAHAuKgUJjuwY7WvqsWHvf","outputindex":300,"crosschainamount":"0.00000000"}]}`,
	} {
		if got := string(samples[name].JSON(TxContext{}).Payload); got != want {
			t.Errorf("%s payload JSON\n got %s\nwant %s", name, got, want)
		}
	}
	ra := string(samples["registerasset"].JSON(TxContext{}).Payload)
	if !strings.Contains(ra, `"Amount":"21.00000000"`) || !strings.Contains(ra, `"Asset":{"Name":"TOKEN"`) {
		t.Errorf("RegisterAsset payload JSON %s", ra)
	}
	for _, raw := range []string{`null`, `{}`, ` null `} {
		if err := new(TransferAsset).setJSON(json.RawMessage(raw), 0); err != nil {
			t.Errorf("TransferAsset payload %s: %v", raw, err)
		}
	}
	if err := new(TransferAsset).setJSON(json.RawMessage(`{"a":1}`), 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("TransferAsset payload with data: error %v", err)
	}
}

// Payload JSON is what json.Marshal writes for the same fields: reading it
// into the payload's JSON shape and marshalling that gives the same bytes.
func TestPayloadJSONIsEncodingJSONs(t *testing.T) {
	txs := sampleTxs(t)
	odd := "<a&b>\u2028\u2029\x01\"\\é"
	txs["record-odd"] = &Tx{Payload: &Record{Type: odd, Data: []byte(odd)}}
	txs["asset-odd"] = &Tx{Payload: &RegisterAsset{Asset: Asset{Name: odd, Description: odd, Precision: 255}}}
	txs["operation-odd"] = &Tx{Payload: &Operation{Header: OperationHeader{Specification: odd, Operation: odd, PreviousTxid: odd, Ticket: odd}, Payload: odd}}
	txs["crosschain-empty"] = &Tx{Payload: &TransferCrossChainAsset{}}
	for name, tx := range txs {
		got := tx.Payload.appendJSON(nil, tx.PayloadVersion)
		var shape any
		switch p := tx.Payload.(type) {
		case *CoinBase:
			shape = new(coinBaseJSON)
		case *RegisterAsset:
			shape = new(registerAssetJSON)
		case *TransferAsset:
			if string(got) != "null" {
				t.Errorf("%s: %s", name, got)
			}
			continue
		case *Record:
			shape = new(recordJSON)
		case *SideChainPow:
			shape = new(sideChainPowJSON)
		case *RechargeToSideChain:
			shape = map[bool]any{true: new(rechargeHashJSON), false: new(rechargeTxJSON)}[tx.PayloadVersion == RechargeVersionHash]
		case *TransferCrossChainAsset:
			shape = new(transferCrossChainJSON)
		case *Operation:
			shape = new(Operation)
		default:
			t.Fatalf("%s: payload %T", name, p)
		}
		if err := json.Unmarshal(got, shape); err != nil {
			t.Fatalf("%s: %s: %v", name, got, err)
		}
		if want, _ := json.Marshal(shape); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got  %s\n want %s", name, got, want)
		}
	}
}

// minerinfo is "ELA" for the genesis block and the coinbase data after it,
// as the side chain's GetBlockInfo writes it.
func TestBlockJSONMinerInfo(t *testing.T) {
	noCoinbase := sampleBlock(t)
	noCoinbase.Transactions = slices.DeleteFunc(noCoinbase.Transactions, func(tx *Tx) bool { return tx.Type() == TxCoinBase })
	for i, tc := range []struct {
		b    *Block
		want string
	}{
		{GenesisBlock(), "ELA"},
		{sampleBlock(t), "didlight"},
		{noCoinbase, ""},
		{&Block{Header: Header{Height: 9}}, ""},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := tc.b.JSON(BlockContext{}, false).MinerInfo; got != tc.want {
				t.Errorf("block at height %d: minerinfo %q, want %q", tc.b.Header.Height, got, tc.want)
			}
		})
	}
}
