package hdkey

import (
	"crypto/pbkdf2"
	"crypto/sha256"
	"crypto/sha512"
	_ "embed"
	"fmt"
	"slices"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// english.txt is the BIP39 English wordlist, 2048 words in order, byte for
// byte the file bip-0039/english.txt of the bitcoin/bips repository (SHA-256
// 2f5eed53a4727b4bf8880d8f3f199efc90e58503646d9ff8eff3a2ed3b24dbda), which
// the npm package bip39 the Elastos DID SDKs use ships as
// src/wordlists/english.json.
//
//go:embed english.txt
var englishText string

// wordlist holds the words in order; the list is sorted, so a word's index
// is found by binary search.
var wordlist = strings.Split(strings.TrimSuffix(englishText, "\n"), "\n")

// MnemonicError says why a text is not a valid BIP39 English mnemonic.
type MnemonicError struct {
	Word int    // 1-based position of the offending word; 0 when about the whole text
	Text string // the offending word, if any
	Msg  string
}

func (e *MnemonicError) Error() string {
	if e.Word > 0 {
		return fmt.Sprintf("hdkey: mnemonic word %d %s: %s", e.Word, excerpt.Quote(e.Text), e.Msg)
	}
	return "hdkey: mnemonic: " + e.Msg
}

// NewMnemonic returns the mnemonic of entropy: 16, 20, 24, 28 or 32 bytes
// give 12, 15, 18, 21 or 24 words. The caller supplies the entropy, from a
// cryptographic random source.
func NewMnemonic(entropy []byte) (string, error) {
	n := len(entropy)
	if n < 16 || n > 32 || n%4 != 0 {
		return "", fmt.Errorf("hdkey: entropy is %d bytes, want 16, 20, 24, 28 or 32", n)
	}
	sum := sha256.Sum256(entropy)
	bits := append(slices.Clip(entropy), sum[0]) // checksum: the first n/4 bits of the hash
	words := make([]string, (n*8+n/4)/11)
	for i := range words {
		words[i] = wordlist[readBits(bits, i*11)]
	}
	return strings.Join(words, " "), nil
}

// readBits returns the 11-bit big-endian number starting at bit off of b.
func readBits(b []byte, off int) int {
	v := 0
	for i := off; i < off+11; i++ {
		v = v<<1 | int(b[i/8]>>(7-i%8)&1)
	}
	return v
}

// ParseMnemonic checks a BIP39 English mnemonic (12, 15, 18, 21 or 24 words
// of the list, with a valid checksum) and returns its canonical form: the
// words in lower case, separated by single spaces, which is what the seed is
// computed from. Errors are *MnemonicError.
func ParseMnemonic(s string) (string, error) {
	words := strings.Fields(strings.ToLower(s))
	n := len(words)
	if n < 12 || n > 24 || n%3 != 0 {
		return "", &MnemonicError{Msg: fmt.Sprintf("%d words, want 12, 15, 18, 21 or 24", n)}
	}
	bits := make([]byte, (n*11+7)/8)
	for i, w := range words {
		idx, ok := slices.BinarySearch(wordlist, w)
		if !ok {
			return "", &MnemonicError{Word: i + 1, Text: w, Msg: "not in the BIP39 English wordlist"}
		}
		for j := range 11 {
			if idx>>(10-j)&1 == 1 {
				k := i*11 + j
				bits[k/8] |= 1 << (7 - k%8)
			}
		}
	}
	entropy := bits[:n*4/3]
	sum := sha256.Sum256(entropy)
	checkBits := n / 3
	got := int(bits[len(entropy)]) >> (8 - checkBits)
	if want := int(sum[0]) >> (8 - checkBits); got != want {
		return "", &MnemonicError{Msg: "checksum does not match: a word is wrong or out of order"}
	}
	return strings.Join(words, " "), nil
}

// Seed returns the 64-byte BIP39 seed of a mnemonic and passphrase:
// PBKDF2-HMAC-SHA512 of the canonical mnemonic, salt "mnemonic" ‖
// passphrase, 2048 iterations. BIP39 normalizes both to Unicode NFKD; this
// package carries no Unicode tables, so a passphrase outside ASCII (where
// NFKD changes nothing) is refused rather than silently giving other keys
// than the SDKs.
func Seed(mnemonic, passphrase string) ([]byte, error) {
	m, err := ParseMnemonic(mnemonic)
	if err != nil {
		return nil, err
	}
	for i := range len(passphrase) {
		if passphrase[i] >= 0x80 {
			return nil, fmt.Errorf("hdkey: passphrase byte %d is not ASCII; only ASCII passphrases are supported", i)
		}
	}
	return pbkdf2.Key(sha512.New, m, []byte("mnemonic"+passphrase), 2048, 64)
}
