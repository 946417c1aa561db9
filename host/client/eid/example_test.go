package eid_test

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/host/client/eid"
)

// A light resolver asks an EID node for a DID's history, raw as
// core/resolve verifies it, and for the chain's head, whose time is the
// one expiry is judged by. Here an imitation of an EID node on loopback
// stands in for eid.Mainnet().
func Example() {
	n := startNode(eid.MainnetChainID, 1174650)
	defer n.Close()
	network, err := eid.ParseNetwork(n.URL)
	if err != nil {
		panic(err)
	}
	c, err := eid.New(eid.Config{Network: network})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	d, _ := did.Parse("did:elastos:iop7hwsiP3uDuf5TjvZxGB44tUTvuj2vQS")
	raw, err := c.ResolveDID(ctx, d, true)
	if err != nil {
		panic(err)
	}
	var r struct {
		Status      int `json:"status"`
		Transaction []struct {
			Txid string `json:"txid"`
		} `json:"transaction"`
	}
	json.Unmarshal(raw, &r)
	fmt.Println("status", r.Status, "txid", r.Transaction[0].Txid)

	head, err := c.Head(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println("head", head.Number, head.Time.Format(time.RFC3339))
	// Output:
	// status 0 txid fb861ddaf27b371a66d0ac456bebe88b23ac95fbfa1f3bfe7e4a8b4b71caa78d
	// head 1174650 2021-08-24T15:27:30Z
}

// Recognize tells what serves at a URL that a user gave, so that one flag
// takes an EID node or a didlight node.
func ExampleRecognize() {
	n := startNode(eid.MainnetChainID, 100)
	defer n.Close()
	up, err := eid.Recognize(context.Background(), n.URL, nil)
	fmt.Println(up.Kind, up.ChainID, err)
	// Output: EID 22 <nil>
}

// The keywords stand for the SDKs' public endpoints, with their chain.
func ExampleParseNetwork() {
	n, _ := eid.ParseNetwork("mainnet")
	fmt.Println(n.ChainID, n.Endpoints)
	// Output: 22 [https://api.elastos.io/eid https://api.trinity-tech.io/eid]
}
