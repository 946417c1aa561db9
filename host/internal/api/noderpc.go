package api

import (
	"fmt"

	"github.com/didlight/didlight/host/internal/follow"
	"github.com/didlight/didlight/host/internal/wire"
)

// The node's own JSON-RPC reads: its peers and its state, as the ID side
// chain node answers them (Elastos.ELA.SideChain service/service.go,
// Elastos.ELA.SideChain.ID service/service.go and types.go), and the
// probes the DID SDKs send an endpoint of the geth-based EID chain. A node
// has no peer-to-peer network: its neighbors are its upstream and the
// followers polling it (see neighbors).

// getConnectionCount answers getconnectioncount: the number of neighbors.
func (s *Server) getConnectionCount() any {
	return len(s.neighbors())
}

// getNeighbors answers getneighbors: each neighbor as "host:port
// (outbound)" for the upstream this node follows or "host:port (inbound)"
// for a follower, in the form of ELA's peer names (Elastos.ELA
// p2p/peer/peer.go, String, without protocol versions).
func (s *Server) getNeighbors() any {
	ns := s.neighbors()
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = fmt.Sprintf("%s (%s)", n.NetAddress, direction(n))
	}
	return out
}

// direction is how ELA names the side that opened a connection: this node
// reaches out to its upstream (which relays its writes); followers come in.
func direction(n follow.Neighbor) string {
	if n.Relay {
		return "outbound"
	}
	return "inbound"
}

// noServices is how ELA writes an empty service flag set (Elastos.ELA
// elanet/pact/protocol.go, ServiceFlag.String): the node offers none of the
// peer-to-peer services.
const noServices = "0x0"

// getNodeState answers getnodestate: the build, the tip's height, the
// ports served (0 for the peer-to-peer and websocket ones it has not) and
// the neighbors; the REST node state says the same in its own shape.
func (s *Server) getNodeState() any {
	ns := s.neighbors()
	peers := make([]wire.PeerInfo, len(ns))
	for i, n := range ns {
		peers[i] = wire.PeerInfo{NetAddress: n.NetAddress, Services: noServices, RelayTx: n.Relay, Inbound: !n.Relay,
			StartingHeight: n.Height, LastBlock: n.Height}
	}
	return wire.RPCNodeState[wire.PeerInfo]{
		Compile:   s.opts.Version,
		Height:    s.height(),
		Services:  noServices,
		RPCPort:   s.rpc.port(),
		RESTPort:  s.rest.port(),
		Neighbors: peers,
	}
}

// The identity of a devnet as the EID chain's developer mode gives it
// (Elastos.ELA.SideChain.EID params/config.go, AllCliqueProtocolChanges:
// chain id 20; cmd/utils/flags.go, --dev: network id 1337).
const (
	devChainID   = 20
	devNetworkID = "1337"
)

// ethBlockNumber answers eth_blockNumber: the tip's height in hex with 0x,
// as geth does; on a light node its upstream's head. The DID SDKs send it
// to check an endpoint (Elastos.DID.JS.SDK src/defaultdidadapter.ts,
// checkEndpoint).
func (s *Server) ethBlockNumber() any {
	return fmt.Sprintf("%#x", s.height())
}

// ethChainID answers eth_chainId: a devnet's, in hex with 0x; on a light
// node its upstream's (0 until the upstream has said it).
func (s *Server) ethChainID() any {
	if s.light != nil {
		id, _ := s.light.ChainID()
		return fmt.Sprintf("%#x", id)
	}
	return fmt.Sprintf("%#x", devChainID)
}

// netVersion answers net_version: a devnet's network id, in decimal.
func (s *Server) netVersion() any {
	return devNetworkID
}
