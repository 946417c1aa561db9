package chain

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/didindex"
)

// Each query with a condition logs its plan at debug level: the plan, the
// estimate, and whether the indexes or a scan answered it.
func TestQueryLogsPlan(t *testing.T) {
	var logged bytes.Buffer
	f := newFixture(t, Config{Logger: slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	publishMany(t, f, 3)
	for _, tc := range []struct{ cond, want string }{
		{`{"service.type":"Hub"}`, `plan="service.type in [\"Hub\"] exact" estimate=3 dids=3 scan=false total=3`},
		{`{"expires":{$gt:"2026"}}`, `plan=scan estimate=3 dids=3 scan=true total=3`},
	} {
		logged.Reset()
		cond, err := find.Compile(tc.cond)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := f.c.Query(context.Background(), Query{Condition: cond}); err != nil {
			t.Fatal(err)
		}
		if line := logged.String(); !strings.Contains(line, `msg="`+didindex.LogPlan+`" `+tc.want) {
			t.Errorf("%s logged %q, want %s", tc.cond, line, tc.want)
		}
	}
}
