package cli

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/didlight/didlight/host/client"
)

// nodeFlags are the flags that pick the node: --rest, --rpc and --timeout.
// Given only one of the two URLs, a command that calls the other API asks
// the node for it through the one given (see client).
type nodeFlags struct {
	rest, rpc string
	timeout   time.Duration
	fs        *flag.FlagSet // tells which flags were given
}

// The APIs a command calls, for nodeFlags.client.
type nodeAPIs int

const (
	restAPI  nodeAPIs = 1 << iota // REST, /api/v1 (and the W3C binding beside it)
	rpcAPI                        // JSON-RPC
	bothAPIs = restAPI | rpcAPI
)

func (n *nodeFlags) add(fs *flag.FlagSet) {
	n.fs = fs
	fs.StringVar(&n.rest, "rest", client.DefaultREST, "URL of the node's REST API; given --rpc alone, the REST port is asked of the node (getnodestate)")
	fs.StringVar(&n.rpc, "rpc", client.DefaultRPC, "URL of the node's JSON-RPC API; given --rest alone, the JSON-RPC port is asked of the node (GET /api/v1/node/state)")
	durationFlag(fs, &n.timeout, "timeout", 2*time.Minute, "give up on the node after this long (waiting for a block included)")
}

// client returns the node client and a context bounded by --timeout. When
// only one of --rest and --rpc was given (on the command line or in the
// environment) and uses needs the other API too, the other URL is the
// given one's host with the port the node reports for that API, so that
// one URL is enough.
func (n *nodeFlags) client(uses nodeAPIs) (*client.Client, context.Context, context.CancelFunc, error) {
	ctx, cancel := context.WithTimeout(context.Background(), n.timeout)
	rest, rpc, err := n.urls(ctx, uses)
	if err != nil {
		cancel()
		return nil, nil, nil, err
	}
	return client.New(rest, rpc, nil), ctx, cancel, nil
}

// urls returns the REST and JSON-RPC URLs, asking the node for the one
// not given when uses needs it.
func (n *nodeFlags) urls(ctx context.Context, uses nodeAPIs) (rest, rpc string, err error) {
	given := map[string]bool{}
	if n.fs != nil {
		n.fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	}
	switch {
	case given["rpc"] && !given["rest"] && uses&restAPI != 0:
		s, err := client.New("", n.rpc, nil).ChainRPC().NodeState(ctx)
		if err != nil {
			return "", "", fmt.Errorf("--rest not given, and the node at --rpc %s did not say its REST port: %w", n.rpc, err)
		}
		rest, err = withPort(n.rpc, s.RESTPort, "")
		return rest, n.rpc, err
	case given["rest"] && !given["rpc"] && uses&rpcAPI != 0:
		s, err := client.New(n.rest, "", nil).State(ctx)
		if err != nil {
			return "", "", fmt.Errorf("--rpc not given, and the node at --rest %s did not say its JSON-RPC port: %w", n.rest, err)
		}
		rpc, err = withPort(n.rest, s.RPCPort, "/")
		return n.rest, rpc, err
	}
	return n.rest, n.rpc, nil
}

// withPort returns base's scheme and host with port and path: the URL of
// the node's other API, as the node reported its port.
func withPort(base string, port int, path string) (string, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" {
		return "", usagef("%q is not a node URL (want http://host:port)", base)
	}
	if port <= 0 || port > 65535 {
		return "", fmt.Errorf("the node at %s reports port %d for its other API: give --rest and --rpc", base, port)
	}
	return u.Scheme + "://" + net.JoinHostPort(u.Hostname(), strconv.Itoa(port)) + path, nil
}
