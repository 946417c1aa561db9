// Package follow makes a node follow an upstream node's chain.
//
// It makes a node follow another: a Follower polls an upstream didlight (or
// Elastos-compatible) node's REST API for its height, fetches each block it
// lacks with its transactions in full and its DPoS confirm, rebuilds them
// byte for byte from their JSON (core/ela), checks that each hashes to what
// the upstream states, and hands them to a follower's chain
// (chain.Chain.Apply), which validates them with its own rules. Writes sent
// to the follower (a broadcast transaction, a DID-SDK request) are relayed
// to the upstream and answered with its answer.
//
// A follower names itself in every request to its upstream with the header
// X-Didlight-Follower (the Header constant):
//
//	X-Didlight-Follower: <node id> <REST base URL> <height>
//	X-Didlight-Follower: 0x5f1c9a0e2b7d4c31 http://10.0.0.7:20334/api/v1 1234
//
// the node id in hexadecimal as its node state shows HexID, the REST base
// URL it serves, and the height of its chain. Peers records these, so that
// the upstream's node state lists as neighbors the followers that polled it
// within the last minute; a follower lists its upstream.
package follow
