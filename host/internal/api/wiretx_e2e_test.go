package api_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mr-tron/base58"
	"golang.org/x/crypto/ripemd160" //lint:ignore SA1019 the protocol's program hashes are RIPEMD-160
)

// A payment made the way any wallet outside didlight makes one, from the
// wire format alone: the transaction's bytes laid out by hand, SHA-256 of
// them signed with ECDSA P-256 (r‖s), a program of redeem script and
// signature. Nothing of didlight's encoder, signer or key handling is used.
// sendrawtransaction takes it, a block holds it, and both APIs show the
// balances moved.
func TestSendRawTransactionSignedOutside(t *testing.T) {
	n := startNode(t, 0) // mines as soon as a transaction arrives

	// The dev account's key, made as the README says: SHA-256("didlight dev
	// account:" + seed), the default seed "didlight".
	d := sha256.Sum256([]byte("didlight dev account:didlight"))
	devKey, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), d[:])
	if err != nil {
		t.Fatal(err)
	}
	devScript := standardScript(t, &devKey.PublicKey)
	devHash := programHash(devScript)
	dev := addressOf(devHash)
	if dev != n.chain.DevAccount().Address {
		t.Fatalf("the dev key derives %s, the node's dev account is %s", dev, n.chain.DevAccount().Address)
	}
	payeeKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	payeeHash := programHash(standardScript(t, &payeeKey.PublicKey))
	payee := addressOf(payeeHash)

	// Spend the dev account's largest output, as listunspent lists it.
	var outs []struct {
		AssetID string `json:"assetid"`
		Txid    string `json:"txid"`
		VOut    uint16 `json:"vout"`
		Amount  string `json:"amount"`
	}
	n.result("listunspent", map[string]any{"addresses": []string{dev}}, &outs)
	in := outs[0]
	for _, o := range outs {
		if sela(t, o.Amount) > sela(t, in.Amount) {
			in = o
		}
	}
	const paid, fee = 5_00000000, 100
	change := sela(t, in.Amount) - paid - fee
	var before string
	n.ok("/asset/balances/"+dev, &before)

	// The unsigned encoding (Elastos.ELA.SideChain types/transaction.go,
	// SerializeUnsigned): type, payload version, payload, attributes, inputs,
	// outputs, lock time.
	tx := []byte{0x02, 0x00} // TransferAsset, version 0; its payload is empty
	nonce := make([]byte, 8)
	rand.Read(nonce)
	tx = append(tx, 1, 0x00, byte(len(nonce))) // one attribute: usage Nonce, data
	tx = append(tx, nonce...)
	tx = append(tx, 1) // one input: previous txid (stored order), index, sequence
	tx = append(tx, unreversed(t, in.Txid)...)
	tx = binary.LittleEndian.AppendUint16(tx, in.VOut)
	tx = binary.LittleEndian.AppendUint32(tx, 0xffffffff)
	tx = append(tx, 2) // two outputs: asset id, value, output lock, program hash
	for _, o := range []struct {
		value int64
		to    []byte
	}{{paid, payeeHash}, {change, devHash}} {
		tx = append(tx, unreversed(t, in.AssetID)...)
		tx = binary.LittleEndian.AppendUint64(tx, uint64(o.value))
		tx = binary.LittleEndian.AppendUint32(tx, 0)
		tx = append(tx, o.to...)
	}
	tx = binary.LittleEndian.AppendUint32(tx, 0) // lock time
	unsigned := tx

	// The program: the signature pushed (0x40 ‖ r ‖ s) as its parameter, then
	// the redeem script (types/program.go, Serialize).
	digest := sha256.Sum256(unsigned)
	r, s, err := ecdsa.Sign(rand.Reader, devKey, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	param := append([]byte{0x40}, r.FillBytes(make([]byte, 32))...)
	param = append(param, s.FillBytes(make([]byte, 32))...)
	raw := append(slices.Clone(unsigned), 1, byte(len(param)))
	raw = append(raw, param...)
	raw = append(raw, byte(len(devScript)))
	raw = append(raw, devScript...)
	txid := reversedHex(sha256d(unsigned))

	// Positional params, as wallets send them.
	var got string
	n.result("sendrawtransaction", []string{hex.EncodeToString(raw)}, &got)
	if got != txid {
		t.Fatalf("sendrawtransaction = %s, want %s", got, txid)
	}
	var mined struct {
		Confirmations uint32 `json:"confirmations"`
	}
	for deadline := time.Now().Add(10 * time.Second); mined.Confirmations == 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("transaction %s not in a block after 10 s", txid)
		}
		n.result("getrawtransaction", []any{txid, true}, &mined)
	}
	var back string
	n.result("getrawtransaction", []any{txid}, &back)
	if back != hex.EncodeToString(raw) {
		t.Errorf("getrawtransaction %s:\n%s\nwant the bytes sent\n%x", txid, back, raw)
	}
	sameJSON(t, "the payment", n.chainCall("getrawtransaction", []string{"txid", "verbose"}, txid, true), n.restResult("/transaction/"+txid))

	// The balances moved, as both APIs show them.
	n.checkBalances(dev, payee)
	var after, received string
	n.ok("/asset/balances/"+dev, &after)
	n.result("getreceivedbyaddress", []string{payee}, &received)
	if sela(t, before)-sela(t, after) != paid+fee || received != "5.00000000" {
		t.Errorf("dev %s -> %s, payee %s; want 5 ELA and the fee moved", before, after, received)
	}
	var payeeOuts []struct {
		Txid   string `json:"txid"`
		VOut   uint16 `json:"vout"`
		Amount string `json:"amount"`
	}
	n.result("listunspent", map[string]any{"addresses": []string{payee}}, &payeeOuts)
	if len(payeeOuts) != 1 || payeeOuts[0].Txid != txid || payeeOuts[0].VOut != 0 || payeeOuts[0].Amount != "5.00000000" {
		t.Errorf("the payee's outputs %+v", payeeOuts)
	}
}

// standardScript is a key's redeem script: push 33 bytes, the compressed
// key, OP_CHECKSIG.
func standardScript(t *testing.T, pub *ecdsa.PublicKey) []byte {
	t.Helper()
	point, err := pub.Bytes() // 0x04 ‖ X ‖ Y
	if err != nil {
		t.Fatal(err)
	}
	compressed := append([]byte{0x02 | point[64]&1}, point[1:33]...)
	return append(append([]byte{0x21}, compressed...), 0xac)
}

// programHash is 0x21 ‖ RIPEMD-160(SHA-256(script)), a standard address's.
func programHash(script []byte) []byte {
	sum := sha256.Sum256(script)
	r := ripemd160.New()
	r.Write(sum[:])
	return r.Sum([]byte{0x21})
}

// addressOf is base58check of a program hash.
func addressOf(h []byte) string {
	return base58.Encode(append(slices.Clone(h), sha256d(h)[:4]...))
}

// unreversed reads a hash as the APIs show it into its stored byte order.
func unreversed(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != 32 {
		t.Fatalf("hash %q: %v", s, err)
	}
	slices.Reverse(b)
	return b
}

// sela reads an amount with up to 8 decimals into units of 10^-8.
func sela(t *testing.T, s string) int64 {
	t.Helper()
	whole, frac, _ := strings.Cut(s, ".")
	v, err := strconv.ParseInt(whole+(frac + "00000000")[:8], 10, 64)
	if err != nil || len(frac) > 8 {
		t.Fatalf("amount %q: %v", s, err)
	}
	return v
}
