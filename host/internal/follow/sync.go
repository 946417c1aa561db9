package follow

import (
	"context"
	"fmt"
)

// SyncTo brings the chain up to height until (0: the upstream's height
// when asked) once, as Run's rounds do, and returns the height reached.
// It does not retry: an upstream that cannot be reached, holds another
// chain (a *GenesisError), is below until, or sends a block the chain
// refuses (one that does not extend ours: a diverging upstream) fails it at
// once, the blocks applied before staying. A `didlight node --fork` syncs
// this way before it makes its own blocks.
func (f *Follower) SyncTo(ctx context.Context, until uint32) (uint32, error) {
	if err := f.connect(ctx); err != nil {
		return 0, err
	}
	height, err := f.up.Height(ctx)
	if err != nil {
		return 0, &syncError{kind: kindUpstream, err: err}
	}
	if until == 0 {
		until = height
	}
	if until > height {
		return 0, fmt.Errorf("follow: %s is at height %d, below %d", f.base, height, until)
	}
	for {
		local, _, _ := f.chain.Tip()
		if local > until {
			return local, fmt.Errorf("follow: the chain is at height %d, past %d", local, until)
		}
		if local == until {
			return local, nil
		}
		if err := f.fetch(ctx, local+1); err != nil {
			return local, err
		}
	}
}
