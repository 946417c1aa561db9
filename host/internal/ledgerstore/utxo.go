package ledgerstore

import "github.com/didlight/didlight/core/ela"

// UTXO is an unspent output of an address, with what the chain knows of
// it: what listunspent shows (Elastos.ELA.SideChain.ID service/service.go,
// ListUnspent).
type UTXO struct {
	Address    ela.ProgramHash
	Txid       ela.Hash
	Index      uint16
	Asset      ela.Hash
	Value      ela.Fixed64
	OutputLock uint32     // the output's lock height (0: none)
	TxType     ela.TxType // the type of the transaction that made it
	Height     uint32     // the height of the block holding that transaction
	// Confirmations counts the blocks from that one to the tip, both
	// included.
	Confirmations uint32
}
