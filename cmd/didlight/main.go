// Command didlight is the didlight node, wallet and DID tool.
//
// Usage:
//
//	didlight node [flags]     run a local identity-chain node
//
// Run "didlight help" for the list of subcommands.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one subcommand and returns the process exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, usage)
		return 0
	}
	switch args[0] {
	case "node":
		fmt.Fprintln(stderr, "didlight node: not built yet. It will start a local identity chain on ./didlight-data,\n"+
			"seed demo DIDs (--demo), and print its REST (http://127.0.0.1:20334/api/v1) and JSON-RPC\n"+
			"(http://127.0.0.1:20336/) URLs and the dev account.")
		return 1
	default:
		fmt.Fprintf(stderr, "didlight: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}

const usage = `didlight — light resolver and local node for the Elastos identity chain

Usage:
  didlight <command> [flags]

Commands:
  node     run a local identity-chain node (REST /api/v1 and JSON-RPC)
  help     show this help
`
