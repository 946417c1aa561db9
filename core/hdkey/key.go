package hdkey

import (
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
	"github.com/mr-tron/base58"
	"golang.org/x/crypto/ripemd160" //lint:ignore SA1019 the protocol's hash160 is RIPEMD-160

	"github.com/didlight/didlight/core/keys"
)

// Hardened is added to a child index for hardened derivation (written i').
const Hardened uint32 = 0x80000000

// DIDPath is the path of the SDKs' DID keys without its last index:
// the key of DID number i is at [DIDPath] + i (Elastos.DID.JS.SDK
// src/crypto/hdkey.ts, DERIVE_PATH_PREFIX).
const DIDPath = "m/44'/0'/0'/0/"

// Extended key versions, as Bitcoin's and the SDKs' ("xprv", "xpub").
const (
	versionPrivate uint32 = 0x0488ade4
	versionPublic  uint32 = 0x0488b21e
)

// serializedSize is a BIP32 serialization; base58check adds 4 bytes.
const serializedSize = 78

// order is the order n of the P-256 group.
var order = elliptic.P256().Params().N

// Key is a BIP32 extended private key on P-256: a private key and the chain
// code its children are derived with, and where it sits in the tree.
type Key struct {
	priv      *keys.PrivateKey
	chainCode [32]byte
	depth     uint8
	parent    uint32 // fingerprint of the parent key; 0 for a master key
	index     uint32
}

// NewMaster returns the master key of a BIP39 seed (16 to 64 bytes):
// HMAC-SHA512 keyed "Bitcoin seed", as the SDKs compute it on P-256 too.
func NewMaster(seed []byte) (*Key, error) {
	if len(seed) < 16 || len(seed) > 64 {
		return nil, fmt.Errorf("hdkey: seed is %d bytes, want 16 to 64", len(seed))
	}
	mac := hmac.New(sha512.New, []byte("Bitcoin seed"))
	mac.Write(seed)
	sum := mac.Sum(nil)
	priv, err := keys.NewPrivateKey(sum[:32])
	if err != nil {
		return nil, errors.New("hdkey: the seed gives an invalid master key; use another seed")
	}
	k := &Key{priv: priv}
	copy(k.chainCode[:], sum[32:])
	return k, nil
}

// FromMnemonic returns the master key of a mnemonic and passphrase (see Seed).
func FromMnemonic(mnemonic, passphrase string) (*Key, error) {
	seed, err := Seed(mnemonic, passphrase)
	if err != nil {
		return nil, err
	}
	return NewMaster(seed)
}

// Child returns child i of k; i ≥ Hardened derives a hardened child.
// In the rare case that i gives no valid key, BIP32 (and the SDKs) move on
// to i+1, so the result's Index may be larger than i.
func (k *Key) Child(i uint32) (*Key, error) {
	if k.depth == 255 {
		return nil, errors.New("hdkey: a key at depth 255 has no children")
	}
	for ; ; i++ {
		var data []byte
		if i >= Hardened {
			data = append([]byte{0}, k.priv.Bytes()...)
		} else {
			data = k.priv.Public().Bytes()
		}
		data = binary.BigEndian.AppendUint32(data, i)
		mac := hmac.New(sha512.New, k.chainCode[:])
		mac.Write(data)
		sum := mac.Sum(nil)
		tweak := new(big.Int).SetBytes(sum[:32])
		if tweak.Cmp(order) >= 0 {
			continue
		}
		scalar := tweak.Add(tweak, new(big.Int).SetBytes(k.priv.Bytes()))
		scalar.Mod(scalar, order)
		if scalar.Sign() == 0 {
			continue
		}
		priv, err := keys.NewPrivateKey(scalar.FillBytes(make([]byte, 32)))
		if err != nil {
			return nil, fmt.Errorf("hdkey: child %d: %w", i, err)
		}
		c := &Key{priv: priv, depth: k.depth + 1, parent: k.Fingerprint(), index: i}
		copy(c.chainCode[:], sum[32:])
		return c, nil
	}
}

// Derive follows a path such as "m/44'/0'/0'/0/3" from k, which must be the
// master key when the path starts with "m" (a relative path such as "0/3"
// starts from k itself). A trailing ' or h marks a hardened index.
func (k *Key) Derive(path string) (*Key, error) {
	parts := strings.Split(path, "/")
	if parts[0] == "m" || parts[0] == "M" {
		if k.depth != 0 {
			return nil, fmt.Errorf("hdkey: path %s starts at the master key, but this key is at depth %d", excerpt.Quote(path), k.depth)
		}
		parts = parts[1:]
	}
	key := k
	for _, p := range parts {
		i, err := parseIndex(p)
		if err != nil {
			return nil, fmt.Errorf("hdkey: path %s: %w", excerpt.Quote(path), err)
		}
		if key, err = key.Child(i); err != nil {
			return nil, err
		}
	}
	return key, nil
}

// parseIndex reads one path element: a decimal index below 2^31, followed
// by ' or h when hardened.
func parseIndex(p string) (uint32, error) {
	hardened := strings.HasSuffix(p, "'") || strings.HasSuffix(p, "h") || strings.HasSuffix(p, "H")
	if hardened {
		p = p[:len(p)-1]
	}
	n, err := strconv.ParseUint(p, 10, 31)
	if err != nil || (len(p) > 1 && p[0] == '0') {
		return 0, fmt.Errorf("element %s is not an index below 2^31", excerpt.Quote(p))
	}
	if hardened {
		return uint32(n) + Hardened, nil
	}
	return uint32(n), nil
}

// DIDKey returns the key of DID number index, at [DIDPath] + index from the
// master key k, as the SDKs' RootIdentity derives it.
func (k *Key) DIDKey(index uint32) (*Key, error) {
	if index >= Hardened {
		return nil, fmt.Errorf("hdkey: DID index %d is not below 2^31", index)
	}
	return k.Derive(DIDPath + strconv.FormatUint(uint64(index), 10))
}

// PrivateKey returns the key for signing.
func (k *Key) PrivateKey() *keys.PrivateKey { return k.priv }

// Public returns the public key.
func (k *Key) Public() keys.PublicKey { return k.priv.Public() }

// Depth returns how many derivations separate k from its master key.
func (k *Key) Depth() uint8 { return k.depth }

// Index returns the child index k was derived with (0 for a master key).
func (k *Key) Index() uint32 { return k.index }

// Fingerprint returns the first four bytes of HASH160 of the public key,
// which a child's serialization names as its parent.
func (k *Key) Fingerprint() uint32 {
	sha := sha256.Sum256(k.Public().Bytes())
	h := ripemd160.New()
	h.Write(sha[:])
	return binary.BigEndian.Uint32(h.Sum(nil))
}

// ExtendedPrivate returns the base58check "xprv…" serialization, which
// holds the private key: treat it as a secret.
func (k *Key) ExtendedPrivate() string {
	return k.serialize(versionPrivate, append([]byte{0}, k.priv.Bytes()...))
}

// ExtendedPublic returns the base58check "xpub…" serialization.
func (k *Key) ExtendedPublic() string {
	return k.serialize(versionPublic, k.Public().Bytes())
}

// serialize writes version, depth, parent fingerprint, index, chain code and
// the 33-byte key, then the checksum.
func (k *Key) serialize(version uint32, key []byte) string {
	b := binary.BigEndian.AppendUint32(make([]byte, 0, serializedSize+4), version)
	b = append(b, k.depth)
	b = binary.BigEndian.AppendUint32(b, k.parent)
	b = binary.BigEndian.AppendUint32(b, k.index)
	b = append(b, k.chainCode[:]...)
	b = append(b, key...)
	sum := keys.DoubleSHA256(b)
	return base58.Encode(append(b, sum[:4]...))
}

// ParseExtended reads an "xprv…" extended private key, as ExtendedPrivate
// writes it and the SDKs export it, chain code and position included.
func ParseExtended(s string) (*Key, error) {
	b, err := keys.DecodeBase58(s, serializedSize+4)
	if err != nil {
		return nil, fmt.Errorf("hdkey: extended key is not base58: %w", err)
	}
	if len(b) != serializedSize+4 {
		return nil, fmt.Errorf("hdkey: extended key is %d bytes, want %d", len(b), serializedSize+4)
	}
	if sum := keys.DoubleSHA256(b[:serializedSize]); string(sum[:4]) != string(b[serializedSize:]) {
		return nil, errors.New("hdkey: extended key checksum does not match")
	}
	switch v := binary.BigEndian.Uint32(b); {
	case v == versionPublic:
		return nil, errors.New("hdkey: this is an extended public key (xpub); a private one (xprv) is needed")
	case v != versionPrivate:
		return nil, fmt.Errorf("hdkey: extended key version 0x%08x is not xprv", v)
	case b[45] != 0:
		return nil, fmt.Errorf("hdkey: extended key byte 45 is 0x%02x, want 0x00 before the private key", b[45])
	}
	priv, err := keys.NewPrivateKey(b[46:78])
	if err != nil {
		return nil, fmt.Errorf("hdkey: extended key: %w", err)
	}
	k := &Key{priv: priv, depth: b[4], parent: binary.BigEndian.Uint32(b[5:]), index: binary.BigEndian.Uint32(b[9:])}
	copy(k.chainCode[:], b[13:45])
	if k.depth == 0 && (k.parent != 0 || k.index != 0) {
		return nil, errors.New("hdkey: extended key at depth 0 names a parent or an index")
	}
	return k, nil
}
