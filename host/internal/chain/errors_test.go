package chain

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/store"
)

// Each error the chain returns is of one kind, wrapped or not.
func TestKindOf(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("chain: doing something: %w", err) }
	for _, c := range []struct {
		err  error
		want Kind
	}{
		{errors.New("disk full"), KindFailed},
		{wrap(store.ErrCorrupt), KindFailed},
		{wrap(ErrQuery), KindInvalid},
		{fmt.Errorf("%w: before the tip", ErrBadTime), KindInvalid},
		{wrap(devnet.ErrUnknownSnapshot), KindInvalid},
		{ErrNotFound, KindNotFound},
		{wrap(rejectf(ledger.DoubleSpend, "spent")), KindRejected},
		{reject(ledger.Malformed, errors.New("truncated")), KindRejected},
		{errClosed, KindStopped},
		{store.ErrClosed, KindStopped},
		{ErrReset, KindStopped},
		{wrap(context.Canceled), KindStopped},
		{context.DeadlineExceeded, KindStopped},
	} {
		if got := KindOf(c.err); got != c.want {
			t.Errorf("KindOf(%v) = %d, want %d", c.err, got, c.want)
		}
	}
}
