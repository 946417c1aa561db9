// Package wire declares the JSON shapes that the node's interface writes and its client reads.
//
// Each shape is declared once, here, so that the server (host/internal/api)
// and the public client (host/client) cannot drift apart. A shape whose
// parts one side reads less closely than the other writes them takes those
// parts as type parameters: the server writes its neighbors in full, the
// client keeps them raw.
package wire

import "github.com/didlight/didlight/core/ela"

// UnspentOutput is an element of listunspent's result
// (Elastos.ELA.SideChain.ID service/service.go, ListUnspent's UTXOInfo),
// with the main chain's txtype (Elastos.ELA servers/common.go, UTXOInfo).
type UnspentOutput struct {
	AssetID       string     `json:"assetid"`
	Txid          string     `json:"txid"`
	VOut          uint16     `json:"vout"`
	Address       string     `json:"address"`
	Amount        string     `json:"amount"`
	Confirmations uint32     `json:"confirmations"`
	OutputLock    uint32     `json:"outputlock"`
	TxType        ela.TxType `json:"txtype"`
}

// RPCNodeState is getnodestate's result (Elastos.ELA.SideChain.ID
// service/types.go, ServerInfo), its neighbors of type N.
type RPCNodeState[N any] struct {
	Compile   string `json:"compile"`
	Height    uint32 `json:"height"`
	Version   uint32 `json:"version"`
	Services  string `json:"services"`
	Port      int    `json:"port"`
	RPCPort   int    `json:"rpcport"`
	RESTPort  int    `json:"restport"`
	WSPort    int    `json:"wsport"`
	Neighbors []N    `json:"neighbors"`
}

// PeerInfo is a neighbor in getnodestate (Elastos.ELA.SideChain.ID
// service/types.go, PeerInfo).
type PeerInfo struct {
	NetAddress     string `json:"netaddress"`
	Services       string `json:"services"`
	RelayTx        bool   `json:"relaytx"`
	LastSend       string `json:"lastsend"`
	LastRecv       string `json:"lastrecv"`
	ConnTime       string `json:"conntime"`
	TimeOffset     int64  `json:"timeoffset"`
	Version        uint32 `json:"version"`
	Inbound        bool   `json:"inbound"`
	StartingHeight uint32 `json:"startingheight"`
	LastBlock      uint32 `json:"lastblock"`
	LastPingTime   string `json:"lastpingtime"`
	LastPingMicros int64  `json:"lastpingmicros"`
}

// NodeState is the REST node state (GET /node/state), members in the
// interface's order, its neighbors of type N and a light node's own state
// of type L (absent on other nodes).
type NodeState[N, L any] struct {
	Compile     string `json:"Compile"`
	ID          uint64 `json:"ID"`
	HexID       string `json:"HexID"`
	Height      uint32 `json:"Height"`
	Version     int    `json:"Version"`
	Services    uint64 `json:"Services"`
	Relay       bool   `json:"Relay"`
	TxnCnt      uint64 `json:"TxnCnt"`
	RxTxnCnt    uint64 `json:"RxTxnCnt"`
	Port        int    `json:"Port"`
	RPCPort     int    `json:"PRCPort"` // so named by the Elastos nodes
	RESTPort    int    `json:"RestPort"`
	WSPort      int    `json:"WSPort"`
	OpenPort    int    `json:"OpenPort"`
	OpenService bool   `json:"OpenService"`
	Neighbors   []N    `json:"Neighbors"`
	Light       L      `json:"Light,omitempty"`
}

// RESTEnvelope is every REST answer: {"Desc","Error","Result"}, in the
// order ELA writes them (it marshals a map, so alphabetically). The server
// writes its error code as C and any result; the client reads C as *int,
// to tell an answer without one (not a node's) from success.
type RESTEnvelope[C, R any] struct {
	Desc   string `json:"Desc"`
	Error  C      `json:"Error"`
	Result R      `json:"Result"`
}

// AssetUTXOs is one asset's unspent outputs of an address, as
// /asset/utxos lists them.
type AssetUTXOs struct {
	AssetID   string `json:"AssetId"`
	AssetName string `json:"AssetName"`
	UTXO      []UTXO `json:"Utxo"`
}

// UTXO is an unspent output in [AssetUTXOs].
type UTXO struct {
	Txid  string `json:"Txid"`
	Index uint16 `json:"Index"`
	Value string `json:"Value"`
}

// Block names a block as the devnet controls (dev_mine, dev_revert,
// dev_reset) answer: its height and hash.
type Block struct {
	Height uint32 `json:"height"`
	Hash   string `json:"hash"`
}
