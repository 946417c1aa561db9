package cli

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/didlight/didlight/host/internal/api"
)

// Who may do what: the admin token, from the command line, its environment
// variable or a file, and the web origins whose pages may use the node's
// controls (docs/security.md).

// accessFlags defines --admin-token-file and --cors-origin; --admin-token
// is defined with the other flags.
func accessFlags(fs *flag.FlagSet, c *nodeConfig) {
	fs.StringVar(&c.adminTokenFile, "admin-token-file", "", "file holding the admin token (its first line), which other users cannot read in the process list as they can --admin-token")
	fs.Var(&c.corsOrigins, "cors-origin", "a web origin (http://localhost:3000) whose pages may call the node's controls (/reset, /idtx, dev_*, restart) as its own pages may; repeat it for several, or give them comma-separated in the variable")
}

// originList is --cors-origin: repeatable on the command line and
// comma-separated in its environment variable, whose origins a command-line
// one replaces. Each is kept as [api.ParseOrigin] writes it.
type originList struct {
	origins []string
	fromEnv bool // origins came from the environment variable
}

func (o *originList) String() string { return strings.Join(o.origins, ",") }

func (o *originList) Set(v string) error { return setList(&o.origins, &o.fromEnv, v, api.ParseOrigin) }

// setList sets a repeatable flag's list from one value, comma-separated
// items each kept as parse writes it; the value from the command line
// replaces a list from the environment variable (fromEnv).
func setList(list *[]string, fromEnv *bool, v string, parse func(string) (string, error)) error {
	if *fromEnv {
		*list, *fromEnv = nil, false
	}
	for s := range strings.SplitSeq(v, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		item, err := parse(s)
		if err != nil {
			return err
		}
		*list = append(*list, item)
	}
	return nil
}

// tokenWarning is logged at start when --admin-token is on the command line.
const tokenWarning = "--admin-token is visible to every user of this machine in the process list; give it with --admin-token-file or DIDLIGHT_ADMIN_TOKEN instead"

// checkAccess reads the admin token file, refuses a token given twice, and
// notes in c.warnings what the operator should know: a token on the
// command line is visible to every user of the machine (ps), and a token
// file others can read is no secret. args are the command line.
func (c *nodeConfig) checkAccess(args []string, set map[string]bool) error {
	onCommandLine := tokenOnCommandLine(args)
	if c.adminTokenFile == "" {
		if onCommandLine {
			c.warnings = append(c.warnings, tokenWarning)
		}
		return nil
	}
	if set["admin-token"] {
		return errors.New("--admin-token and --admin-token-file exclude each other: give the token once")
	}
	b, err := os.ReadFile(c.adminTokenFile)
	if err != nil {
		return fmt.Errorf("--admin-token-file: %w", err)
	}
	first, _, _ := strings.Cut(string(b), "\n")
	if c.adminToken = strings.TrimSpace(first); c.adminToken == "" {
		return fmt.Errorf("--admin-token-file %s: the first line is empty; write the token there", c.adminTokenFile)
	}
	if st, err := os.Stat(c.adminTokenFile); err == nil && st.Mode().Perm()&0o077 != 0 {
		c.warnings = append(c.warnings, fmt.Sprintf("--admin-token-file %s can be read by other users (mode %v); chmod 600 it", c.adminTokenFile, st.Mode().Perm()))
	}
	return nil
}

// tokenOnCommandLine reports whether args give --admin-token (in any of
// the forms the flag package reads), rather than its variable.
func tokenOnCommandLine(args []string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "admin-token" {
			return true
		}
	}
	return false
}
