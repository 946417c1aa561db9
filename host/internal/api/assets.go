package api

import (
	"net/http"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/wire"
)

// balances is the address's balance of the chain's native asset, a decimal
// string with 8 places.
func (s *Server) balances(r *http.Request) (any, *restError) {
	addr, err := addrParam(r)
	if err != nil {
		return nil, err
	}
	return s.balance(addr, ela.ELAAssetID())
}

// balanceByAsset is the address's balance of one asset (deprecated).
func (s *Server) balanceByAsset(r *http.Request) (any, *restError) {
	addr, asset, err := addrAssetParams(r)
	if err != nil {
		return nil, err
	}
	return s.balance(addr, asset)
}

// addrAssetParams reads the address and asset id of the deprecated paths.
func addrAssetParams(r *http.Request) (ela.ProgramHash, ela.Hash, *restError) {
	addr, err := addrParam(r)
	if err != nil {
		return addr, ela.Hash{}, err
	}
	asset, err := hashParam(r, "assetid")
	return addr, asset, err
}

func toUTXO(u chain.UTXO) wire.UTXO {
	return wire.UTXO{Txid: u.Txid.String(), Index: u.Index, Value: u.Value.String()}
}

// utxos lists the address's unspent outputs grouped by asset, in the order
// the chain lists them.
func (s *Server) utxos(r *http.Request) (any, *restError) {
	addr, err := addrParam(r)
	if err != nil {
		return nil, err
	}
	all, err := s.unspent(addr)
	if err != nil {
		return nil, err
	}
	groups := []wire.AssetUTXOs{}
	at := map[ela.Hash]int{}
	for _, u := range all {
		i, ok := at[u.Asset]
		if !ok {
			a, err := s.assetInfo(u.Asset)
			if err != nil {
				return nil, err
			}
			i = len(groups)
			at[u.Asset] = i
			groups = append(groups, wire.AssetUTXOs{AssetID: u.Asset.String(), AssetName: a.Name})
		}
		groups[i].UTXO = append(groups[i].UTXO, toUTXO(u))
	}
	return groups, nil
}

// utxosByAsset lists the address's unspent outputs of one asset
// (deprecated).
func (s *Server) utxosByAsset(r *http.Request) (any, *restError) {
	addr, asset, err := addrAssetParams(r)
	if err != nil {
		return nil, err
	}
	all, err := s.unspent(addr)
	if err != nil {
		return nil, err
	}
	out := []wire.UTXO{}
	for _, u := range all {
		if u.Asset == asset {
			out = append(out, toUTXO(u))
		}
	}
	return out, nil
}

// asset describes the chain's native asset whatever the (well-formed) hash,
// as ELA does (Elastos.ELA servers/interfaces.go, GetAssetByHash).
// Deprecated in the interface.
func (s *Server) asset(r *http.Request) (any, *restError) {
	if _, err := hashParam(r, "hash"); err != nil {
		return nil, err
	}
	return s.assetInfo(ela.ELAAssetID())
}

func (s *Server) assetInfo(id ela.Hash) (*ela.Asset, *restError) {
	a, err := s.chain.Asset(id)
	if err != nil {
		return nil, s.chainError(err, internalError, "asset %s", id)
	}
	return a, nil
}
