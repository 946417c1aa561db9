package webapp_test

import (
	"testing"

	"github.com/didlight/didlight/host/internal/browsertest"
)

// tab is a tab of the shared browser (browsertest), with the app's own
// helpers (readResolved, ...).
type tab struct{ *browsertest.Tab }

func newTab(t *testing.T) *tab { return &tab{browsertest.NewTab(t)} }

// eval evaluates a JavaScript expression in tb's page (browsertest.Eval).
func eval[T any](tb *tab, expr string) T {
	tb.T.Helper()
	return browsertest.Eval[T](tb.Tab, expr)
}
