package ledger

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
)

// Arbiters are the keys whose votes finalize a chain's blocks (its DPoS
// confirms): the first one sponsors every confirm. A follower checks each
// block it is given against them (CheckConfirm).
type Arbiters struct {
	index   map[string]int // a key's encoding → its position
	sponsor keys.PublicKey
}

// NewArbiters returns the arbiters with these keys; keys[0] sponsors. It
// panics on an empty list, which no chain has.
func NewArbiters(pubs []keys.PublicKey) Arbiters {
	if len(pubs) == 0 {
		panic("ledger: NewArbiters of no keys")
	}
	a := Arbiters{index: make(map[string]int, len(pubs)), sponsor: pubs[0]}
	for i, pub := range pubs {
		a.index[string(pub.Bytes())] = i
	}
	return a
}

// CheckConfirm checks that cf finalizes the block whose hash is block: it
// names that block, the first arbiter sponsors it, it has votes, each one
// accepting and by a distinct arbiter, and every signature verifies with v.
func (a Arbiters) CheckConfirm(cf *ela.Confirm, block ela.Hash, v keys.Verifier) error {
	switch {
	case cf == nil:
		return errors.New("ledger: the block has no confirm")
	case cf.BlockHash != block:
		return fmt.Errorf("ledger: the confirm is of block %s, not %s", cf.BlockHash, block)
	case !cf.Sponsor.Equal(a.sponsor):
		return fmt.Errorf("ledger: the confirm's sponsor %s is not the chain's first arbiter %s", cf.Sponsor, a.sponsor)
	case len(cf.Votes) == 0:
		return errors.New("ledger: the confirm has no votes")
	}
	seen := make(map[int]bool, len(cf.Votes))
	for i, vote := range cf.Votes {
		n, ok := a.index[string(vote.Signer.Bytes())]
		switch {
		case !ok:
			return fmt.Errorf("ledger: confirm vote %d is by %s, not an arbiter of the chain", i, vote.Signer)
		case !vote.Accept:
			return fmt.Errorf("ledger: confirm vote %d (arbiter %d) rejects the block", i, n)
		case seen[n]:
			return fmt.Errorf("ledger: confirm vote %d repeats arbiter %d", i, n)
		}
		seen[n] = true
	}
	return cf.Verify(v)
}
