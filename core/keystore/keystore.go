// Package keystore implements the password-sealed wallet file of the didlight tools.
//
// It is the wallet file of the didlight command-line tools: one signing key,
// from a BIP39 mnemonic (with its passphrase and DID index, derived as the
// Elastos DID SDKs do, see package hdkey) or imported as a raw key, sealed
// with a password.
//
// The file is JSON. Its public part (address, DID, public key) is readable
// without the password; the secret is encrypted with AES-256-GCM under a key
// stretched from the password with scrypt, and the public part is bound to
// it as additional data, so that an altered address fails to open like a
// wrong password does. Nothing secret is ever written in the clear.
//
// The package is pure: Seal takes its randomness from the caller.
package keystore

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"golang.org/x/crypto/scrypt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/hdkey"
	"github.com/didlight/didlight/core/keys"
)

// Version is the format version Seal writes and Open reads.
const Version = 1

// ErrPassword is returned by Open when the password does not open the
// file (or the file was altered: the two cannot be told apart).
var ErrPassword = errors.New("keystore: wrong password (or the wallet file was altered)")

// Params are the scrypt costs: N (a power of two), r and p.
type Params struct{ N, R, P int }

// DefaultParams cost about half a second and 128 MiB per open on a laptop,
// which makes guessing passwords from a stolen file slow.
var DefaultParams = Params{N: 1 << 17, R: 8, P: 1}

// Limits that Parse enforces, so that a crafted file cannot make Open use
// more than 1 GiB or run for minutes.
const (
	minN      = 1 << 10
	maxN      = 1 << 20
	maxMemory = 1 << 30 // scrypt uses 128·N·r bytes
	maxP      = 16
)

// Wallet is what a wallet file holds: a signing key and where it came from.
type Wallet struct {
	// Mnemonic, Passphrase and Index say where Key was derived (the key of
	// DID number Index); Mnemonic is "" for a key imported as is.
	Mnemonic   string
	Passphrase string
	Index      uint32
	Key        *keys.PrivateKey
}

// FromMnemonic returns the wallet of DID key number index of a mnemonic.
func FromMnemonic(mnemonic, passphrase string, index uint32) (*Wallet, error) {
	m, err := hdkey.ParseMnemonic(mnemonic)
	if err != nil {
		return nil, err
	}
	root, err := hdkey.FromMnemonic(m, passphrase)
	if err != nil {
		return nil, err
	}
	k, err := root.DIDKey(index)
	if err != nil {
		return nil, err
	}
	return &Wallet{Mnemonic: m, Passphrase: passphrase, Index: index, Key: k.PrivateKey()}, nil
}

// ProgramHash returns the standard program hash of the key, which outputs
// paying the wallet name.
func (w *Wallet) ProgramHash() ela.ProgramHash {
	return ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(w.Key.Public(), ela.OpCheckSig))
}

// DID returns the standard DID of the key.
func (w *Wallet) DID() did.DID { return did.FromKey(w.Key.Public()) }

// File is a wallet file as stored.
type File struct {
	Version   int    `json:"version"`
	Address   string `json:"address"`   // standard address (E…) of the key
	DID       string `json:"did"`       // the DID the key derives
	PublicKey string `json:"publicKey"` // base58, as DID documents write keys
	Crypto    Crypto `json:"crypto"`
}

// Crypto is the sealed secret of a File.
type Crypto struct {
	KDF        string `json:"kdf"` // "scrypt"
	N          int    `json:"n"`
	R          int    `json:"r"`
	P          int    `json:"p"`
	Salt       string `json:"salt"`   // hex, 32 bytes
	Cipher     string `json:"cipher"` // "aes-256-gcm"
	Nonce      string `json:"nonce"`  // hex, 12 bytes
	Ciphertext string `json:"ciphertext"`
}

// secret is the plaintext sealed in Crypto.
type secret struct {
	Mnemonic   string `json:"mnemonic,omitempty"`
	Passphrase string `json:"passphrase,omitempty"`
	Index      uint32 `json:"index,omitempty"`
	PrivateKey string `json:"privateKey,omitempty"` // hex; only for an imported key
}

// Seal returns the wallet file of w, encrypted with password under params,
// with salt and nonce read from rand (crypto/rand.Reader).
func Seal(w *Wallet, password []byte, params Params, rand io.Reader) ([]byte, error) {
	if err := params.check(); err != nil {
		return nil, err
	}
	pub := w.Key.Public()
	f := File{Version: Version, Address: w.ProgramHash().Address(), DID: w.DID().String(), PublicKey: pub.Base58()}
	var salt [32]byte
	var nonce [12]byte
	if _, err := io.ReadFull(rand, salt[:]); err != nil {
		return nil, fmt.Errorf("keystore: reading randomness: %w", err)
	}
	if _, err := io.ReadFull(rand, nonce[:]); err != nil {
		return nil, fmt.Errorf("keystore: reading randomness: %w", err)
	}
	f.Crypto = Crypto{KDF: "scrypt", N: params.N, R: params.R, P: params.P, Salt: hex.EncodeToString(salt[:]),
		Cipher: "aes-256-gcm", Nonce: hex.EncodeToString(nonce[:])}
	s := secret{Mnemonic: w.Mnemonic, Passphrase: w.Passphrase, Index: w.Index}
	if w.Mnemonic == "" {
		s.PrivateKey = hex.EncodeToString(w.Key.Bytes())
	}
	plain, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	aead, err := f.aead(password, salt[:])
	if err != nil {
		return nil, err
	}
	f.Crypto.Ciphertext = hex.EncodeToString(aead.Seal(nil, nonce[:], plain, f.additionalData()))
	return json.MarshalIndent(f, "", "  ")
}

// Parse reads a wallet file's structure and public part, without the
// password: the address, DID and public key must agree with each other and
// the crypto parameters be within this package's limits.
func Parse(b []byte) (*File, error) {
	var f File
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("keystore: not a wallet file: %w", err)
	}
	if f.Version != Version {
		return nil, fmt.Errorf("keystore: wallet file version %d, want %d", f.Version, Version)
	}
	pub, err := keys.ParsePublicKeyBase58(f.PublicKey)
	if err != nil {
		return nil, fmt.Errorf("keystore: publicKey: %w", err)
	}
	if want := ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(pub, ela.OpCheckSig)).Address(); f.Address != want {
		return nil, fmt.Errorf("keystore: address %s is not the address %s of publicKey", excerpt.Quote(f.Address), want)
	}
	if want := did.FromKey(pub).String(); f.DID != want {
		return nil, fmt.Errorf("keystore: did %s is not the DID %s of publicKey", excerpt.Quote(f.DID), want)
	}
	c := f.Crypto
	if c.KDF != "scrypt" || c.Cipher != "aes-256-gcm" {
		return nil, fmt.Errorf("keystore: kdf %s and cipher %s, want scrypt and aes-256-gcm", excerpt.Quote(c.KDF), excerpt.Quote(c.Cipher))
	}
	if err := (Params{c.N, c.R, c.P}).check(); err != nil {
		return nil, err
	}
	for _, h := range []struct {
		name, value string
		size        int
	}{{"salt", c.Salt, 32}, {"nonce", c.Nonce, 12}, {"ciphertext", c.Ciphertext, -1}} {
		b, err := hex.DecodeString(h.value)
		if err != nil || (h.size >= 0 && len(b) != h.size) || (h.size < 0 && len(b) < 16) {
			return nil, fmt.Errorf("keystore: crypto.%s is not valid hex of the right length", h.name)
		}
	}
	return &f, nil
}

// Open decrypts a wallet file with password. A wrong password gives
// [ErrPassword]; a file whose secret does not give its public key is refused.
func Open(b []byte, password []byte) (*Wallet, error) {
	f, err := Parse(b)
	if err != nil {
		return nil, err
	}
	salt, _ := hex.DecodeString(f.Crypto.Salt)
	nonce, _ := hex.DecodeString(f.Crypto.Nonce)
	sealed, _ := hex.DecodeString(f.Crypto.Ciphertext)
	aead, err := f.aead(password, salt)
	if err != nil {
		return nil, err
	}
	plain, err := aead.Open(nil, nonce, sealed, f.additionalData())
	if err != nil {
		return nil, ErrPassword
	}
	var s secret
	if err := json.Unmarshal(plain, &s); err != nil {
		return nil, fmt.Errorf("keystore: sealed secret: %w", err)
	}
	w, err := s.wallet()
	if err != nil {
		return nil, err
	}
	if w.Key.Public().Base58() != f.PublicKey {
		return nil, errors.New("keystore: the sealed secret does not give the file's public key")
	}
	return w, nil
}

// wallet rebuilds the wallet a secret describes.
func (s secret) wallet() (*Wallet, error) {
	if s.Mnemonic != "" {
		return FromMnemonic(s.Mnemonic, s.Passphrase, s.Index)
	}
	raw, err := hex.DecodeString(s.PrivateKey)
	if err != nil {
		return nil, errors.New("keystore: sealed private key is not hex")
	}
	k, err := keys.NewPrivateKey(raw)
	if err != nil {
		return nil, fmt.Errorf("keystore: sealed private key: %w", err)
	}
	return &Wallet{Key: k}, nil
}

// aead returns the cipher keyed by scrypt(password, salt).
func (f *File) aead(password, salt []byte) (cipher.AEAD, error) {
	c := f.Crypto
	key, err := scrypt.Key(password, salt, c.N, c.R, c.P, 32)
	if err != nil {
		return nil, fmt.Errorf("keystore: scrypt: %w", err)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// additionalData binds the public part to the ciphertext.
func (f *File) additionalData() []byte {
	return fmt.Appendf(nil, "didlight wallet %d\n%s\n%s\n%s", f.Version, f.Address, f.DID, f.PublicKey)
}

// check refuses costs outside the limits.
func (p Params) check() error {
	switch {
	case p.N < minN || p.N > maxN || p.N&(p.N-1) != 0:
		return fmt.Errorf("keystore: scrypt N %d: want a power of two from %d to %d", p.N, minN, maxN)
	case p.R < 1 || p.P < 1 || p.P > maxP || p.R > maxMemory/(128*p.N):
		return fmt.Errorf("keystore: scrypt r %d, p %d: want r ≥ 1, 1 ≤ p ≤ %d and 128·N·r ≤ 1 GiB", p.R, p.P, maxP)
	}
	return nil
}
