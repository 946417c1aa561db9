package ela_test

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/internal/vectors"
	"github.com/didlight/didlight/core/keys"
)

// A raw transaction, as POST /api/v1/transaction receives it, decoded.
func ExampleParseTx() {
	raw, _ := hex.DecodeString("0200010013363839353136363234373630323735393331350151" +
		"5ce9e289ab151d75cea18e83d4321d72648a4a6599c8b804e3a85b45fd7413010000000000" +
		"02b037db964a231458d2d6ffd5ea18944c4f90e63d547c5d3b9874df66a4ead0a340420f00" +
		"000000000000000021c91e4886c9f9f3bfff2c4b0369f8dc4a5545499ab037db964a231458" +
		"d2d6ffd5ea18944c4f90e63d547c5d3b9874df66a4ead0a340c8e82879a80a000000000021" +
		"6ee6d18d1e8824bfc2bfdf7ef320d5a92f296bad000000000141401c57db4b347aa671c5ef" +
		"80a580be0b9d7f366bbbda4772149957d178e16b43636aa248941a8164ca002da1bbf3c546" +
		"ac9f6df57f1b8eff926a82dc9d77a7ebb62321039212d6aaf85b2fc952efdac9d3f5e4d379" +
		"8bbf682999b17e88503df1e96f3cd0ac")
	tx, err := ela.ParseTx(raw)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(tx.Hash(), tx.Type())
	for _, o := range tx.Outputs {
		fmt.Println(o.ProgramHash.Address(), o.Value)
	}

	_, err = ela.ParseTx(raw[:100])
	fmt.Println(errors.Is(err, ela.ErrTruncated), err)
	// Output:
	// 8e483e36fb6519ab2f74ca8abdbf773cd379fc8b97f48745602737d988cbf23e TransferAsset
	// EbVKbGDWFmS83NQjC9Bwn1E8AcRmTAtacm 0.01000000
	// ETGJLEtN79oepAHAuKgUJjuwY7WvqsWHvf 29999880.97960000
	// true ela: tx: outputs at offset 63: truncated: 2 elements of at least 65 bytes each, 36 bytes left
}

func ExampleParseFixed64() {
	for _, s := range []string{"1", "0.5", "29999880.9796", "0.000000001"} {
		v, err := ela.ParseFixed64(s)
		fmt.Println(int64(v), v, err)
	}
	// Output:
	// 100000000 1.00000000 <nil>
	// 50000000 0.50000000 <nil>
	// 2999988097960000 29999880.97960000 <nil>
	// 0 0.00000000 ela: amount "0.000000001" has 9 decimal places, at most 8
}

// Signing a spend with single keys, and checking it as a node does: with the
// program hashes of the outputs the inputs spend.
func ExampleTx_SignStandard() {
	key, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user1.id.primary.sk"))
	from := ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(key.Public(), ela.OpCheckSig))
	to, _ := ela.ParseAddress("EbVKbGDWFmS83NQjC9Bwn1E8AcRmTAtacm")

	tx := &ela.Tx{
		Payload:    &ela.TransferAsset{},
		Attributes: []ela.Attribute{{Usage: ela.AttrNonce, Data: []byte("1")}},
		Inputs:     []ela.Input{{TxID: ela.Hash{1}, Index: 0}},
		Outputs:    []ela.Output{{AssetID: ela.ELAAssetID(), Value: ela.OneELA, ProgramHash: to}},
	}
	tx.SignStandard(key)
	fmt.Println(tx.VerifyPrograms([]ela.ProgramHash{from}, keys.Native{}))

	tx.Outputs[0].Value++ // changed after signing
	err := tx.VerifyPrograms([]ela.ProgramHash{from}, keys.Native{})
	fmt.Println(errors.Is(err, ela.ErrSignature))
	// Output:
	// <nil>
	// true
}

// An m-of-n multisig address and its spend, signed by two parties in turn.
func ExampleTx_SignMultiSig() {
	var ks []*keys.PrivateKey
	var pubs []keys.PublicKey
	for _, name := range []string{"user1", "user2", "user3"} {
		k, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/" + name + ".id.primary.sk"))
		ks, pubs = append(ks, k), append(pubs, k.Public())
	}
	script, _ := ela.MultiSigScript(2, pubs)
	addr := ela.ToProgramHash(ela.PrefixMultiSig, script)
	fmt.Println(addr.Address()[:1])

	tx := &ela.Tx{Payload: &ela.TransferAsset{}, Inputs: []ela.Input{{TxID: ela.Hash{1}}}}
	_ = tx.SignMultiSig(script, ks[0])
	fmt.Println(tx.VerifyPrograms([]ela.ProgramHash{addr}, keys.Native{}) != nil)
	_ = tx.SignMultiSig(script, ks[2])
	fmt.Println(tx.VerifyPrograms([]ela.ProgramHash{addr}, keys.Native{}))
	// Output:
	// 8
	// true
	// <nil>
}

// The REST object of a transaction in a block, and the transaction rebuilt
// from it, as a follower does.
func ExampleTx_JSON() {
	tx := ela.ELAAsset()
	genesis := ela.GenesisBlock()
	j := tx.JSON(ela.TxContext{BlockHash: genesis.Hash(), Confirmations: 1, BlockTime: genesis.Header.Timestamp})
	text, _ := json.Marshal(j.Payload)
	fmt.Println(j.TxID, j.Type, string(text))

	back, err := j.Tx()
	fmt.Println(back.Hash() == tx.Hash(), err)
	// Output:
	// a3d0eaa466df74983b5d7c543de6904f4c9418ead5ffd6d25814234a96db37b0 RegisterAsset {"Asset":{"Name":"ELA","Description":"","Precision":8,"AssetType":0,"RecordType":0},"Amount":"0.00000000","Controller":"000000000000000000000000000000000000000000"}
	// true <nil>
}

// A block confirmation signed by its sponsor and voted on by arbiters.
func ExampleNewConfirm() {
	sponsor, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user1.id.primary.sk"))
	arbiter, _ := keys.ParseExtendedPrivateKey(vectors.String("elastos-did-sdk/v2.2/user2.id.primary.sk"))

	c := ela.NewConfirm(sponsor, ela.GenesisBlock().Hash(), 0)
	c.AddVote(sponsor, true)
	c.AddVote(arbiter, true)
	parsed, err := ela.ParseConfirm(c.Bytes())
	fmt.Println(len(parsed.Votes), err, parsed.Verify(keys.Native{}))
	// Output:
	// 2 <nil> <nil>
}
