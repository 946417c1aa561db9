package cli_test

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/didlight/didlight/host/cli"
)

// Run is the didlight command: cmd/didlight passes it os.Args[1:] and exits
// with what it returns, 2 for a usage error.
func ExampleRun() {
	var stderr bytes.Buffer
	code := cli.Run([]string{"frobnicate"}, io.Discard, &stderr)
	first, _, _ := strings.Cut(stderr.String(), "\n")
	fmt.Println(code, first)
	// Output: 2 didlight: unknown command "frobnicate"
}
