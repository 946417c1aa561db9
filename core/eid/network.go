package eid

import (
	"strings"
	"time"
)

// Network is what verifying an EID chain's answers needs to know of it:
// which of its blocks it did not check all of what it recorded.
type Network struct {
	ChainID uint64
	// MigrationEnd is the last block of the migration window, in which
	// the chain took creates and updates of standard DIDs from
	// MigrationSender alone and checked only their signatures
	// (idop.ValidateMigrated): the retired ID chain's DIDs re-published.
	// EID compares with <= (core/vm/did_contracts.go, operationDID.Run).
	MigrationEnd uint64
	// MigrationSender is the only sender of the window, 0x and 40 hex
	// digits (compared case-insensitively); empty: no window.
	MigrationSender string
	// MigrationBefore bounds the time of block MigrationEnd: no operation
	// stamped after it is from the window, so none is asked about. Zero:
	// no bound is known.
	MigrationBefore time.Time
	// CustomizeDIDHeight is the last block at which the chain did not
	// check that a standard DID's new document expires after the block
	// time (core/vm/didvalidator.go, checkRegisterDID compares with >).
	CustomizeDIDHeight uint64
}

// migrationSender is EID's default --olddidmigrateaddr
// (cmd/utils/flags.go, OldDIDMigrateAddrFlag).
const migrationSender = "0xFEca85Ac94C1c9ef6e1293fc1F94486305420D7f"

// The public EID networks (Elastos.ELA.SideChain.EID params/config.go for
// chain ids and CustomizeDIDHeight; cmd/utils/flags.go for the migration
// window: --olddidmigrateheight defaults to 34,560 and testnet sets 1).
//
// Mainnet's window ended before block 1,174,647, which was mined by
// 2021-08-31T23:20:21Z: a publishing service recorded its receipt then
// (core/internal/vectors/data/eid), and block times grow with height.
var (
	Mainnet = Network{ChainID: 22, MigrationEnd: 34_560, MigrationSender: migrationSender,
		MigrationBefore: time.Date(2021, 8, 31, 23, 20, 21, 0, time.UTC), CustomizeDIDHeight: 3_095_000}
	Testnet = Network{ChainID: 23, MigrationEnd: 1, MigrationSender: migrationSender, CustomizeDIDHeight: 2_823_000}
)

// NetworkOf returns the network of a chain id: Mainnet, Testnet, or for
// any other chain (a private one) a network that checked everything, whose
// every exception would be called a forgery. A private chain run with
// other settings is described by a Network of its own.
func NetworkOf(chainID uint64) Network {
	switch chainID {
	case Mainnet.ChainID:
		return Mainnet
	case Testnet.ChainID:
		return Testnet
	}
	return Network{ChainID: chainID}
}

// mayBeMigrated reports whether an operation stamped t may be from the
// migration window.
func (n Network) mayBeMigrated(t time.Time) bool {
	return n.MigrationSender != "" && (n.MigrationBefore.IsZero() || !t.After(n.MigrationBefore))
}

// migrated reports whether a transaction of block height from sender was
// in the migration window.
func (n Network) migrated(height uint64, sender string) bool {
	return n.MigrationSender != "" && height <= n.MigrationEnd && strings.EqualFold(sender, n.MigrationSender)
}
