package ela

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// checkDecodeError fails unless err is a *DecodeError of a known kind.
func checkDecodeError(t *testing.T, err error) {
	t.Helper()
	var de *DecodeError
	if !errors.As(err, &de) {
		t.Fatalf("error %v (%T) is not a *DecodeError", err, err)
	}
	for _, kind := range []error{ErrTruncated, ErrTrailingData, ErrNonCanonical, ErrTooLarge, ErrInvalid, ErrUnsupported} {
		if errors.Is(err, kind) {
			return
		}
	}
	t.Fatalf("error %v has no known kind", err)
}

func txSeeds(f *testing.F) [][]byte {
	seeds := [][]byte{readHex(f, "idchain-did-update-tx.hex"), readHex(f, "token-transfer-tx.hex"), ELAAsset().Bytes()}
	for _, tx := range sampleTxs(f) {
		seeds = append(seeds, tx.Bytes())
	}
	return seeds
}

// FuzzParseTx: ParseTx never panics; what it accepts re-encodes byte for
// byte, and survives the JSON form.
func FuzzParseTx(f *testing.F) {
	for _, s := range txSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tx, err := ParseTx(b)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if !bytes.Equal(tx.Bytes(), b) {
			t.Fatalf("re-encoding changed the bytes:\n got %x\nwant %x", tx.Bytes(), b)
		}
		checkJSONRoundTrip(t, tx, b)
	})
}

// FuzzParseBlock: ParseBlock never panics; what it accepts re-encodes byte
// for byte, and survives the JSON form with full transactions.
func FuzzParseBlock(f *testing.F) {
	f.Add(GenesisBlock().Bytes())
	f.Add(sampleBlock(f).Bytes())
	var headers []BlockJSON
	if err := json.Unmarshal(readFile(f, "sidechain-block-headers.json"), &headers); err != nil {
		f.Fatal(err)
	}
	for _, j := range headers {
		h, err := j.Header()
		if err != nil {
			f.Fatal(err)
		}
		f.Add((&Block{Header: h, Transactions: []*Tx{ELAAsset()}}).Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		blk, err := ParseBlock(b)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if !bytes.Equal(blk.Bytes(), b) {
			t.Fatalf("re-encoding changed the bytes")
		}
		j := viaJSON[BlockJSON](t, blk.JSON(BlockContext{}, true))
		back, err := j.Block()
		if err != nil {
			t.Fatalf("BlockJSON.Block: %v", err)
		}
		if !bytes.Equal(back.Bytes(), b) {
			t.Fatalf("JSON round trip changed the bytes")
		}
	})
}

// FuzzParseConfirm: ParseConfirm never panics; what it accepts re-encodes
// byte for byte, also through JSON.
func FuzzParseConfirm(f *testing.F) {
	f.Add(sampleConfirm(f).Bytes())
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ParseConfirm(b)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if !bytes.Equal(c.Bytes(), b) {
			t.Fatalf("re-encoding changed the bytes")
		}
		j := c.JSON()
		back, err := j.Confirm()
		if err != nil || !bytes.Equal(back.Bytes(), b) {
			t.Fatalf("JSON round trip: %v", err)
		}
	})
}

// FuzzTxJSON: TxJSON.Tx never panics, and what it accepts decodes from its
// own encoding and rebuilds the same bytes from its own JSON.
func FuzzTxJSON(f *testing.F) {
	var objects []json.RawMessage
	if err := json.Unmarshal(readFile(f, "didchain-transfer-txs.json"), &objects); err != nil {
		f.Fatal(err)
	}
	for _, o := range objects {
		f.Add([]byte(o))
	}
	for _, tx := range sampleTxs(f) {
		text, err := json.Marshal(tx.JSON(TxContext{}))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var j TxJSON
		if json.Unmarshal(text, &j) != nil {
			return
		}
		tx, err := j.Tx()
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		raw := tx.Bytes()
		if _, err := ParseTx(raw); err != nil {
			t.Fatalf("a transaction TxJSON.Tx accepted does not decode: %v", err)
		}
		checkJSONRoundTrip(t, tx, raw)
	})
}

// FuzzParseFixed64: what ParseFixed64 accepts prints and parses back to the
// same value.
func FuzzParseFixed64(f *testing.F) {
	for _, s := range []string{"0", "1.5", "-0.00000001", "92233720368.54775807", "29999880.97960000", "1e8", ".5"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseFixed64(s)
		if err != nil {
			return
		}
		if back, err := ParseFixed64(v.String()); err != nil || back != v {
			t.Fatalf("%q → %d → %q → %d, %v", s, v, v.String(), back, err)
		}
		if strings.Count(v.String(), ".") != 1 || len(v.String())-strings.Index(v.String(), ".") != 9 {
			t.Fatalf("String() = %q, want exactly eight decimals", v.String())
		}
	})
}

// FuzzParseHash: what ParseHash accepts prints back in lower case.
func FuzzParseHash(f *testing.F) {
	f.Add("a3d0eaa466df74983b5d7c543de6904f4c9418ead5ffd6d25814234a96db37b0")
	f.Add("A3D0EAA466DF74983B5D7C543DE6904F4C9418EAD5FFD6D25814234A96DB37B0")
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHash(s)
		if err != nil {
			if len(err.Error()) > 600 {
				t.Fatalf("error for %d bytes is %d bytes long", len(s), len(err.Error()))
			}
			return
		}
		if h.String() != strings.ToLower(s) {
			t.Fatalf("ParseHash(%q).String() = %q", s, h.String())
		}
	})
}

// FuzzParseAddress: what ParseAddress accepts encodes back to the same text.
func FuzzParseAddress(f *testing.F) {
	for _, s := range []string{"EbVKbGDWFmS83NQjC9Bwn1E8AcRmTAtacm", "8VYXVxKKSAxkmRrfmGpQR2Kc66XhG6m3ta", "XKUh4GLhFJiqAMTF6HyWQrV9pK9HcGUdfJ", "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y", "1111111111111111111114oLvT2"} {
		f.Add(s)
	}
	f.Add(strings.Repeat("z", 36))
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseAddress(s)
		if err != nil {
			if len(err.Error()) > 600 {
				t.Fatalf("error for %d bytes is %d bytes long", len(s), len(err.Error()))
			}
			return
		}
		if h.Address() != s {
			t.Fatalf("ParseAddress(%q).Address() = %q", s, h.Address())
		}
	})
}
