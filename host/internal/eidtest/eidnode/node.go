package eidnode

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// SignerKey is the secp256k1 private key (hex) of the chain's signer and
// only funded account. It is public test data: never use it elsewhere.
const SignerKey = "b71c71a67e1177ad4e901695e1b4b9ee17ae16c6668d313eac2f96dbcda3f291"

// password unlocks [SignerKey] in the node's keystore.
const password = "eidtest"

// Config says how to start a node.
type Config struct {
	Geth string // path of a geth built from elastos/Elastos.ELA.SideChain.EID
	Dir  string // an empty directory for the node's files; its data directory is Dir/geth-test
	// Period is clique's block period in seconds; 0 means 1.
	Period uint64
	// OnDemand seals a block only when a transaction waits (clique's
	// period 0), as fast as they come: a long chain in minutes. Start then
	// returns once the node answers, at block 0.
	OnDemand bool
}

// Node is a running private EID node.
type Node struct {
	Client         // its JSON-RPC, on 127.0.0.1
	Signer  string // the unlocked, funded signer's address (0x, lower case)
	Genesis []byte // the genesis file it was initialised with
	Dir     string // Config.Dir: the data directory, the keystore, geth.log
	cmd     *exec.Cmd
	exited  chan error // receives geth's exit once
}

// Pid returns the geth process's id: its CPU time, for a benchmark.
func (n *Node) Pid() int { return n.cmd.Process.Pid }

// Start initialises a data directory and starts geth on it: clique sealing
// by the signer, RPC on 127.0.0.1 (eth, net, web3, did, txpool, miner), no
// discovery and no peers. It refuses to run unless this process is in a
// network namespace with no interface but loopback (unshare -n), since
// EID's SPV client dials the ELA main chain's public peers. It returns once
// the node answers and has made a block; Stop ends it.
func Start(ctx context.Context, cfg Config) (*Node, error) {
	if err := PrivateNetwork(); err != nil {
		return nil, err
	}
	switch {
	case cfg.OnDemand:
		cfg.Period = 0
	case cfg.Period == 0:
		cfg.Period = 1
	}
	data := filepath.Join(cfg.Dir, "geth-test") // "geth-test" keeps geth from forcing the mainnet genesis (EID cmd/utils/flags.go)
	for name, content := range map[string]string{"signer.key": SignerKey, "password": password} {
		if err := os.WriteFile(filepath.Join(cfg.Dir, name), []byte(content+"\n"), 0o600); err != nil {
			return nil, err
		}
	}
	out, err := runGeth(ctx, cfg.Geth, "account", "import", "--datadir", data, "--password", filepath.Join(cfg.Dir, "password"), filepath.Join(cfg.Dir, "signer.key"))
	if err != nil {
		return nil, err
	}
	m := regexp.MustCompile(`Address: \{([0-9a-f]{40})\}`).FindStringSubmatch(out)
	if m == nil {
		return nil, fmt.Errorf("eidnode: geth account import printed no address: %.300s", out)
	}
	signer := "0x" + m[1]
	genesis, err := Genesis{ChainID: DefaultChainID, Period: cfg.Period, Signer: signer, MaxExpiredHeight: 6307200, GasLimit: 100_000_000}.JSON()
	if err != nil {
		return nil, err
	}
	genesisPath := filepath.Join(cfg.Dir, "genesis.json")
	if err := os.WriteFile(genesisPath, genesis, 0o644); err != nil {
		return nil, err
	}
	if _, err := runGeth(ctx, cfg.Geth, "init", "--datadir", data, genesisPath); err != nil {
		return nil, err
	}
	rpcPort, err := freePort()
	if err != nil {
		return nil, err
	}
	p2pPort, err := freePort()
	if err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(cfg.Dir, "geth.log"))
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(cfg.Geth,
		"--datadir", data, "--networkid", strconv.Itoa(DefaultChainID),
		"--nodiscover", "--maxpeers", "0", "--port", strconv.Itoa(p2pPort), "--nousb", "--ipcdisable",
		"--olddidmigrateheight", "0", "--docarraysortheight", "0", "--checkcustomizedidbeginheight", "0",
		"--mine", "--miner.etherbase", signer, "--miner.gastarget", "100000000", "--miner.gaslimit", "100000000",
		"--unlock", signer, "--password", filepath.Join(cfg.Dir, "password"), "--allow-insecure-unlock",
		"--rpc", "--rpcaddr", "127.0.0.1", "--rpcport", strconv.Itoa(rpcPort), "--rpcapi", "eth,net,web3,did,txpool,miner")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the test that started it
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("eidnode: start %s: %w", cfg.Geth, err)
	}
	n := &Node{Client: Client{URL: fmt.Sprintf("http://127.0.0.1:%d/", rpcPort)}, Signer: signer, Genesis: genesis, Dir: cfg.Dir, cmd: cmd, exited: make(chan error, 1)}
	go func() { n.exited <- cmd.Wait() }()
	if err := n.waitForBlocks(ctx, 60*time.Second, !cfg.OnDemand); err != nil {
		n.Stop()
		return nil, fmt.Errorf("%w (see %s)", err, logFile.Name())
	}
	return n, nil
}

// waitForBlocks waits until the node answers eth_blockNumber, with a
// height above 0 when sealed is set: it serves, and it seals. Otherwise it
// waits until the signer signs (eth_sign): geth unlocks it after its RPC
// starts, and a block comes only after the first transaction.
func (n *Node) waitForBlocks(ctx context.Context, limit time.Duration, sealed bool) error {
	ctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	for {
		var height string
		if sealed {
			if err := n.Call(ctx, &height, "eth_blockNumber"); err == nil && height != "0x0" {
				return nil
			}
		} else if err := n.Call(ctx, &height, "eth_sign", n.Signer, "0x00"); err == nil {
			return nil
		}
		select {
		case err := <-n.exited:
			n.exited <- err
			return fmt.Errorf("eidnode: geth exited while starting: %v", err)
		case <-ctx.Done():
			return fmt.Errorf("eidnode: geth made no block within %s", limit)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Stop interrupts geth and waits for it to close its database; after 20
// seconds it kills it.
func (n *Node) Stop() error {
	if n.cmd.Process == nil {
		return nil
	}
	_ = n.cmd.Process.Signal(os.Interrupt)
	select {
	case err := <-n.exited:
		n.exited <- err
		return nil
	case <-time.After(20 * time.Second):
		_ = n.cmd.Process.Kill()
		return fmt.Errorf("eidnode: geth did not stop within 20s; killed")
	}
}

func runGeth(ctx context.Context, geth string, args ...string) (string, error) {
	out, err := exec.CommandContext(ctx, geth, args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("eidnode: geth %s: %w: %s", strings.Join(args[:2], " "), err, tail(out, 600))
	}
	return string(out), nil
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ErrNotIsolated is the error of Start outside a private network namespace.
var ErrNotIsolated = errors.New("eidnode: an EID node runs only in a network namespace of its own, with loopback alone (unshare -n sh -c 'ip link set lo up; ...')")

// PrivateNetwork reports whether this process sees no network interface but
// loopback, as in a fresh `unshare -n` namespace; else [ErrNotIsolated],
// naming the interfaces.
func PrivateNetwork() error {
	ifs, err := net.Interfaces()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNotIsolated, err)
	}
	return isolated(ifs)
}

// isolated is PrivateNetwork's decision over a list of interfaces.
func isolated(ifs []net.Interface) error {
	var other []string
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 {
			other = append(other, i.Name)
		}
	}
	if len(other) > 0 {
		return fmt.Errorf("%w; this one has %s", ErrNotIsolated, strings.Join(other, ", "))
	}
	return nil
}
