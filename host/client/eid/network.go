package eid

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// Network is the endpoints a Client asks and the chain they serve.
type Network struct {
	// Name is "mainnet" or "testnet" for the public endpoints, "" for
	// endpoints given by URL.
	Name string
	// ChainID is what every endpoint must answer eth_chainId with before it
	// is asked anything else; 0 takes the chain of the first endpoint that
	// answers, and then every other must be on the same.
	ChainID uint64
	// Endpoints are JSON-RPC URLs of EID nodes, in the order tried before
	// the first probe.
	Endpoints []string
}

// The chain ids of EID's public networks (Elastos.ELA.SideChain.EID
// params/config.go).
const (
	MainnetChainID = 22
	TestnetChainID = 23
)

// Mainnet returns EID's public mainnet endpoints, the ones the Elastos DID
// SDKs use for "mainnet" (Elastos.DID.JS.SDK src/defaultdidadapter.ts and
// Elastos.DID.Java.SDK DefaultDIDAdapter.java, MAINNET_RPC_ENDPOINTS).
func Mainnet() Network {
	return Network{Name: "mainnet", ChainID: MainnetChainID, Endpoints: []string{
		"https://api.elastos.io/eid",
		"https://api.trinity-tech.io/eid",
	}}
}

// Testnet returns EID's public testnet endpoints, as the SDKs list them
// for "testnet".
func Testnet() Network {
	return Network{Name: "testnet", ChainID: TestnetChainID, Endpoints: []string{
		"https://api-testnet.elastos.io/eid",
		"https://api-testnet.trinity-tech.io/eid",
	}}
}

// ParseNetwork reads the endpoints a user names: the keyword mainnet or
// testnet alone (in any case, as the SDKs read it), or one or more http or
// https URLs of JSON-RPC endpoints, each once.
func ParseNetwork(args ...string) (Network, error) {
	if len(args) == 1 {
		switch strings.ToLower(strings.TrimSpace(args[0])) {
		case "mainnet":
			return Mainnet(), nil
		case "testnet":
			return Testnet(), nil
		}
	}
	if len(args) == 0 {
		return Network{}, fmt.Errorf("eid: no endpoint: give mainnet, testnet, or the URLs of EID nodes' JSON-RPC")
	}
	n := Network{Endpoints: make([]string, 0, len(args))}
	for _, a := range args {
		u, err := parseEndpoint(a)
		if err != nil {
			return Network{}, err
		}
		if slices.Contains(n.Endpoints, u) {
			return Network{}, fmt.Errorf("eid: endpoint %s is given twice", excerpt.Quote(a))
		}
		n.Endpoints = append(n.Endpoints, u)
	}
	return n, nil
}

// parseEndpoint checks the URL of a JSON-RPC endpoint: http or https, a
// host, no fragment. A path and a query are kept: providers put keys there.
func parseEndpoint(s string) (string, error) {
	hint := "want http(s)://host[:port][/path] of an EID node's JSON-RPC, or the keyword mainnet or testnet alone"
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "mainnet", "testnet":
		return "", fmt.Errorf("eid: the keyword %s stands for a whole network: give it alone, not among URLs", excerpt.Quote(s))
	}
	u, err := url.Parse(t)
	switch {
	case err != nil:
		return "", fmt.Errorf("eid: endpoint %s is not a URL: %s", excerpt.Quote(s), hint)
	case u.Scheme != "http" && u.Scheme != "https":
		return "", fmt.Errorf("eid: endpoint %s: scheme %s: %s", excerpt.Quote(s), excerpt.Quote(u.Scheme), hint)
	case u.Hostname() == "":
		return "", fmt.Errorf("eid: endpoint %s has no host: %s", excerpt.Quote(s), hint)
	case u.Fragment != "":
		return "", fmt.Errorf("eid: endpoint %s has a fragment: %s", excerpt.Quote(s), hint)
	}
	return u.String(), nil
}
