// Package scenario runs the EID test scenario on a private EID node.
//
// The scenario's DIDs and credentials are made by didlight's own core; it
// says what each step sent and what the node decided.
package scenario

import (
	"encoding/json"
	"fmt"
	"os"
)

// Routes a step's transaction takes.
const (
	ViaContract   = "contract"   // publishDidTransaction on the wrapper contract
	ViaPrecompile = "precompile" // the precompile 0x…16, input [length][JSON]
)

// Manifest is what a run did: each step and checkpoint, in order.
type Manifest struct {
	ChainID     uint64       `json:"chainId"`
	Signer      string       `json:"signer"`   // the sender of every transaction
	Contract    string       `json:"contract"` // the wrapper contract's address
	ContractTx  string       `json:"contractTx"`
	DIDs        []Subject    `json:"dids"`        // every DID the scenario names, created or not
	Credentials []Credential `json:"credentials"` // every credential id it names
	Steps       []Step       `json:"steps"`
	Checkpoints []Checkpoint `json:"checkpoints"`
}

// Subject is a DID of the scenario.
type Subject struct {
	Name string `json:"name"` // the actor, e.g. "alice"
	DID  string `json:"did"`
}

// Credential is a credential id of the scenario and its issuer.
type Credential struct {
	ID     string `json:"id"`
	Issuer string `json:"issuer"`
}

// Step is one operation sent to the node.
type Step struct {
	Name      string `json:"name"`
	Intent    string `json:"intent"`
	Route     string `json:"route"`     // ViaContract or ViaPrecompile
	Subject   string `json:"subject"`   // the DID or credential id the operation is about
	Operation string `json:"operation"` // header.operation as sent ("" when the JSON is malformed)
	Expect    string `json:"expect"`    // "accepted" or "refused": what the scenario means to show
	Sent      string `json:"sent"`      // the operation JSON as sent, byte for byte
	Input     string `json:"input"`     // the transaction's data (0x hex)
	// Precheck is what eth_call of the same input to the precompile said
	// against the head just before the transaction was sent: "ok", or the
	// node's error, the only place EID says why it refuses.
	Precheck string          `json:"precheck"`
	TxHash   string          `json:"txHash"`
	Block    uint64          `json:"block"`
	Accepted bool            `json:"accepted"` // receipt status 1
	Receipt  json.RawMessage `json:"receipt"`  // the receipt as the node answered it
}

// Checkpoint is a point of the run at which answers were recorded.
type Checkpoint struct {
	Name      string `json:"name"`
	AfterStep string `json:"afterStep"`
	Head      uint64 `json:"head"` // the head's height when it began
}

// Step returns the step called name.
func (m *Manifest) Step(name string) (Step, bool) {
	for _, s := range m.Steps {
		if s.Name == name {
			return s, true
		}
	}
	return Step{}, false
}

// Accepted returns the accepted steps about subject, oldest first.
func (m *Manifest) Accepted(subject string) []Step {
	var out []Step
	for _, s := range m.Steps {
		if s.Accepted && s.Subject == subject {
			out = append(out, s)
		}
	}
	return out
}

// StepsUntil returns the manifest as it stood at the checkpoint: the steps
// up to and including its AfterStep, and the checkpoints up to it.
func (m *Manifest) StepsUntil(checkpoint string) (*Manifest, error) {
	for i, c := range m.Checkpoints {
		if c.Name != checkpoint {
			continue
		}
		out := *m
		out.Checkpoints = m.Checkpoints[:i+1]
		for j, s := range m.Steps {
			if s.Name == c.AfterStep {
				out.Steps = m.Steps[:j+1]
				return &out, nil
			}
		}
		return nil, fmt.Errorf("scenario: checkpoint %s follows step %s, which the manifest lacks", checkpoint, c.AfterStep)
	}
	return nil, fmt.Errorf("scenario: no checkpoint %q", checkpoint)
}

// Load reads a manifest written by the recorder.
func Load(path string) (*Manifest, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("scenario: %s: %w", path, err)
	}
	return &m, nil
}
