package ela

// The identity chain's genesis (Elastos.ELA.SideChain.ID params/params.go):
// one transaction registering the ELA asset, in a block stamped
// 2018-06-30T12:00:00Z.
const (
	genesisTime  = 1530360000
	genesisBits  = 0x1d03ffff
	genesisNonce = 3194347904
)

// ELAAsset returns the transaction that registers the ELA asset: type
// [RegisterAsset], name "ELA", precision 8, amount 0, zero controller and
// nothing else. Its hash is the ELA asset id of the main chain and of every
// side chain.
func ELAAsset() *Tx {
	return &Tx{
		Payload:    &RegisterAsset{Asset: Asset{Name: "ELA", Precision: 8}},
		Attributes: []Attribute{},
		Inputs:     []Input{},
		Outputs:    []Output{},
		Programs:   []Program{},
	}
}

// ELAAssetID returns the asset id of ELA, the hash of [ELAAsset]:
// a3d0eaa466df74983b5d7c543de6904f4c9418ead5ffd6d25814234a96db37b0.
func ELAAssetID() Hash { return ELAAsset().Hash() }

// GenesisBlock returns the identity chain's genesis block, whose hash is
// 56be936978c261b2e649d58dbfaf3f23d4a868274f5522cd2adb4308a955c4a3. Its
// AuxPow is the all-zero form, which a development chain's blocks may reuse
// as they are not merge-mined.
func GenesisBlock() *Block {
	asset := ELAAsset()
	return &Block{
		Header: Header{
			MerkleRoot: asset.Hash(),
			Timestamp:  genesisTime,
			Bits:       genesisBits,
			Nonce:      genesisNonce,
			AuxPow:     emptyAuxPow(),
		},
		Transactions: []*Tx{asset},
	}
}
