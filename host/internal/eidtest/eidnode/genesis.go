// Package eidnode runs a private EID chain from a geth binary built out of tree.
//
// It runs a private clique chain of EID, the Elastos identity chain (a
// go-ethereum 1.9.7 fork), from a geth binary built out of tree, inside the
// caller's own network namespace.
package eidnode

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

// Genesis describes a private EID chain sealed by clique with one signer.
type Genesis struct {
	ChainID uint64 // neither 22 (mainnet) nor 23 (testnet)
	Period  uint64 // clique's seconds between blocks; 0 seals only when transactions wait
	Signer  string // the sealer's address, 0x and 40 hex digits; funded in the allocation
	// MaxExpiredHeight is how many blocks after its expiry a customized DID
	// may be created again (EID params/config.go; mainnet 6307200).
	MaxExpiredHeight uint64
	GasLimit         uint64 // of the genesis block
}

// DefaultChainID is the chain id of the chains this package starts.
const DefaultChainID = 7203

// JSON returns the genesis file geth init reads. Beside the forks of
// go-ethereum 1.9.7 (all at block 0), it sets EID's DID heights to 0 as
// shared/eid.md lists them: customizeDIDHeight (expiry checked from block
// 1, EID core/vm/didvalidator.go checkRegisterDID), oldDIDMigrateHeight,
// docArraySortHeight and checkCustomizeDIDBeginHeight (which geth overwrites
// with its flags of the same names, EID eth/backend.go: Start passes them
// too), and no pbftBlock, so clique seals every block. extraData is
// clique's: 32 vanity bytes, the signer, 65 bytes of seal.
func (g Genesis) JSON() ([]byte, error) {
	addr := strings.TrimPrefix(strings.ToLower(g.Signer), "0x")
	if b, err := hex.DecodeString(addr); err != nil || len(b) != 20 {
		return nil, fmt.Errorf("eidnode: signer %q is not an address of 20 bytes", g.Signer)
	}
	if g.ChainID == 22 || g.ChainID == 23 || g.ChainID == 0 {
		return nil, fmt.Errorf("eidnode: chain id %d is mainnet's, testnet's or none: choose another", g.ChainID)
	}
	type clique struct {
		Period uint64 `json:"period"`
		Epoch  uint64 `json:"epoch"`
	}
	config := map[string]any{
		"chainId":                      g.ChainID,
		"homesteadBlock":               0,
		"eip150Block":                  0,
		"eip155Block":                  0,
		"eip158Block":                  0,
		"byzantiumBlock":               0,
		"constantinopleBlock":          0,
		"petersburgBlock":              0,
		"istanbulBlock":                0,
		"clique":                       clique{Period: g.Period, Epoch: 30000},
		"customizeDIDHeight":           0,
		"oldDIDMigrateHeight":          0,
		"docArraySortHeight":           0,
		"checkCustomizeDIDBeginHeight": 0,
		"maxExpiredHeight":             g.MaxExpiredHeight,
	}
	doc := map[string]any{
		"config":     config,
		"difficulty": "0x1",
		"gasLimit":   fmt.Sprintf("0x%x", g.GasLimit),
		"extraData":  "0x" + strings.Repeat("00", 32) + addr + strings.Repeat("00", 65),
		"alloc":      map[string]any{"0x" + addr: map[string]string{"balance": "0x33b2e3c9fd0803ce8000000"}}, // 10^27 wei
	}
	return json.MarshalIndent(doc, "", "  ")
}
