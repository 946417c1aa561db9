package ela

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/didlight/didlight/core/keys"
)

// opPush1 pushes the number 1; opPush1+n-1 pushes n, up to 16 (Elastos.ELA
// vm/opcode.go PUSH1..PUSH16).
const opPush1 = 0x51

// MaxMultiSigKeys is the most keys a multisig script holds: m and n are each
// one PUSH opcode, which stops at 16 (Elastos.ELA crypto/crypto.go reads them
// so).
const MaxMultiSigKeys = 16

// MultiSigScript returns the redeem script of an m-of-n multisig address
// (program hash prefix [PrefixMultiSig]): PUSH(m) ‖ (0x21 ‖ key) × n ‖ PUSH(n)
// ‖ [OpCheckMultiSig], the keys sorted by their x coordinate as the chain
// sorts them (Elastos.ELA core/contract/multisig.go).
func MultiSigScript(m int, pubs []keys.PublicKey) ([]byte, error) {
	n := len(pubs)
	if n < 1 || n > MaxMultiSigKeys || m < 1 || m > n {
		return nil, fmt.Errorf("ela: multisig %d of %d keys: want 1 ≤ m ≤ n ≤ %d", m, n, MaxMultiSigKeys)
	}
	sorted := slices.Clone(pubs)
	slices.SortFunc(sorted, compareKeys)
	for i := 1; i < n; i++ {
		if sorted[i].Equal(sorted[i-1]) {
			return nil, fmt.Errorf("ela: multisig key %s appears twice", sorted[i])
		}
	}
	script := make([]byte, 0, 3+n*(1+keys.PublicKeySize))
	script = append(script, byte(opPush1+m-1))
	for _, pub := range sorted {
		script = append(script, keys.PublicKeySize)
		script = append(script, pub.Bytes()...)
	}
	return append(script, byte(opPush1+n-1), OpCheckMultiSig), nil
}

// compareKeys orders keys by x coordinate, then by the parity byte.
func compareKeys(a, b keys.PublicKey) int {
	ab, bb := a.Bytes(), b.Bytes()
	if c := bytes.Compare(ab[1:], bb[1:]); c != 0 {
		return c
	}
	return int(ab[0]) - int(bb[0])
}

// CrossChainScript returns the script whose program hash, with prefix
// [PrefixCrossChain], is the deposit address of the side chain with that
// genesis block hash: 0x20 ‖ hash (stored byte order) ‖ [OpCrossChain]
// (Elastos.ELA core/contract/crosschain.go).
func CrossChainScript(genesis Hash) []byte {
	script := make([]byte, 0, 2+HashSize)
	script = append(script, HashSize)
	script = append(script, genesis[:]...)
	return append(script, OpCrossChain)
}

// parseStandardScript returns the key of a 0x21 ‖ key ‖ [OpCheckSig] script,
// decoded by v's [keys.ParseWith].
func parseStandardScript(code []byte, v keys.Verifier) (keys.PublicKey, bool) {
	if len(code) != 2+keys.PublicKeySize || code[0] != keys.PublicKeySize || code[len(code)-1] != OpCheckSig {
		return keys.PublicKey{}, false
	}
	pub, err := keys.ParseWith(v, code[1:1+keys.PublicKeySize])
	return pub, err == nil
}

// parseMultiSigScript returns m and the keys of a script [MultiSigScript]
// makes, or an error saying what is wrong with it.
func parseMultiSigScript(code []byte) (int, []keys.PublicKey, error) {
	const keyPush = 1 + keys.PublicKeySize
	if len(code) < 3+keyPush || code[len(code)-1] != OpCheckMultiSig {
		return 0, nil, fmt.Errorf("not a multisig script")
	}
	m := int(code[0]) - opPush1 + 1
	n := int(code[len(code)-2]) - opPush1 + 1
	body := code[1 : len(code)-2]
	switch {
	case n < 1 || n > MaxMultiSigKeys || m < 1 || m > n:
		return 0, nil, fmt.Errorf("multisig script has m=%d, n=%d", m, n)
	case len(body) != n*keyPush:
		return 0, nil, fmt.Errorf("multisig script of %d keys has %d bytes of keys, want %d", n, len(body), n*keyPush)
	}
	pubs := make([]keys.PublicKey, n)
	for i := range pubs {
		k := body[i*keyPush : (i+1)*keyPush]
		if k[0] != keys.PublicKeySize {
			return 0, nil, fmt.Errorf("multisig key %d is pushed with 0x%02x, want 0x%02x", i, k[0], keys.PublicKeySize)
		}
		pub, err := keys.ParsePublicKey(k[1:])
		if err != nil {
			return 0, nil, fmt.Errorf("multisig key %d: %w", i, err)
		}
		pubs[i] = pub
	}
	return m, pubs, nil
}
