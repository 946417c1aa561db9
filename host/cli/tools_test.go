package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keystore"
	"github.com/didlight/didlight/core/spend"
	"github.com/didlight/didlight/host/client"
)

// Every command and verb answers -h with its flags, their environment
// variables, examples and exit codes, and exits 0.
func TestToolsHelp(t *testing.T) {
	groups := map[string][]string{
		"wallet":  {"create", "import", "show", "address", "balance"},
		"tx":      {"build", "sign", "send", "show"},
		"did":     {"create", "update", "deactivate"},
		"resolve": nil,
		"query":   nil,
		"devnet":  {"generate", "export", "import"},
	}
	for group, verbs := range groups {
		var out, errOut bytes.Buffer
		if code := Run([]string{group, "-h"}, &out, &errOut); code != 0 {
			t.Errorf("%s -h: exit %d", group, code)
		}
		listing := out.String()
		for _, v := range verbs {
			if !strings.Contains(listing, "  "+v+" ") {
				t.Errorf("%s -h does not list %s:\n%s", group, v, listing)
			}
			out.Reset()
			if code := Run([]string{group, v, "-h"}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "Examples:\n  didlight "+group+" "+v) ||
				!strings.Contains(out.String(), "DIDLIGHT_") || !strings.Contains(out.String(), "Exit codes:") {
				t.Errorf("%s %s -h: exit %d\n%s", group, v, code, out.String())
			}
		}
	}
	var out, errOut bytes.Buffer
	if code := Run([]string{"wallet", "frobnicate"}, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), `unknown verb "frobnicate"`) {
		t.Errorf("unknown verb: exit %d, %q", code, errOut.String())
	}
	if code := Run([]string{"tx", "build", "--amont", "1"}, &out, &errOut); code != exitUsage || !strings.Contains(errOut.String(), "-amont") {
		t.Errorf("unknown flag: exit %d, %q", code, errOut.String())
	}
}

// Flags come from DIDLIGHT_* variables, the command line wins, and flags
// may follow positional arguments.
func TestToolsFlagsFromEnv(t *testing.T) {
	vars := map[string]string{"DIDLIGHT_REST": "http://node:1", "DIDLIGHT_ALL": "true"}
	e := &env{stdout: io.Discard, stderr: io.Discard, getenv: func(k string) string { return vars[k] }}
	newResolve := func() (*cmdSpec, *nodeFlags, *bool) {
		c := newCommand("resolve", "DID", "", "")
		var n nodeFlags
		var all bool
		n.add(c.fs)
		c.fs.BoolVar(&all, "all", false, "")
		return c, &n, &all
	}
	c, n, all := newResolve()
	rest, err := c.parse(e, []string{"did:elastos:foo", "--rpc", "http://other:2"})
	if err != nil || len(rest) != 1 || rest[0] != "did:elastos:foo" || n.rest != "http://node:1" || n.rpc != "http://other:2" || !*all {
		t.Errorf("parse: %v %v, rest %q rpc %q all %v", rest, err, n.rest, n.rpc, *all)
	}
	c, n, _ = newResolve()
	if _, err := c.parse(e, []string{"--rest", "http://cli:3"}); err != nil || n.rest != "http://cli:3" {
		t.Errorf("the command line does not win over the environment: %q, %v", n.rest, err)
	}
	vars["DIDLIGHT_TIMEOUT"] = "soon"
	c, _, _ = newResolve()
	var usage *usageError
	if _, err := c.parse(e, nil); !errors.As(err, &usage) || !strings.Contains(err.Error(), `DIDLIGHT_TIMEOUT="soon"`) {
		t.Errorf("bad variable: error %v, want a usage error naming it", err)
	}
}

func TestToolsExitCodes(t *testing.T) {
	tests := []struct {
		err  error
		code int
	}{
		{nil, exitOK},
		{usagef("bad"), exitUsage},
		{fmt.Errorf("wrapped: %w", &client.UnreachableError{URL: "u", Err: io.EOF}), exitUnreachable},
		{fmt.Errorf("f: %w", keystore.ErrPassword), exitPassword},
		{fmt.Errorf("a: %w", &spend.ShortError{Need: 2, Have: 1}), exitShort},
		{&client.RESTError{Code: client.CodeDoubleSpend}, exitFail},
		{errors.New("other"), exitFail},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := exitCode(tt.err); got != tt.code {
				t.Errorf("exitCode(%v) = %d, want %d", tt.err, got, tt.code)
			}
		})
	}
}

// A wallet imports from an SDK-exported xprv, a hex key or a mnemonic,
// and each gives the key the SDK gives.
func TestWalletFromSecret(t *testing.T) {
	const mnemonic = "cloth always junk crash fun exist stumble shift over benefit fun toe"
	// From Elastos.DID.JS.SDK (npm 2.3.5): DID 1 of this mnemonic and its xprv.
	const xprv = "xprvA3hqKDnMQGYbysuxNEJJRNFipzwBQidYLfs4axqc2CUeXJHz9s5oafxaUEbpi5UKhqYRmNE4euYGMsh12kXx2ECi8NYbk49FAQfEUtXuoVb"
	const did1 = "did:elastos:iiJDdo3EoG7o5evT6aimVqM8jyeDnr7yY1"
	fromWords, err := walletFromSecret(mnemonic, "", 1)
	if err != nil || fromWords.DID().String() != did1 {
		t.Fatalf("mnemonic: %v, %v; want %s", fromWords, err, did1)
	}
	fromXprv, err := walletFromSecret(xprv, "", 0)
	if err != nil || fromXprv.DID().String() != did1 {
		t.Fatalf("xprv: %v, %v; want %s", fromXprv, err, did1)
	}
	fromHex, err := walletFromSecret(fmt.Sprintf("%x", fromXprv.Key.Bytes()), "", 0)
	if err != nil || fromHex.DID().String() != did1 {
		t.Fatalf("hex: %v, %v; want %s", fromHex, err, did1)
	}
	for _, bad := range []string{"", "xprv123", strings.Repeat("zz", 32), "cloth always junk", strings.Repeat("ff", 32)} {
		var usage *usageError
		if _, err := walletFromSecret(bad, "", 0); !errors.As(err, &usage) {
			t.Errorf("secret %q: error %v, want a usage error", bad, err)
		}
	}
}

func TestServicesFor(t *testing.T) {
	subject, _ := did.Parse("did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U")
	d := docFlags{services: serviceList{"#hive, HiveVault, https://h.example", "did:elastos:iY4Ghz9tCuWvB5rNwvn4ngWvthZMNzEA7U#web,Web,https://w"}}
	got, err := d.servicesFor(subject, nil)
	if err != nil || len(got) != 2 || got[0].ID.String() != subject.String()+"#hive" || got[0].Type != "HiveVault" || got[1].Endpoint != "https://w" {
		t.Errorf("servicesFor = %+v, %v", got, err)
	}
	current := got[:1]
	if kept, err := (&docFlags{}).servicesFor(subject, current); err != nil || len(kept) != 1 {
		t.Errorf("no flags: %v, %v; want the current services", kept, err)
	}
	for _, bad := range []docFlags{
		{services: serviceList{"#hive,HiveVault"}},
		{services: serviceList{"did:elastos:foo#x,T,E"}},
		{services: serviceList{"nofragment/,T,E"}},
		{services: serviceList{"#a,T,E"}, noServices: true},
	} {
		var usage *usageError
		if _, err := bad.servicesFor(subject, nil); !errors.As(err, &usage) {
			t.Errorf("%+v: error %v, want a usage error", bad, err)
		}
	}
}

func TestExpiry(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	def := now.AddDate(1, 0, 0)
	tests := []struct {
		d    docFlags
		want time.Time
	}{
		{docFlags{}, def},
		{docFlags{years: 2}, now.AddDate(2, 0, 0)},
		{docFlags{expires: "2030-05-06T07:08:09Z"}, time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC)},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got, err := tt.d.expiry(now, def); err != nil || !got.Equal(tt.want) {
				t.Errorf("%+v: %v, %v; want %v", tt.d, got, err, tt.want)
			}
		})
	}
	for _, bad := range []docFlags{{years: -1}, {years: 101}, {expires: "tomorrow"}, {years: 1, expires: "2030-05-06T07:08:09Z"}} {
		if _, err := bad.expiry(now, def); err == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// tx show decodes without a node; bad input is a usage error.
func TestTxShowOffline(t *testing.T) {
	from, _ := ela.ParseAddress("EUL3gVZCdJaj6oRfGfzYu8v41ecZvE1Unz")
	tx, err := spend.Build(spend.Order{From: from, Asset: ela.ELAAssetID(), Coins: []spend.Coin{{Txid: ela.Hash{1}, Value: ela.OneELA}},
		To: []spend.Payment{{To: from, Amount: 1000}}, Fee: 100})
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if code := Run([]string{"tx", "show", fmt.Sprintf("%x", tx.Bytes())}, &out, &errOut); code != 0 || !strings.Contains(out.String(), `"txid": "`+tx.Hash().String()) {
		t.Errorf("tx show: exit %d\n%s%s", code, out.String(), errOut.String())
	}
	for _, bad := range [][]string{{"tx", "show"}, {"tx", "show", "zz"}, {"tx", "show", "0a00"}, {"tx", "show", "00", "--file", "x"}} {
		errOut.Reset()
		if code := Run(bad, &out, &errOut); code != exitUsage {
			t.Errorf("%v: exit %d, %q; want %d", bad, code, errOut.String(), exitUsage)
		}
	}
}

// fakeTerminal says whether writers are terminals and answers prompts.
type fakeTerminal struct{ tty bool }

func (f fakeTerminal) isTerminal(io.Writer) bool { return f.tty }
func (f fakeTerminal) readSecret(string) ([]byte, error) {
	return nil, usagef("no terminal")
}

// The spinner draws on a terminal only.
func TestSpinnerOnlyOnTerminal(t *testing.T) {
	for _, tty := range []bool{false, true} {
		var w syncBuffer
		e := &env{term: fakeTerminal{tty}}
		s := spin(e, &w, "waiting")
		time.Sleep(150 * time.Millisecond)
		s.end()
		if drew := strings.Contains(w.String(), "waiting"); drew != tty {
			t.Errorf("terminal %v: drew %q", tty, w.String())
		}
	}
}
