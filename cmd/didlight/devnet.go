package main

import (
	"io"
)

// runDevnet is `didlight devnet`: tools for development chains. Each verb
// is one entry of devnetVerbs, with its code in its own file.
func runDevnet(args []string, stdout, stderr io.Writer) int {
	return runGroup("devnet", "Tools for development chains.", devnetVerbs, args, stdout, stderr)
}

var devnetVerbs = []subcommand{
	{"generate", "write a large generated chain of N DIDs into a new data directory", devnetGenerate},
}
