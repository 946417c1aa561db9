package ela

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/scaling"
)

// The decoders of untrusted input in this package cost no more than their
// input's length: see package scaling for what the ratios mean.

func BenchmarkScaleAddress(b *testing.B) {
	scaling.Run(b, map[string]func(int) string{
		"base58": func(n int) string { return strings.Repeat("z", n) },
	}, func(in string) error { _, err := ParseAddress(in); return err })
}

func BenchmarkScaleHash(b *testing.B) {
	scaling.Run(b, map[string]func(int) string{
		"hex": func(n int) string { return strings.Repeat("ab", n/2) },
	}, func(in string) error { _, err := ParseHash(in); return err })
}

// BenchmarkScaleTxHex decodes a broadcast's data: hex, then the
// transaction, whose lists and byte fields take the length.
func BenchmarkScaleTxHex(b *testing.B) {
	scaling.Run(b, map[string]func(int) string{
		"outputs": txHex(func(tx *Tx, k int) {
			tx.Outputs = make([]Output, k)
			for i := range tx.Outputs {
				tx.Outputs[i] = Output{AssetID: ELAAssetID(), Value: Fixed64(i + 1), ProgramHash: ProgramHash{0x21, byte(i)}}
			}
		}),
		"attributes": txHex(func(tx *Tx, k int) {
			tx.Attributes = make([]Attribute, k)
			for i := range tx.Attributes {
				tx.Attributes[i] = Attribute{Usage: AttrNonce, Data: []byte{byte(i), byte(i >> 8), 1, 2, 3, 4, 5, 6}}
			}
		}),
		"programs": txHex(func(tx *Tx, k int) {
			tx.Programs = make([]Program, k)
			for i := range tx.Programs {
				tx.Programs[i] = Program{Code: make([]byte, 35), Parameter: make([]byte, 65)}
			}
		}),
		"did-payload": txHex(func(tx *Tx, k int) {
			tx.Payload = &Operation{
				Header:  OperationHeader{Specification: "elastos/did/1.0", Operation: "create"},
				Payload: strings.Repeat("eyJpZCI6", k),
				Proof:   OperationProof{VerificationMethod: "#primary", Signature: "c2ln"},
			}
		}),
		"crosschain": txHex(func(tx *Tx, k int) {
			assets := make([]CrossChainAsset, k)
			for i := range assets {
				assets[i] = CrossChainAsset{Address: "EbVKbGDWFmS83NQjC9Bwn1E8AcRmTAtacm", OutputIndex: uint64(i), Amount: 1}
			}
			tx.Payload = &TransferCrossChainAsset{Assets: assets}
		}),
	}, func(in string) error {
		raw, err := hex.DecodeString(in)
		if err == nil {
			_, err = ParseTx(raw)
		}
		return err
	})
}

// txHex returns a shape that grows a transfer by fill(tx, k), k chosen so
// that the hex is about n characters.
func txHex(fill func(tx *Tx, k int)) func(int) string {
	size := func(k int) int {
		tx := &Tx{Payload: &TransferAsset{}}
		fill(tx, k)
		return 2 * len(tx.Bytes())
	}
	return func(n int) string {
		base, one := size(0), size(1)
		tx := &Tx{Payload: &TransferAsset{}}
		fill(tx, max(1, (n-base)/(one-base)))
		return hex.EncodeToString(tx.Bytes())
	}
}
