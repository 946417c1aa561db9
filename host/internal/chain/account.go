package chain

import (
	"crypto/sha256"
	"strconv"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
)

// DefaultDevSeed is the seed of the dev account and the arbiter keys when
// Config.DevSeed is empty. Everything derived from it is public: a devnet
// holds nothing of value.
const DefaultDevSeed = "didlight"

// DevFunds is what the genesis coinbase pays the dev account.
const DevFunds = 10_000_000 * ela.OneELA

// GenesisTime is the timestamp of every genesis block: 2026-01-01T00:00:00Z.
var GenesisTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Account is a standard single-key account: its key and address.
type Account struct {
	Address     string          // base58 address, E…
	ProgramHash ela.ProgramHash // what the address encodes
	PublicKey   keys.PublicKey
	PrivateKey  *keys.PrivateKey
	Seed        string // the seed the key was derived from
}

func newAccount(priv *keys.PrivateKey, seed string) Account {
	ph := ela.ToProgramHash(ela.PrefixStandard, ela.SingleKeyScript(priv.Public(), ela.OpCheckSig))
	return Account{Address: ph.Address(), ProgramHash: ph, PublicKey: priv.Public(), PrivateKey: priv, Seed: seed}
}

// DevKey returns the dev account's key for a seed:
// SHA-256("didlight dev account:" + seed), hashed again until it is a valid
// P-256 scalar.
func DevKey(seed string) *keys.PrivateKey { return derive("didlight dev account:" + seed) }

// ArbiterKey returns the key of arbiter i (from 0) for a seed:
// SHA-256("didlight arbiter " + i + ":" + seed), hashed again until it is a
// valid P-256 scalar. Arbiter 0 sponsors every block's confirm and is paid
// its coinbase.
func ArbiterKey(seed string, i int) *keys.PrivateKey {
	return derive("didlight arbiter " + strconv.Itoa(i) + ":" + seed)
}

func derive(text string) *keys.PrivateKey {
	h := sha256.Sum256([]byte(text))
	for {
		if k, err := keys.NewPrivateKey(h[:]); err == nil {
			return k
		}
		h = sha256.Sum256(h[:])
	}
}
