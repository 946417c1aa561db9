package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/didlight/didlight/core/keystore"
	"github.com/didlight/didlight/core/spend"
	"github.com/didlight/didlight/host/client"
)

// Exit codes of the wallet, tx, did, resolve and query commands, so that
// scripts can tell failures apart. The node command uses 0, 1 and 2 only.
const (
	exitOK          = 0
	exitFail        = 1 // the node refused (double spend, invalid operation, ...) or another failure
	exitUsage       = 2 // bad flags or input: a malformed address, amount, DID, hex...
	exitUnreachable = 3 // no answer from the node at the URL tried
	exitPassword    = 4 // the password does not open the wallet
	exitShort       = 5 // the balance does not cover the amount and fee
)

const exitCodesHelp = `Exit codes: 0 success, 1 refused by the node or failed, 2 bad usage or input,
3 node unreachable, 4 wrong wallet password, 5 balance too short.
`

// usageError is bad input from the user: exit code 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// exitCode maps an error to the exit code of its kind.
func exitCode(err error) int {
	var (
		usage *usageError
		unr   *client.UnreachableError
		short *spend.ShortError
	)
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &usage), errors.Is(err, flag.ErrHelp):
		return exitUsage
	case errors.As(err, &unr):
		return exitUnreachable
	case errors.Is(err, keystore.ErrPassword):
		return exitPassword
	case errors.As(err, &short):
		return exitShort
	}
	return exitFail
}

// env is what a command runs with: its output streams, the environment and
// the terminal, so that tests drive commands through Run() alone.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
	term           terminal
}

// terminal is the user's terminal, when there is one.
type terminal interface {
	// isTerminal reports whether w is a terminal, where spinners may draw.
	isTerminal(w io.Writer) bool
	// readSecret prompts on stderr and reads a line without echo; it fails
	// when standard input is not a terminal.
	readSecret(prompt string) ([]byte, error)
}

// newEnv returns the environment of the process.
func newEnv(stdout, stderr io.Writer) *env {
	return &env{stdout: stdout, stderr: stderr, getenv: os.Getenv, term: osTerminal{stderr: stderr}}
}

// subcommand is one verb of a command group (wallet create, tx build...).
type subcommand struct {
	name, summary string
	run           func(e *env, args []string) error
}

// runGroup runs one verb of a group such as `didlight wallet`, prints its
// error, and returns the exit code.
func runGroup(group, summary string, verbs []subcommand, args []string, stdout, stderr io.Writer) int {
	e := newEnv(stdout, stderr)
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprintf(stdout, "Usage: didlight %s <verb> [flags]\n\n%s\n\nVerbs:\n", group, summary)
		width := 0
		for _, v := range verbs {
			width = max(width, len(v.name))
		}
		for _, v := range verbs {
			fmt.Fprintf(stdout, "  %-*s  %s\n", width, v.name, v.summary)
		}
		fmt.Fprintf(stdout, "\nRun \"didlight %s <verb> -h\" for its flags and examples.\n", group)
		return exitOK
	}
	for _, v := range verbs {
		if v.name == args[0] {
			return finish(e, "didlight "+group+" "+v.name, v.run(e, args[1:]))
		}
	}
	fmt.Fprintf(stderr, "didlight %s: unknown verb %q (run \"didlight %s -h\")\n", group, args[0], group)
	return exitUsage
}

// finish prints err, if any, and returns its exit code. Help is not an
// error: the flag package has printed it.
func finish(e *env, name string, err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
	}
	return exitCode(err)
}

// cmdSpec describes one command's flags, usage and examples.
type cmdSpec struct {
	name     string // "wallet create"
	args     string // positional arguments, for the usage line
	about    string // what it does
	examples string
	fs       *flag.FlagSet
}

// newCommand returns a command whose -h prints its usage, every flag with
// its environment variable, the examples and the exit codes.
func newCommand(name, args, about, examples string) *cmdSpec {
	c := &cmdSpec{name: name, args: args, about: about, examples: examples,
		fs: flag.NewFlagSet("didlight "+name, flag.ContinueOnError)}
	c.fs.SetOutput(io.Discard)
	c.fs.Usage = func() {}
	return c
}

// usage writes the command's help.
func (c *cmdSpec) usage(w io.Writer) {
	fmt.Fprintf(w, "Usage: didlight %s [flags] %s\n\n%s\n\nFlags (each also read from its environment variable; the command line wins):\n",
		c.name, c.args, strings.TrimSpace(c.about))
	c.fs.VisitAll(func(f *flag.Flag) {
		def := ""
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			def = fmt.Sprintf(", default %s", f.DefValue)
		}
		fmt.Fprintf(w, "  --%s (%s%s)\n      %s\n", f.Name, envName(f.Name), def, f.Usage)
	})
	fmt.Fprintf(w, "\nExamples:\n%s\n\n%s", strings.Trim(c.examples, "\n"), exitCodesHelp)
}

// parse reads flags, first from the environment, then from args, where
// flags and positional arguments may come in any order. It returns the
// positional arguments; -h prints the help to stdout and returns
// flag.ErrHelp.
func (c *cmdSpec) parse(e *env, args []string) ([]string, error) {
	var envErr error
	c.fs.VisitAll(func(f *flag.Flag) {
		if v := e.getenv(envName(f.Name)); v != "" && envErr == nil {
			if err := c.fs.Set(f.Name, v); err != nil {
				envErr = usagef("%s=%q: %v", envName(f.Name), v, err)
			}
		}
	})
	if envErr != nil {
		return nil, envErr
	}
	var positional []string
	for {
		if err := c.fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				c.usage(e.stdout)
				return nil, err
			}
			return nil, usagef("%v (run \"didlight %s -h\")", err, c.name)
		}
		args = c.fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// printJSON writes v as indented JSON.
func printJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// indentJSON writes raw JSON indented.
func indentJSON(w io.Writer, raw []byte) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return err
	}
	return printJSON(w, v)
}

// durationValue is a time.Duration flag whose error says what a duration
// looks like: flag's own says only "parse error", and a bare number such
// as 5 has no unit.
type durationValue time.Duration

// durationFlag defines a duration flag, as flag.DurationVar does.
func durationFlag(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var((*durationValue)(p), name, usage)
}

func (d *durationValue) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return fmt.Errorf("a duration needs a unit: %ss, %sm or %sms, for example", s, s, s)
		}
		return errors.New("not a duration: want a number and a unit, such as 5s, 1m30s or 250ms")
	}
	*d = durationValue(v)
	return nil
}

func (d *durationValue) String() string { return time.Duration(*d).String() }
