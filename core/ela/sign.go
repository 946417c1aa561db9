package ela

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"slices"

	"github.com/didlight/didlight/core/keys"
)

// A signature in a program's parameter is pushed as one 65-byte item:
// 0x40 (push 64 bytes) ‖ r ‖ s (Elastos.ELA crypto/common.go
// SignatureScriptLength).
const sigPushSize = 1 + keys.SignatureSize

func appendSigPush(param []byte, sig keys.Signature) []byte {
	return append(append(param, keys.SignatureSize), sig[:]...)
}

// signDigest is the digest every program of tx signs: SHA-256 of the
// unsigned encoding (the chain's ECDSA signs SHA-256 of the data).
func (tx *Tx) signDigest() [32]byte { return sha256.Sum256(tx.UnsignedBytes()) }

// SignStandard adds one standard program per signer: the signer's
// single-key script ([OpCheckSig]) and its signature. A program with the same
// script is replaced, so signing again after a change refreshes it.
func (tx *Tx) SignStandard(signers ...*keys.PrivateKey) {
	digest := tx.signDigest()
	for _, k := range signers {
		code := SingleKeyScript(k.Public(), OpCheckSig)
		program := Program{Code: code, Parameter: appendSigPush(nil, k.Sign(digest))}
		if i := tx.programIndex(code); i >= 0 {
			tx.Programs[i] = program
		} else {
			tx.Programs = append(tx.Programs, program)
		}
	}
	tx.sortPrograms()
}

// SignMultiSig adds the signers' signatures to the program of a multisig
// script (see [MultiSigScript]), creating it if the transaction has none.
// Several parties can sign in turn; the program is complete once it holds m
// signatures. Each signer must hold one of the script's keys and not have
// signed already.
func (tx *Tx) SignMultiSig(script []byte, signers ...*keys.PrivateKey) error {
	_, pubs, err := parseMultiSigScript(script)
	if err != nil {
		return fmt.Errorf("ela: sign multisig: %w", err)
	}
	var param []byte
	i := tx.programIndex(script)
	if i >= 0 {
		param = tx.Programs[i].Parameter
	}
	digest := tx.signDigest()
	added := slices.Clone(param)
	for _, k := range signers {
		push := appendSigPush(nil, k.Sign(digest))
		switch {
		case !slices.ContainsFunc(pubs, k.Public().Equal):
			return fmt.Errorf("ela: sign multisig: key %s is not one of the script's", k.Public())
		case hasSigPush(added, push):
			return fmt.Errorf("ela: sign multisig: key %s has signed already", k.Public())
		case len(added)/sigPushSize == len(pubs):
			return fmt.Errorf("ela: sign multisig: all %d signatures are present", len(pubs))
		}
		added = append(added, push...)
	}
	if i < 0 {
		tx.Programs = append(tx.Programs, Program{Code: slices.Clone(script)})
		i = len(tx.Programs) - 1
	}
	tx.Programs[i].Parameter = added
	tx.sortPrograms()
	return nil
}

// hasSigPush reports whether param already holds push as one of its items.
func hasSigPush(param, push []byte) bool {
	for i := 0; i+sigPushSize <= len(param); i += sigPushSize {
		if bytes.Equal(param[i:i+sigPushSize], push) {
			return true
		}
	}
	return false
}

func (tx *Tx) programIndex(code []byte) int {
	return slices.IndexFunc(tx.Programs, func(p Program) bool { return bytes.Equal(p.Code, code) })
}

// sortPrograms orders programs by code hash, as the chain sorts them before
// checking (Elastos.ELA.SideChain mempool/validator.go SortPrograms), so
// that a signed transaction has one canonical encoding.
func (tx *Tx) sortPrograms() {
	slices.SortStableFunc(tx.Programs, func(a, b Program) int {
		ha, hb := codeHash(a.Code), codeHash(b.Code)
		return bytes.Compare(ha[:], hb[:])
	})
}

// VerifyPrograms checks the transaction's signatures. referenced holds the
// program hash of the output each input spends, in input order. Every
// distinct hash among them and among the Script attributes needs exactly
// one program whose script hashes to it (prefix aside, as the chain compares
// code hashes), and every program must be such a match with valid
// signatures: a standard script with one signature, or an m-of-n multisig
// script with m to n signatures each by a different key of the script
// (Elastos.ELA.SideChain mempool/validator.go checkTransactionSignature and
// vm/func_crypto.go opCheckMultiSig). Signatures are checked with v. Every
// failure wraps [ErrSignature].
func (tx *Tx) VerifyPrograms(referenced []ProgramHash, v keys.Verifier) error {
	if len(referenced) != len(tx.Inputs) {
		return sigErrorf("%d referenced program hashes for %d inputs", len(referenced), len(tx.Inputs))
	}
	needed, err := tx.signerCodeHashes(referenced)
	if err != nil {
		return err
	}
	if len(needed) != len(tx.Programs) {
		return sigErrorf("%d signers must sign, %d programs present", len(needed), len(tx.Programs))
	}
	got := make([][20]byte, len(tx.Programs))
	for i, p := range tx.Programs {
		got[i] = codeHash(p.Code)
	}
	sortCodeHashes(needed)
	sortCodeHashes(got)
	for i := range needed {
		if needed[i] != got[i] {
			return sigErrorf("no program for signer code hash %x", needed[i])
		}
	}
	digest := tx.signDigest()
	for i, p := range tx.Programs {
		if err := verifyProgram(p, digest, v); err != nil {
			return sigErrorf("program %d: %v", i, err)
		}
	}
	return nil
}

// signerCodeHashes returns the code hashes of the distinct program hashes
// that must sign: the spent outputs' and the Script attributes'.
func (tx *Tx) signerCodeHashes(referenced []ProgramHash) ([][20]byte, error) {
	set := make(map[ProgramHash]bool, len(referenced))
	for _, h := range referenced {
		set[h] = true
	}
	for i, a := range tx.Attributes {
		if a.Usage != AttrScript {
			continue
		}
		if len(a.Data) != ProgramHashSize {
			return nil, sigErrorf("Script attribute %d holds %d bytes, want a %d-byte program hash", i, len(a.Data), ProgramHashSize)
		}
		set[ProgramHash(a.Data)] = true
	}
	out := make([][20]byte, 0, len(set))
	for h := range set {
		out = append(out, [20]byte(h[1:]))
	}
	return out, nil
}

// codeHash is a script's program hash without the prefix byte.
func codeHash(script []byte) [20]byte {
	h := ToProgramHash(0, script)
	return [20]byte(h[1:])
}

func sortCodeHashes(h [][20]byte) {
	slices.SortFunc(h, func(a, b [20]byte) int { return bytes.Compare(a[:], b[:]) })
}

func verifyProgram(p Program, digest [32]byte, v keys.Verifier) error {
	if pub, ok := parseStandardScript(p.Code, v); ok {
		if len(p.Parameter) != sigPushSize || p.Parameter[0] != keys.SignatureSize {
			return fmt.Errorf("standard program parameter is %d bytes, want 0x40 and a 64-byte signature", len(p.Parameter))
		}
		if !v.Verify(pub, digest, keys.Signature(p.Parameter[1:])) {
			return fmt.Errorf("signature by %s does not verify", pub)
		}
		return nil
	}
	m, pubs, err := parseMultiSigScript(p.Code)
	if err != nil {
		return fmt.Errorf("script %x is neither standard nor multisig: %v", p.Code, err)
	}
	return verifyMultiSig(m, pubs, p.Parameter, digest, v)
}

// verifyMultiSig requires m to n signatures, each verifying under a key of
// the script that no other signature has used.
func verifyMultiSig(m int, pubs []keys.PublicKey, param []byte, digest [32]byte, v keys.Verifier) error {
	count := len(param) / sigPushSize
	switch {
	case len(param)%sigPushSize != 0:
		return fmt.Errorf("multisig parameter of %d bytes is not a whole number of signatures", len(param))
	case count < m || count > len(pubs):
		return fmt.Errorf("%d signatures for a %d-of-%d script", count, m, len(pubs))
	}
	unused := slices.Clone(pubs)
	for i := range count {
		push := param[i*sigPushSize : (i+1)*sigPushSize]
		if push[0] != keys.SignatureSize {
			return fmt.Errorf("multisig signature %d is pushed with 0x%02x, want 0x40", i, push[0])
		}
		sig := keys.Signature(push[1:])
		k := slices.IndexFunc(unused, func(pub keys.PublicKey) bool { return v.Verify(pub, digest, sig) })
		if k < 0 {
			return fmt.Errorf("multisig signature %d verifies under no unused key of the script", i)
		}
		unused = slices.Delete(unused, k, k+1)
	}
	return nil
}

func sigErrorf(format string, args ...any) error {
	return fmt.Errorf("ela: %w: %s", ErrSignature, fmt.Sprintf(format, args...))
}
