package ela

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/keys"
)

// spend returns a transaction spending one output per referenced hash.
func spend(referenced ...ProgramHash) *Tx {
	tx := transfer(Output{AssetID: ELAAssetID(), Value: OneELA, ProgramHash: referenced[0]})
	for i := range referenced {
		tx.Inputs = append(tx.Inputs, Input{TxID: Hash{byte(i + 1)}, Index: uint16(i)})
	}
	return tx
}

func standardHash(k *keys.PrivateKey) ProgramHash {
	return ToProgramHash(PrefixStandard, SingleKeyScript(k.Public(), OpCheckSig))
}

func TestSignStandard(t *testing.T) {
	ks := testKeys(t, "user1.id.primary", "user2.id.primary")
	a, b := standardHash(ks[0]), standardHash(ks[1])
	signed := func() *Tx {
		tx := spend(a, b, a) // two inputs from a: one program covers both
		tx.SignStandard(ks[1], ks[0])
		return tx
	}
	if err := signed().VerifyPrograms([]ProgramHash{a, b, a}, keys.Native{}); err != nil {
		t.Fatalf("VerifyPrograms of a properly signed transaction: %v", err)
	}
	tx := signed()
	again := signed()
	again.SignStandard(ks[0])
	if !bytes.Equal(again.Bytes(), tx.Bytes()) {
		t.Error("signing again with the same key changed the transaction")
	}

	for _, tc := range []struct {
		name       string
		change     func(*Tx)
		referenced []ProgramHash
		reason     string
	}{
		{"changed after signing", func(tx *Tx) { tx.Outputs[0].Value++ }, []ProgramHash{a, b, a}, "does not verify"},
		{"program missing", func(tx *Tx) { tx.Programs = tx.Programs[:1] }, []ProgramHash{a, b, a}, "2 signers must sign, 1 programs"},
		{"surplus program", func(tx *Tx) {}, []ProgramHash{a, a, a}, "1 signers must sign, 2 programs"},
		{"wrong signer", func(tx *Tx) {}, []ProgramHash{a, standardHash(testKey(t, "user3.id.primary")), a}, "no program for signer"},
		{"count mismatch", func(tx *Tx) {}, []ProgramHash{a, b}, "2 referenced program hashes for 3 inputs"},
		{"bad parameter", func(tx *Tx) { tx.Programs[0].Parameter = tx.Programs[0].Parameter[1:] }, []ProgramHash{a, b, a}, "parameter is 64 bytes"},
		{"script attribute unsigned", func(tx *Tx) {
			tx.Attributes = append(tx.Attributes, Attribute{Usage: AttrScript, Data: standardHash(testKey(t, "user3.id.primary")).bytes()})
		}, []ProgramHash{a, b, a}, "3 signers must sign"},
		{"script attribute malformed", func(tx *Tx) {
			tx.Attributes = append(tx.Attributes, Attribute{Usage: AttrScript, Data: []byte{1}})
		}, []ProgramHash{a, b, a}, "holds 1 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tx := signed()
			tc.change(tx)
			err := tx.VerifyPrograms(tc.referenced, keys.Native{})
			if !errors.Is(err, ErrSignature) || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("%s: error %v, want ErrSignature saying %q", tc.name, err, tc.reason)
			}
		})
	}
}

func (h ProgramHash) bytes() []byte { return h[:] }

// A Script attribute names one more signer; signed by it, the transaction
// verifies.
func TestScriptAttributeSigner(t *testing.T) {
	ks := testKeys(t, "user1.id.primary", "user3.id.primary")
	a := standardHash(ks[0])
	tx := spend(a)
	tx.Attributes = []Attribute{{Usage: AttrScript, Data: standardHash(ks[1]).bytes()}}
	tx.SignStandard(ks...)
	if err := tx.VerifyPrograms([]ProgramHash{a}, keys.Native{}); err != nil {
		t.Error(err)
	}
}

func TestMultiSig(t *testing.T) {
	ks := testKeys(t, "user1.id.primary", "user2.id.primary", "user3.id.primary", "user4.id.primary")
	pubs := []keys.PublicKey{ks[2].Public(), ks[0].Public(), ks[1].Public()}
	script, err := MultiSigScript(2, pubs)
	if err != nil {
		t.Fatal(err)
	}
	if script[0] != 0x52 || script[len(script)-2] != 0x53 || script[len(script)-1] != OpCheckMultiSig || len(script) != 3+3*34 {
		t.Fatalf("2-of-3 script %x: want PUSH2, three pushed keys, PUSH3, CHECKMULTISIG", script)
	}
	for i := 1; i < 3; i++ {
		if bytes.Compare(script[1+(i-1)*34+2:1+i*34], script[1+i*34+2:1+(i+1)*34]) >= 0 {
			t.Errorf("keys of the script are not sorted by x: %x", script)
		}
	}
	msig := ToProgramHash(PrefixMultiSig, script)
	if msig.Address()[0] != '8' {
		t.Errorf("multisig address %s, want one starting with 8", msig.Address())
	}
	verify := func(tx *Tx) error { return tx.VerifyPrograms([]ProgramHash{msig}, keys.Native{}) }

	tx := spend(msig)
	if err := tx.SignMultiSig(script, ks[0]); err != nil {
		t.Fatal(err)
	}
	if err := verify(tx); !errors.Is(err, ErrSignature) || !strings.Contains(err.Error(), "1 signatures for a 2-of-3 script") {
		t.Errorf("one of two signatures: error %v", err)
	}
	if err := tx.SignMultiSig(script, ks[2]); err != nil { // a second party, later
		t.Fatal(err)
	}
	if err := verify(tx); err != nil {
		t.Errorf("two of two signatures: %v", err)
	}
	before := tx.Bytes()
	for _, tc := range []struct {
		name   string
		signer *keys.PrivateKey
		script []byte
		reason string
	}{
		{"outsider", ks[3], script, "not one of the script's"},
		{"twice", ks[0], script, "signed already"},
		{"not multisig", ks[0], SingleKeyScript(ks[0].Public(), OpCheckSig), "not a multisig script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tx.SignMultiSig(tc.script, ks[1], tc.signer); err == nil || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.reason)
			}
			if !bytes.Equal(tx.Bytes(), before) {
				t.Fatalf("%s: a failed SignMultiSig changed the transaction", tc.name)
			}
		})
	}
	if err := tx.SignMultiSig(script, ks[1]); err != nil {
		t.Fatal(err)
	}
	if err := verify(tx); err != nil {
		t.Errorf("three of three signatures: %v", err)
	}

	// The same signature twice counts once (each signature needs its own key).
	dup := spend(msig)
	if err := dup.SignMultiSig(script, ks[0]); err != nil {
		t.Fatal(err)
	}
	dup.Programs[0].Parameter = append(dup.Programs[0].Parameter, dup.Programs[0].Parameter...)
	if err := verify(dup); !errors.Is(err, ErrSignature) || !strings.Contains(err.Error(), "no unused key") {
		t.Errorf("a signature repeated: error %v", err)
	}
}

func TestMultiSigScriptErrors(t *testing.T) {
	ks := testKeys(t, "user1.id.primary", "user2.id.primary")
	p := []keys.PublicKey{ks[0].Public(), ks[1].Public()}
	many := make([]keys.PublicKey, MaxMultiSigKeys+1)
	for i := range many {
		many[i] = p[i%2]
	}
	for i, tc := range []struct {
		m      int
		pubs   []keys.PublicKey
		reason string
	}{
		{0, p, "want 1 ≤ m ≤ n"},
		{3, p, "want 1 ≤ m ≤ n"},
		{1, nil, "want 1 ≤ m ≤ n"},
		{1, many, "want 1 ≤ m ≤ n ≤ 16"},
		{1, []keys.PublicKey{p[0], p[1], p[0]}, "appears twice"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if _, err := MultiSigScript(tc.m, tc.pubs); err == nil || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("MultiSigScript(%d, %d keys) error %v, want %q", tc.m, len(tc.pubs), err, tc.reason)
			}
		})
	}
}

// countingVerifier counts calls and delegates, to show verification goes
// through the Verifier it is given.
type countingVerifier struct{ n *int }

func (c countingVerifier) Verify(pub keys.PublicKey, digest [32]byte, sig keys.Signature) bool {
	*c.n++
	return keys.Native{}.Verify(pub, digest, sig)
}

func TestVerifyUsesTheGivenVerifier(t *testing.T) {
	k := testKey(t, "user1.id.primary")
	tx := spend(standardHash(k))
	tx.SignStandard(k)
	var n int
	if err := tx.VerifyPrograms([]ProgramHash{standardHash(k)}, countingVerifier{&n}); err != nil || n != 1 {
		t.Errorf("VerifyPrograms: %v after %d verifier calls, want nil after 1", err, n)
	}
}
