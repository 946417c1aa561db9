package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/host/internal/eidtest/didcontract"
	"github.com/didlight/didlight/host/internal/eidtest/eidnode"
)

// Hooks let a caller act at the scenario's checkpoints.
type Hooks struct {
	// Checkpoint is called at each checkpoint, a block after the step before
	// it, with the manifest so far, while the node makes empty blocks only.
	// An error ends the run.
	Checkpoint func(ctx context.Context, c Checkpoint, m *Manifest) error
	// Until ends the run after the checkpoint of that name ("" runs all).
	Until string
	// Log, if set, receives a line per step.
	Log func(format string, args ...any)
}

// Checkpoint names, in the order the scenario reaches them.
const (
	Created = "created" // the first DIDs created, nothing else
	Active  = "active"  // updates, credentials and refusals done; nothing deactivated, revoked or expired
	Final   = "final"   // erin deactivated, credentials revoked, frank expired, the last refusals
)

// Checkpoints lists the checkpoints in order.
var Checkpoints = []string{Created, Active, Final}

// Gas of the scenario's transactions. The precompile charges a fee by
// EID's getIDTxFee (core/vm/didvalidator.go): a standard DID's operations
// cost little, a customized DID's scale with its name and life, about
// 23,000,000 for a 12-letter name and 5 years.
const (
	gas           = 8_000_000
	customizedGas = 90_000_000 // under the genesis block's gas limit of 100,000,000
)

// runner carries a run's state.
type runner struct {
	node  *eidnode.Client
	hooks Hooks
	m     *Manifest
}

// errUntil ends a run at hooks.Until.
var errUntil = fmt.Errorf("scenario: stopped at the requested checkpoint")

// Run runs the scenario on n, a fresh chain whose signer is unlocked and
// funded, and returns its manifest. Refusals the node makes are recorded,
// not errors; a step whose outcome differs from the one it expects is
// logged and recorded as the node decided, and later steps build on what
// the node accepted.
func Run(ctx context.Context, n *eidnode.Node, hooks Hooks) (*Manifest, error) {
	r := &runner{node: &n.Client, hooks: hooks, m: &Manifest{ChainID: eidnode.DefaultChainID, Signer: n.Signer}}
	err := r.run(ctx)
	if err == errUntil {
		err = nil
	}
	return r.m, err
}

func (r *runner) logf(format string, args ...any) {
	if r.hooks.Log != nil {
		r.hooks.Log(format, args...)
	}
}

// deploy sends the wrapper contract's creation code.
func (r *runner) deploy(ctx context.Context) error {
	hash, err := r.send(ctx, "", didcontract.Creation(), gas)
	if err != nil {
		return err
	}
	var rc struct {
		Status          string `json:"status"`
		ContractAddress string `json:"contractAddress"`
	}
	raw, err := r.receipt(ctx, hash)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(raw, &rc); err != nil || rc.Status != "0x1" {
		return fmt.Errorf("scenario: deploying the contract: receipt %s (%v)", raw, err)
	}
	r.m.Contract, r.m.ContractTx = rc.ContractAddress, hash
	return nil
}

// send sends a transaction from the signer to to ("" creates a contract)
// and returns its hash.
func (r *runner) send(ctx context.Context, to string, data []byte, gas uint64) (string, error) {
	tx := map[string]string{"from": r.m.Signer, "data": didcontract.Hex(data), "gas": "0x" + strconv.FormatUint(gas, 16)}
	if to != "" {
		tx["to"] = to
	}
	var hash string
	if err := r.node.Call(ctx, &hash, "eth_sendTransaction", tx); err != nil {
		return "", fmt.Errorf("scenario: eth_sendTransaction: %w", err)
	}
	return hash, nil
}

// receipt waits for the receipt of hash and returns it as the node wrote it.
func (r *runner) receipt(ctx context.Context, hash string) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for {
		var raw json.RawMessage
		if err := r.node.Call(ctx, &raw, "eth_getTransactionReceipt", hash); err != nil {
			return nil, err
		}
		if len(raw) > 0 && string(raw) != "null" {
			return raw, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("scenario: no receipt of %s within a minute", hash)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// head returns the height and time of the latest block.
func (r *runner) head(ctx context.Context) (uint64, time.Time, error) {
	var b struct {
		Number    string `json:"number"`
		Timestamp string `json:"timestamp"`
	}
	if err := r.node.Call(ctx, &b, "eth_getBlockByNumber", "latest", false); err != nil {
		return 0, time.Time{}, err
	}
	h, err1 := strconv.ParseUint(strings.TrimPrefix(b.Number, "0x"), 16, 64)
	t, err2 := strconv.ParseInt(strings.TrimPrefix(b.Timestamp, "0x"), 16, 64)
	if err1 != nil || err2 != nil {
		return 0, time.Time{}, fmt.Errorf("scenario: latest block %+v", b)
	}
	return h, time.Unix(t, 0).UTC(), nil
}

// waitFor waits, two minutes at most, for a head block that ok accepts.
func (r *runner) waitFor(ctx context.Context, ok func(height uint64, t time.Time) bool) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	for {
		h, t, err := r.head(ctx)
		if err != nil {
			return err
		}
		if ok(h, t) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("scenario: the chain did not get there in 2 minutes (at %d, %s)", h, t)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// nextBlock waits for a block above the current head.
func (r *runner) nextBlock(ctx context.Context) error {
	h0, _, err := r.head(ctx)
	if err != nil {
		return err
	}
	return r.waitFor(ctx, func(h uint64, _ time.Time) bool { return h > h0 })
}

// checkpoint waits a block (what a step changed shows from the block after
// it), then calls the hook.
func (r *runner) checkpoint(ctx context.Context, name string) error {
	if err := r.nextBlock(ctx); err != nil {
		return err
	}
	h, _, err := r.head(ctx)
	if err != nil {
		return err
	}
	c := Checkpoint{Name: name, Head: h}
	if len(r.m.Steps) > 0 {
		c.AfterStep = r.m.Steps[len(r.m.Steps)-1].Name
	}
	r.m.Checkpoints = append(r.m.Checkpoints, c)
	r.logf("checkpoint %s at height %d", name, h)
	if r.hooks.Checkpoint != nil {
		if err := r.hooks.Checkpoint(ctx, c, r.m); err != nil {
			return err
		}
	}
	if r.hooks.Until == name {
		return errUntil
	}
	return nil
}

// precheck asks the node, by eth_call at the head, what the precompile
// says of the operation: "ok" or its error.
func (r *runner) precheck(ctx context.Context, opJSON []byte, gas uint64) string {
	var out string
	err := r.node.Call(ctx, &out, "eth_call", map[string]string{
		"from": r.m.Signer, "to": didcontract.Precompile, "gas": "0x" + strconv.FormatUint(gas, 16),
		"data": didcontract.Hex(didcontract.PrecompileInput(opJSON)),
	}, "latest")
	if err != nil {
		return err.Error()
	}
	if out == "0x"+strings.Repeat("0", 63)+"1" {
		return "ok"
	}
	return "answered " + out
}

// input returns the transaction's recipient and data for route.
func (r *runner) input(route string, opJSON []byte) (string, []byte) {
	if route == ViaContract {
		return r.m.Contract, didcontract.Calldata(opJSON)
	}
	return didcontract.Precompile, didcontract.PrecompileInput(opJSON)
}

// spec is a step to take.
type spec struct {
	name, intent, route string
	subject, operation  string
	expect              string
	op                  []byte
	gas                 uint64 // 0: gas
}

// submit prechecks and sends s, appends it to the manifest unfinished and
// returns its index.
func (r *runner) submit(ctx context.Context, s spec) (int, error) {
	if s.gas == 0 {
		s.gas = gas
	}
	pre := r.precheck(ctx, s.op, s.gas)
	to, data := r.input(s.route, s.op)
	hash, err := r.send(ctx, to, data, s.gas)
	if err != nil {
		return 0, fmt.Errorf("step %s: %w", s.name, err)
	}
	r.m.Steps = append(r.m.Steps, Step{Name: s.name, Intent: s.intent, Route: s.route, Subject: s.subject, Operation: s.operation,
		Expect: s.expect, Sent: string(s.op), Input: didcontract.Hex(data), Precheck: pre, TxHash: hash})
	return len(r.m.Steps) - 1, nil
}

// settle waits for the receipt of step i and records the node's decision.
func (r *runner) settle(ctx context.Context, i int) error {
	st := &r.m.Steps[i]
	raw, err := r.receipt(ctx, st.TxHash)
	if err != nil {
		return fmt.Errorf("step %s: %w", st.Name, err)
	}
	var rc struct {
		Status      string `json:"status"`
		BlockNumber string `json:"blockNumber"`
	}
	if err := json.Unmarshal(raw, &rc); err != nil {
		return fmt.Errorf("step %s: receipt %s: %w", st.Name, raw, err)
	}
	st.Receipt, st.Accepted = raw, rc.Status == "0x1"
	st.Block, _ = strconv.ParseUint(strings.TrimPrefix(rc.BlockNumber, "0x"), 16, 64)
	got := map[bool]string{true: "accepted", false: "refused"}[st.Accepted]
	r.logf("%-36s %-10s %-8s block %d  precheck: %s", st.Name, st.Route, got, st.Block, st.Precheck)
	if got != st.Expect {
		r.logf("NOTE: step %s was %s by the node; the scenario expected %s", st.Name, got, st.Expect)
	}
	return nil
}

// step sends s and waits for the node's decision; it returns whether the
// node accepted it and the transaction's hash.
func (r *runner) step(ctx context.Context, s spec) (bool, string, error) {
	i, err := r.submit(ctx, s)
	if err != nil {
		return false, "", err
	}
	if err := r.settle(ctx, i); err != nil {
		return false, "", err
	}
	return r.m.Steps[i].Accepted, r.m.Steps[i].TxHash, nil
}
