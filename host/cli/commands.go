// Package cli implements the didlight command.
//
// It is the didlight command: the node, the wallet and the DID tools
// (cmd/didlight's main calls Run, and nothing else). It lives under host/ so
// that it can use the node's internal packages; its one exported name is
// Run.
package cli

import (
	"fmt"
	"io"
	"strings"
)

// command is a subcommand: its name, a one-line summary for the help, and
// what runs it with the arguments after its name, returning the exit code.
type command struct {
	name    string
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

// commands lists the subcommands in the order the help shows them. A new
// subcommand is one more entry, with its code in its own file.
var commands = []command{
	{"node", "run a local identity-chain node (REST /api/v1 and JSON-RPC)", runNode},
	{"wallet", "create, import and inspect a password-sealed wallet; balance", runWallet},
	{"tx", "build, sign, broadcast and decode ledger transactions", runTx},
	{"did", "create, update and deactivate DIDs, paid by a wallet", runDID},
	{"resolve", "resolve a DID, optionally verifying the answer locally", runResolve},
	{"query", "find DIDs by service type, credential type or find condition", runQuery},
	{"compact", "rewrite a stopped node's store with each bucket in one run of pages", runCompact},
	{"devnet", "tools for development chains: generate a large chain, export and import fixture files", runDevnet},
}

// Run runs the didlight command with args (without the program name),
// writing to stdout and stderr, and returns the process exit code: 0 on
// success, 1 when the command failed, 2 for a usage error.
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage())
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "didlight: unknown command %q\n\n%s", args[0], usage())
	return 2
}

func usage() string {
	var b strings.Builder
	b.WriteString("didlight — light resolver and local node for the Elastos identity chain\n\n")
	b.WriteString("Usage:\n  didlight <command> [flags]\n\nCommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(&b, "  %-8s %s\n\nRun \"didlight <command> -h\" for a command's flags.\n", "help", "show this help")
	return b.String()
}
