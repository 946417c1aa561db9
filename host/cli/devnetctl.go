package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/didlight/didlight/host/client"
)

// The devnet controls from the command line: each verb calls one dev_*
// method of a running node's JSON-RPC API (docs/devnet.md), so that a
// shell script can snapshot, revert, reset and move time as a test suite
// does through the API.

// devnetControl is one verb that calls a control: its usage, and what it
// does with the node's client and its positional arguments (want of them).
type devnetControl struct {
	verb, summary, args, about, examples string
	want                                 int
	call                                 func(ctx context.Context, cl *client.Client, args []string) (string, error)
}

var devnetControls = []devnetControl{
	{"snapshot", "take a snapshot of a running devnet's chain; prints its id", "", `Takes a snapshot of the node's chain (dev_snapshot) and prints its id.`,
		`  ID=$(didlight devnet snapshot)`, 0,
		func(ctx context.Context, cl *client.Client, _ []string) (string, error) { return cl.Snapshot(ctx) }},
	{"revert", "put a running devnet's chain back as a snapshot found it", "ID", `Puts the node's chain back as snapshot ID found it (dev_revert): blocks,
indexes, mempool and clock; that snapshot and the earlier ones are kept
(revert to it again at will), the later ones dropped. Prints the tip it
went back to.`,
		`  didlight devnet revert 0x1`, 1,
		func(ctx context.Context, cl *client.Client, args []string) (string, error) {
			return blockLine(cl.Revert(ctx, args[0]))
		}},
	{"reset", "wipe a running devnet's chain back to a genesis block (at TIME)", "[TIME]", `Wipes the node's chain back to a genesis block (dev_reset), stamped TIME
(RFC 3339) if given, else where the chain began.`,
		`  didlight devnet reset
  didlight devnet reset 2026-06-01T00:00:00Z`, -1,
		func(ctx context.Context, cl *client.Client, args []string) (string, error) {
			var at time.Time
			if len(args) == 1 {
				var err error
				if at, err = parseRFC3339(args[0]); err != nil {
					return "", err
				}
			}
			return blockLine(cl.Reset(ctx, at))
		}},
	{"mine", "mine a block now on a running devnet", "", `Mines a block now, empty or not (dev_mine), and prints it.`,
		`  didlight devnet mine`, 0,
		func(ctx context.Context, cl *client.Client, _ []string) (string, error) {
			return blockLine(cl.Mine(ctx))
		}},
	{"increase-time", "move a running devnet's clock forward and mine a block", "DURATION", `Moves the chain's clock DURATION forward (dev_increaseTime: whole seconds)
and mines a block stamped with it; prints its time.`,
		`  didlight devnet increase-time 24h`, 1,
		func(ctx context.Context, cl *client.Client, args []string) (string, error) {
			d, err := time.ParseDuration(args[0])
			if err != nil || d < time.Second {
				return "", usagef("DURATION %q: want a duration of a second or more, with a unit (90s, 24h)", args[0])
			}
			return timeLine(cl.IncreaseTime(ctx, d))
		}},
	{"next-block-time", "pin the time of a running devnet's next block", "TIME", `Pins the next block's time to TIME (RFC 3339; dev_setNextBlockTime),
which must be after the tip's; nothing is mined.`,
		`  didlight devnet next-block-time 2026-07-01T00:00:00Z`, 1,
		func(ctx context.Context, cl *client.Client, args []string) (string, error) {
			t, err := parseRFC3339(args[0])
			if err != nil {
				return "", err
			}
			return timeLine(cl.SetNextBlockTime(ctx, t))
		}},
}

// subcommand returns the control as a verb of `didlight devnet`.
func (d devnetControl) subcommand() subcommand {
	return subcommand{d.verb, d.summary, func(e *env, args []string) error {
		c := newCommand("devnet "+d.verb, d.args, "\n"+d.about, d.examples)
		var n nodeFlags
		n.add(c.fs)
		rest, err := c.parse(e, args)
		if err != nil {
			return err
		}
		switch {
		case d.want >= 0 && len(rest) != d.want:
			return usagef("want %d argument(s) (%s), got %d (run \"didlight devnet %s -h\")", d.want, d.args, len(rest), d.verb)
		case d.want < 0 && len(rest) > 1:
			return usagef("want at most one argument (%s), got %d", d.args, len(rest))
		}
		cl, ctx, cancel, err := n.client(rpcAPI)
		if err != nil {
			return err
		}
		defer cancel()
		out, err := d.call(ctx, cl, rest)
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, out)
		return nil
	}}
}

func parseRFC3339(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, usagef("TIME %q: want an RFC 3339 time such as 2026-06-01T00:00:00Z", s)
	}
	return t, nil
}

func blockLine(b client.Block, err error) (string, error) {
	return fmt.Sprintf("height %d  %s", b.Height, b.Hash), err
}

func timeLine(t time.Time, err error) (string, error) {
	return t.Format(time.RFC3339), err
}
