package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/wasmbuild"
	"github.com/didlight/didlight/wasm/js"
)

// builtModule is the module built from this checkout (stripped), built
// once for the tests that need it.
var builtModule = sync.OnceValues(func() ([]byte, error) {
	m, err := wasmbuild.Build(context.Background(), "../../wasm")
	if err != nil {
		return nil, err
	}
	return wasmbuild.Strip(m)
})

// moduleFile writes the module built from this checkout into a file, for
// --module.
func moduleFile(t *testing.T) string {
	t.Helper()
	m, err := builtModule()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "didlight.wasm")
	if err := os.WriteFile(path, m, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// --engine wasm says at once that it is compiling, how long it has been
// at it while it lasts, and how long it took once ready.
func TestEngineSaysItIsCompiling(t *testing.T) {
	m, err := builtModule()
	if err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { compileProgress = d }(compileProgress)
	compileProgress = time.Millisecond // a compile, even from the cache, takes longer
	var logged syncBuffer
	_, closeEngine, err := startEngine(context.Background(), nodeConfig{engine: engineWasm}, nodeModule{bytes: m, from: "test"}, slog.New(slog.NewTextHandler(&logged, nil)))
	if err != nil {
		t.Fatal(err)
	}
	if err := closeEngine(); err != nil {
		t.Error(err)
	}
	lines := strings.Split(strings.TrimSpace(logged.String()), "\n")
	first, last := lines[0], lines[len(lines)-1]
	if !strings.Contains(first, `msg="compiling the wasm engine`) || !strings.Contains(first, "bytes=") {
		t.Errorf("the first line does not say it is compiling: %s", first)
	}
	if !strings.Contains(last, `msg="wasm engine ready"`) || !strings.Contains(last, "took=") {
		t.Errorf("the last line does not say it is ready and how long it took: %s", last)
	}
	progress := lines[1 : len(lines)-1]
	if len(progress) == 0 {
		t.Errorf("no progress while compiling:\n%s", logged.String())
	}
	for _, l := range progress {
		if !strings.Contains(l, `msg="still compiling the wasm engine" elapsed=`) {
			t.Errorf("a line between the first and the last: %s", l)
		}
	}
}

// every calls f until stop, and never once stop has returned.
func TestEvery(t *testing.T) {
	var calls atomic.Int32
	stop := every(time.Millisecond, func() { calls.Add(1) })
	for deadline := time.Now().Add(10 * time.Second); calls.Load() < 3; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d calls in 10s at a 1ms interval", calls.Load())
		}
	}
	stop()
	n := calls.Load()
	time.Sleep(20 * time.Millisecond)
	if calls.Load() != n {
		t.Errorf("%d calls after stop", calls.Load()-n)
	}
}

// `didlight node --engine wasm` validates through the module: a payment
// and a DID's create, update and deactivate are accepted and resolve, each
// verified locally; a request whose signature is wrong is refused with the
// rule the module names.
func TestNodeWasmEngine(t *testing.T) {
	c := startNodeProcess(t, "--mem", "--engine", "wasm", "--module", moduleFile(t))
	if !strings.Contains(c.banner, "engine       wasm: didlight.wasm (") || !strings.Contains(c.banner, "web app      http://") {
		t.Fatalf("banner:\n%s", c.banner)
	}
	t.Setenv("DIDLIGHT_REST", strings.TrimSuffix(c.rest, "/api/v1"))
	t.Setenv("DIDLIGHT_RPC", c.rpc)
	cl := &cli{t: t, dir: t.TempDir()}
	pw := cl.file("pw.txt", "pw")
	t.Setenv("DIDLIGHT_PASSWORD_FILE", pw)
	dev := filepath.Join(cl.dir, "dev.json")
	cl.ok("wallet", "import", "--wallet", dev, "--secret-file", cl.file("dev.key", hex.EncodeToString(chain.DevKey(chain.DefaultDevSeed).Bytes())))
	alice := filepath.Join(cl.dir, "alice.json")
	var info walletInfo
	if err := json.Unmarshal([]byte(cl.ok("wallet", "create", "--wallet", alice, "--json", "--no-mnemonic")), &info); err != nil {
		t.Fatal(err)
	}
	cl.pay(dev, pw, info.Address, "10")

	cl.ok("did", "create", "--wallet", alice, "--service", "#hive,HiveVault,https://hive.example.com")
	if status, human := cl.resolveVerified(info.DID, false); status != 0 || !strings.Contains(human, "https://hive.example.com") {
		t.Fatalf("after create: status %d\n%s", status, human)
	}
	cl.ok("did", "update", "--wallet", alice, "--service", "#hive,HiveVault,https://hive2.example.com")
	if status, human := cl.resolveVerified(info.DID, true); status != 0 || strings.Count(human, "  update") != 1 {
		t.Fatalf("after update: status %d\n%s", status, human)
	}
	cl.ok("did", "deactivate", "--wallet", alice)
	if status, _ := cl.resolveVerified(info.DID, true); status != 2 {
		t.Fatalf("after deactivate: status %d", status)
	}

	// A create whose signature is another's is refused by the module's rule.
	h := sha256.Sum256([]byte("didlight wasm engine test"))
	k, _ := keys.NewPrivateKey(h[:])
	subject := did.FromKey(k.Public())
	primary := did.URL{DID: subject, Fragment: did.PrimaryKey}
	doc, err := did.NewDocument(k.Public(), time.Now().AddDate(1, 0, 0))
	if err == nil {
		doc, err = doc.Sign(k, primary, time.Now())
	}
	if err != nil {
		t.Fatal(err)
	}
	req, err := idop.NewCreate(doc, primary, k)
	if err != nil {
		t.Fatal(err)
	}
	sig := []byte(req.Proof.Signature)
	if sig[10] == 'A' {
		sig[10] = 'B'
	} else {
		sig[10] = 'A'
	}
	req.Proof.Signature = string(sig)
	resp, err := http.Post(c.rpc+"idtx", "application/json", bytes.NewReader(req.AppendJSON(nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var refusal struct {
		Code int
		Rule string
	}
	if err := json.NewDecoder(resp.Body).Decode(&refusal); err != nil || resp.StatusCode != http.StatusBadRequest || refusal.Code != 45009 || refusal.Rule != string(idop.RuleSignature) {
		t.Errorf("a create with a wrong signature: %s %+v (%v); want 400, 45009, rule signature", resp.Status, refusal, err)
	}
	c.stop()
	if log := c.stderr.String(); !strings.Contains(log, `msg="compiling the wasm engine`) || !strings.Contains(log, `msg="wasm engine ready"`) || strings.Contains(log, "level=ERROR") {
		t.Errorf("log:\n%s", log)
	}
}

// Without --module the node uses the module embedded in the binary: with
// the didlight_wasm build tag it runs on it; without, --engine wasm
// refuses to start and says how to get one.
func TestNodeEngineModuleSource(t *testing.T) {
	if _, err := js.Module(); err == nil {
		c := startNodeProcess(t, "--mem", "--engine", "wasm")
		if !strings.Contains(c.banner, "engine       wasm: didlight.wasm (embedded,") || !strings.Contains(c.banner, "(resolves and verifies DIDs in the browser)") {
			t.Errorf("banner:\n%s", c.banner)
		}
		c.stop()
		return
	}
	var stdout, stderr bytes.Buffer
	code := Run([]string{"node", "--mem", "--engine", "wasm", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0"}, &stdout, &stderr)
	if code != exitFail || !strings.Contains(stderr.String(), "built without its WebAssembly module") || !strings.Contains(stderr.String(), "--module FILE") {
		t.Errorf("--engine wasm without a module: exit %d\n%s", code, stderr.String())
	}
	c := startNodeProcess(t, "--mem")
	if !strings.Contains(c.banner, "engine       native") || !strings.Contains(c.banner, "without the module") {
		t.Errorf("banner of a node without the module:\n%s", c.banner)
	}
	c.stop()
}
