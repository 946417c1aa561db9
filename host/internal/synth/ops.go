package synth

import (
	"time"

	"github.com/didlight/didlight/core/idop"
)

// MaxOps is the most operations one DID gets: its create, its updates, a
// declare, a revoke and a deactivate.
const MaxOps = 1 + MaxUpdates + 3

// Ops returns the operations on DID d and its declared credential, in the
// order they are published, one block apart: idop.Create, idop.Update
// (d.Updates times), idop.Declare, idop.Revoke, idop.Deactivate.
func (d DID) Ops() []string {
	ops := make([]string, 0, MaxOps)
	ops = append(ops, idop.Create)
	for range d.Updates {
		ops = append(ops, idop.Update)
	}
	if d.Declare {
		ops = append(ops, idop.Declare)
	}
	if d.Revoke {
		ops = append(ops, idop.Revoke)
	}
	if d.Deactivate {
		ops = append(ops, idop.Deactivate)
	}
	return ops
}

// Step is one operation of the plan: operation Op (an index into
// DID(Index).Ops()) of DID Index.
type Step struct{ Index, Op int }

// Blocks returns how many blocks the plan takes: DIDs are created
// WaveSize to a block, and each DID's k-th operation is k blocks after its
// create; the last block holds the last operation of a DID of one of the
// last waves.
func (p *Plan) Blocks() int {
	waves := (p.DIDs + WaveSize - 1) / WaveSize
	end := 0
	for wave := max(0, waves-MaxOps); wave < waves; wave++ {
		for i := wave * WaveSize; i < min((wave+1)*WaveSize, p.DIDs); i++ {
			end = max(end, wave+p.opCount(i))
		}
	}
	return end
}

// Block returns the steps of block h (0 <= h < Blocks()), in the order
// the block holds them: by operation number, then by DID. No step depends
// on another of the same block.
func (p *Plan) Block(h int) []Step {
	var out []Step
	for k := range MaxOps {
		wave := h - k
		if wave < 0 {
			break
		}
		for i := wave * WaveSize; i < min((wave+1)*WaveSize, p.DIDs); i++ {
			if k < p.opCount(i) {
				out = append(out, Step{i, k})
			}
		}
	}
	return out
}

// opCount returns how many operations DID i gets.
func (p *Plan) opCount(i int) int { return len(p.Shape(i).Ops()) }

// Time returns the time of block h.
func (p *Plan) Time(h int) time.Time { return p.Start.Add(time.Duration(h) * p.Interval) }
