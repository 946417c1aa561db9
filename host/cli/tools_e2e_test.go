package cli

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/nodetest"
)

// cli drives the commands through Run(), against the node that the
// DIDLIGHT_REST and DIDLIGHT_RPC variables name, with wallet files and
// password files in a temporary directory.
type cli struct {
	t   *testing.T
	dir string
}

// result is one run of the command.
type result struct {
	code           int
	stdout, stderr string
}

// run runs didlight with args.
func (c *cli) run(args ...string) result {
	c.t.Helper()
	var out, errOut bytes.Buffer
	code := Run(args, &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// ok runs didlight and fails the test unless it succeeds.
func (c *cli) ok(args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	if r.code != exitOK {
		c.t.Fatalf("didlight %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return strings.TrimSpace(r.stdout)
}

// fails runs didlight and fails the test unless it exits with code and
// says msg on stderr.
func (c *cli) fails(code int, msg string, args ...string) {
	c.t.Helper()
	r := c.run(args...)
	if r.code != code || !strings.Contains(r.stderr, msg) {
		c.t.Fatalf("didlight %s: exit %d, stderr %q; want exit %d saying %q", strings.Join(args, " "), r.code, r.stderr, code, msg)
	}
}

// file writes a file in the test directory and returns its path.
func (c *cli) file(name, content string) string {
	c.t.Helper()
	p := filepath.Join(c.dir, name)
	if err := os.WriteFile(p, []byte(content+"\n"), 0o600); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// balance returns an address's balance as the CLI reports it.
func (c *cli) balance(address string) ela.Fixed64 {
	c.t.Helper()
	var b struct{ Balance string }
	if err := json.Unmarshal([]byte(c.ok("wallet", "balance", "--address", address, "--json")), &b); err != nil {
		c.t.Fatal(err)
	}
	v, err := ela.ParseFixed64(b.Balance)
	if err != nil {
		c.t.Fatal(err)
	}
	return v
}

// devWallet imports the dev account's key, which the node prints, into a
// wallet file sealed with the password in pwFile.
func (c *cli) devWallet(n *nodetest.Node, pwFile string) string {
	c.t.Helper()
	dev := n.Chain.DevAccount()
	name := filepath.Join(c.dir, "dev.json")
	c.ok("wallet", "import", "--wallet", name, "--secret-file", c.file("dev.key", hex.EncodeToString(dev.PrivateKey.Bytes())), "--password-file", pwFile)
	if got := c.ok("wallet", "address", "--wallet", name); got != dev.Address {
		c.t.Fatalf("dev wallet address %s, want %s", got, dev.Address)
	}
	return name
}

// pay builds, signs and sends a payment from a wallet, waits for its block,
// and returns the signed transaction and its txid.
func (c *cli) pay(wallet, pwFile, to, amount string) (signed, txid string) {
	c.t.Helper()
	unsigned := c.ok("tx", "build", "--wallet", wallet, "--to", to, "--amount", amount)
	signed = c.ok("tx", "sign", "--wallet", wallet, "--password-file", pwFile, unsigned)
	return signed, c.ok("tx", "send", "--wait", signed)
}

// resolveVerified resolves d with --verify and returns the result's status
// and the human output of the same verified resolve. Both say that the
// answer was verified, or that there was nothing to verify for a DID the
// node does not know.
func (c *cli) resolveVerified(d string, all bool) (int, string) {
	c.t.Helper()
	args := []string{"resolve", d, "--verify"}
	if all {
		args = append(args, "--all")
	}
	var r struct {
		Status       int
		Transaction  []json.RawMessage
		Verification verification
	}
	if err := json.Unmarshal([]byte(c.ok(append(args, "--json")...)), &r); err != nil {
		c.t.Fatal(err)
	}
	human := c.ok(args...)
	v := r.Verification
	switch {
	case r.Status == 3:
		if v != (verification{Ran: true, Outcome: "nothing to verify"}) || !strings.Contains(human, "verified  nothing to verify: the node says this DID does not exist") || strings.Contains(human, "yes") {
			c.t.Fatalf("resolve --verify of a DID not found: %+v\n%s", v, human)
		}
	case !v.Ran || v.Outcome != "verified" || v.Complete == nil || v.ChainTime == "" || !strings.Contains(human, "verified  yes, locally"):
		c.t.Fatalf("resolve --verify does not say it verified: %+v\n%s", v, human)
	case *v.Complete != strings.Contains(human, "every operation from the create on"):
		c.t.Fatalf("--json says complete %v, the table says otherwise:\n%s", *v.Complete, human)
	}
	return r.Status, human
}

// The whole story against a real node in process: wallets, a funded
// payment, a double spend and a wrong password refused, and a DID created,
// updated and deactivated, resolved and verified locally at each step.
func TestToolsEndToEnd(t *testing.T) {
	n := nodetest.Start(t)
	t.Setenv("DIDLIGHT_REST", strings.TrimSuffix(n.REST, "/api/v1"))
	t.Setenv("DIDLIGHT_RPC", n.RPC)
	c := &cli{t: t, dir: t.TempDir()}
	pw := c.file("pw.txt", "correct horse battery staple")
	wrong := c.file("wrong.txt", "Correct horse battery staple")

	dev := n.Chain.DevAccount()
	devWallet := c.devWallet(n, pw)

	// A new wallet; its file holds no secret in the clear and is private.
	alice := filepath.Join(c.dir, "alice.json")
	var created walletInfo
	if err := json.Unmarshal([]byte(c.ok("wallet", "create", "--wallet", alice, "--password-file", pw, "--json")), &created); err != nil {
		t.Fatal(err)
	}
	stored, err := os.ReadFile(alice)
	if err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(alice); fi.Mode().Perm() != 0o600 {
		t.Errorf("wallet file mode %v, want 0600", fi.Mode().Perm())
	}
	if strings.Contains(string(stored), strings.Fields(created.Mnemonic)[0]+" ") || created.Mnemonic == "" {
		t.Fatalf("wallet file holds the mnemonic in the clear, or none was shown: %s", stored)
	}
	c.fails(exitUsage, "exists", "wallet", "create", "--wallet", alice, "--password-file", pw)
	// The mnemonic restores the same wallet.
	restored := filepath.Join(c.dir, "restored.json")
	c.ok("wallet", "import", "--wallet", restored, "--secret-file", c.file("words.txt", created.Mnemonic), "--password-file", pw)
	if got := c.ok("wallet", "address", "--wallet", restored); got != created.Address {
		t.Errorf("mnemonic restores %s, want %s", got, created.Address)
	}

	// Fund alice from the dev account: build, sign, send; the balance moves.
	signed, txid := c.pay(devWallet, pw, created.Address, "100")
	if b := c.balance(created.Address); b != 100*ela.OneELA {
		t.Fatalf("alice's balance after funding %s, want 100", b)
	}
	var shown ela.TxJSON
	if err := json.Unmarshal([]byte(c.ok("tx", "show", signed)), &shown); err != nil || shown.TxID != txid || len(shown.Programs) != 1 {
		t.Errorf("tx show: txid %s with %d programs (%v); want %s, signed", shown.TxID, len(shown.Programs), err, txid)
	}

	// Alice pays the dev account back: her balance drops by amount and fee.
	devBefore := c.balance(dev.Address)
	unsigned := c.ok("tx", "build", "--from", created.Address, "--to", dev.Address, "--amount", "2.5", "--fee", "0.0001")
	signed = c.ok("tx", "sign", "--wallet", alice, "--password-file", pw, unsigned)
	// A second payment built from the same coins, before the first is sent.
	other := c.ok("tx", "build", "--from", created.Address, "--to", dev.Address, "--amount", "1")
	otherSigned := c.ok("tx", "sign", "--wallet", alice, "--password-file", pw, other)
	c.ok("tx", "send", "--wait", signed)
	if b := c.balance(created.Address); b != 100*ela.OneELA-250_000_000-10_000 {
		t.Errorf("alice's balance after paying 2.5 + 0.0001: %s", b)
	}
	if b := c.balance(dev.Address); b != devBefore+250_000_000 {
		t.Errorf("dev balance %s, want %s + 2.5", b, devBefore)
	}

	// Refused: the double spend, a wrong password, an unreachable node, a
	// bad address, a short balance.
	c.fails(exitFail, "double spend", "tx", "send", otherSigned)
	c.fails(exitPassword, "wrong password", "tx", "sign", "--wallet", alice, "--password-file", wrong, unsigned)
	c.fails(exitPassword, "wrong password", "did", "create", "--wallet", alice, "--password-file", wrong)
	c.fails(exitUsage, `--to "EnotAnAddress" is not a valid address`, "tx", "build", "--wallet", alice, "--to", "EnotAnAddress", "--amount", "1")
	c.fails(exitShort, "is short of the 1000.00010000", "tx", "build", "--wallet", alice, "--to", dev.Address, "--amount", "1000")
	closed := closedPort(t)
	if r := c.run("wallet", "balance", "--wallet", alice, "--rest", closed); r.code != exitUnreachable || !strings.Contains(r.stderr, "node unreachable at "+closed+"/api/v1/asset/balances/"+created.Address) {
		t.Errorf("unreachable node: exit %d, %q", r.code, r.stderr)
	}

	// Alice's DID: create, update, deactivate, each resolved and verified.
	d := c.ok("wallet", "address", "--wallet", alice, "--did")
	if d != created.DID {
		t.Fatalf("wallet address --did %s, want %s", d, created.DID)
	}
	if status, _ := c.resolveVerified(d, false); status != 3 {
		t.Fatalf("before create: status %d, want 3", status)
	}
	c.ok("did", "create", "--wallet", alice, "--password-file", pw, "--service", "#hive,HiveVault,https://hive.example.com", "--years", "2")
	status, human := c.resolveVerified(d, false)
	if status != 0 || !strings.Contains(human, "https://hive.example.com") {
		t.Fatalf("after create: status %d\n%s", status, human)
	}
	if q := c.ok("query", "--service", "HiveVault"); !strings.Contains(q, d) {
		t.Errorf("query --service HiveVault does not find %s:\n%s", d, q)
	}
	c.ok("did", "update", "--wallet", alice, "--password-file", pw, "--service", "#hive,HiveVault,https://hive2.example.com")
	status, human = c.resolveVerified(d, true)
	if status != 0 || !strings.Contains(human, "https://hive2.example.com") || strings.Count(human, "  update") != 1 || !strings.Contains(human, "every operation from the create on") {
		t.Fatalf("after update: status %d\n%s", status, human)
	}
	c.ok("did", "deactivate", "--wallet", alice, "--password-file", pw)
	if status, human = c.resolveVerified(d, true); status != 2 || !strings.Contains(human, "deactivate") {
		t.Fatalf("after deactivate: status %d\n%s", status, human)
	}
	c.fails(exitUsage, "is deactivated", "did", "update", "--wallet", alice, "--password-file", pw, "--years", "3")
	if q := c.ok("query", "--service", "HiveVault"); strings.Contains(q, d) {
		t.Errorf("query still finds the deactivated %s:\n%s", d, q)
	}

	// The wallet paid for the three operations.
	if b := c.balance(created.Address); b != 100*ela.OneELA-250_000_000-4*10_000 {
		t.Errorf("alice's balance after three DID operations: %s", b)
	}
}

// A customized DID controlled by the wallet's DID: created with a
// controller, resolved and verified (which fetches and checks the
// controller's document), updated and deactivated.
func TestCustomizedDIDEndToEnd(t *testing.T) {
	n := nodetest.Start(t)
	t.Setenv("DIDLIGHT_REST", strings.TrimSuffix(n.REST, "/api/v1"))
	t.Setenv("DIDLIGHT_RPC", n.RPC)
	c := &cli{t: t, dir: t.TempDir()}
	pw := c.file("pw.txt", "pw")
	t.Setenv("DIDLIGHT_PASSWORD_FILE", pw)
	devWallet := c.devWallet(n, pw)
	bob := filepath.Join(c.dir, "bob.json")
	var info walletInfo
	if err := json.Unmarshal([]byte(c.ok("wallet", "create", "--wallet", bob, "--json", "--no-mnemonic")), &info); err != nil || info.Mnemonic != "" {
		t.Fatalf("wallet create --no-mnemonic: %+v, %v", info, err)
	}
	c.pay(devWallet, pw, info.Address, "10")

	// The controller must exist before the customized DID.
	c.fails(exitFail, "controller", "did", "create", "--wallet", bob, "--id", "acme")
	c.fails(exitUsage, "only 1:N", "did", "create", "--wallet", bob, "--id", "acme", "--multisig", "2:2",
		"--controller", "did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U")
	c.ok("did", "create", "--wallet", bob)
	c.ok("did", "create", "--wallet", bob, "--id", "Acme", "--service", "#web,LinkedDomains,https://acme.example")
	status, human := c.resolveVerified("acme", false) // customized DIDs are case-insensitive
	if status != 0 || !strings.Contains(human, "controllers  "+info.DID) || !strings.Contains(human, "https://acme.example") {
		t.Fatalf("acme after create: status %d\n%s", status, human)
	}
	c.ok("did", "update", "--wallet", bob, "did:elastos:Acme", "--no-services", "--years", "1")
	if status, human = c.resolveVerified("did:elastos:Acme", true); status != 0 || strings.Contains(human, "acme.example") || !strings.Contains(human, "update") {
		t.Fatalf("acme after update: status %d\n%s", status, human)
	}
	c.fails(exitUsage, "another key's DID", "did", "deactivate", "--wallet", devWallet, info.DID)
	c.ok("did", "deactivate", "--wallet", bob, "did:elastos:Acme")
	if status, _ = c.resolveVerified("did:elastos:Acme", true); status != 2 {
		t.Fatalf("acme after deactivate: status %d", status)
	}
	// Bob's own DID is untouched.
	if status, _ = c.resolveVerified(info.DID, false); status != 0 {
		t.Fatalf("bob after acme's deactivation: status %d", status)
	}
}

// closedPort returns the URL of a loopback port nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + l.Addr().String()
	l.Close()
	return addr
}
