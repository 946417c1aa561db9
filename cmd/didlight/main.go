// Command didlight is the didlight node, wallet and DID tool.
//
// Usage:
//
//	didlight node [flags]     run a local identity-chain node
//
// Run "didlight help" for the list of subcommands, and
// "didlight <command> -h" for a command's flags. The command is package
// github.com/didlight/didlight/host/cli.
package main

import (
	"os"

	"github.com/didlight/didlight/host/cli"
)

func main() {
	os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
}
