package eidfake

import (
	"encoding/base64"
	"fmt"
	"strings"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/synth"
)

// genesis is block 0's time: EID mainnet's genesis (2021-06-17T16:00Z).
const genesis = 1623945600

// Interval is the time between two blocks of a Chain.
const Interval = 5 * time.Second

// Time returns the timestamp of block n.
func Time(n uint64) time.Time {
	return time.Unix(genesis, 0).UTC().Add(time.Duration(n) * Interval)
}

// LogData returns the didLog data of a receipt of req: standard base64 of
// the ELA serialization of the signed operation (EID core/vm/did).
func LogData(req idop.Request) string {
	o := ela.Operation{Header: ela.OperationHeader(req.Header), Payload: req.Payload, Proof: ela.OperationProof(req.Proof)}
	return base64.StdEncoding.EncodeToString(o.Bytes())
}

// NewPlan returns the synth plan of n DIDs for seed whose block h is the
// chain's block base+h: its first block stamped Time(base), one Interval
// apart.
func NewPlan(seed string, n int, base uint64) (*synth.Plan, error) {
	return synth.NewPlan(seed, n, Time(base), Interval)
}

// PutPlan places the operations of plan, made by NewPlan with base, in
// blocks base, base+1, …, accepted, alternately to the contract and the
// precompile, each update naming its DID's transaction before it.
func (c *Chain) PutPlan(plan *synth.Plan, base uint64) error {
	if !plan.Start.Equal(Time(base)) || plan.Interval != Interval {
		return fmt.Errorf("eidfake: the plan starts %s every %s, block %d is %s every %s", plan.Start, plan.Interval, base, Time(base), Interval)
	}
	last := map[int]string{}
	for h := range plan.Blocks() {
		for j, s := range plan.Block(h) {
			req, err := plan.Request(plan.DID(s.Index), s.Op, last[s.Index], plan.Time(h))
			if err != nil {
				return err
			}
			tx := c.Put(base+uint64(h), j%2 == 1, true, req.Header.Operation, LogData(req))
			last[s.Index] = strings.TrimPrefix(tx.Hash, "0x")
		}
	}
	return nil
}
