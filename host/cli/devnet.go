package cli

import (
	"io"
)

// runDevnet is `didlight devnet`: tools for development chains. Each verb
// is one entry of devnetVerbs, with its code in its own file; the controls
// of a running devnet are the entries of devnetControls (devnetctl.go).
func runDevnet(args []string, stdout, stderr io.Writer) int {
	return runGroup("devnet", "Tools for development chains: large generated chains, fixture files to share one, and a running devnet's controls.", devnetVerbs(), args, stdout, stderr)
}

func devnetVerbs() []subcommand {
	verbs := []subcommand{
		{"generate", "write a large generated chain of N DIDs into a new data directory", devnetGenerate},
		{"export", "write a data directory's chain (blocks and confirms) to a fixture file", devnetExport},
		{"import", "load a fixture file into an empty data directory, validating every block", devnetImport},
	}
	for _, d := range devnetControls {
		verbs = append(verbs, d.subcommand())
	}
	return verbs
}
