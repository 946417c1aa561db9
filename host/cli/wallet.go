package cli

import (
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/hdkey"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/keystore"
)

// runWallet is `didlight wallet`.
func runWallet(args []string, stdout, stderr io.Writer) int {
	return runGroup("wallet", "Create, import and inspect a wallet file: one key, sealed with a password.", []subcommand{
		{"create", "make a new wallet from a fresh mnemonic", walletCreate},
		{"import", "make a wallet from a mnemonic, a hex private key or an xprv", walletImport},
		{"show", "show a wallet's address, DID and public key (no password needed)", walletShow},
		{"address", "print a wallet's address", walletAddress},
		{"balance", "show the balance and unspent outputs of a wallet or address", walletBalance},
	}, args, stdout, stderr)
}

// walletFlags are the flags of commands that use a wallet file.
type walletFlags struct {
	file, passwordFile string
}

func (w *walletFlags) add(fs *flag.FlagSet, withPassword bool) {
	fs.StringVar(&w.file, "wallet", "", "the wallet file")
	if withPassword {
		fs.StringVar(&w.passwordFile, "password-file", "", "read the wallet password from the first line of this file instead of asking on the terminal")
	}
}

// read returns the public part of the wallet file.
func (w *walletFlags) read() (*keystore.File, []byte, error) {
	if w.file == "" {
		return nil, nil, usagef("--wallet FILE is required (or DIDLIGHT_WALLET)")
	}
	b, err := os.ReadFile(w.file)
	if err != nil {
		return nil, nil, usagef("--wallet: %v", err)
	}
	f, err := keystore.Parse(b)
	if err != nil {
		return nil, nil, usagef("--wallet %s: %v", w.file, err)
	}
	return f, b, nil
}

// open decrypts the wallet with the password.
func (w *walletFlags) open(e *env) (*keystore.Wallet, error) {
	_, b, err := w.read()
	if err != nil {
		return nil, err
	}
	pw, err := readPassword(e, w.passwordFile, false)
	if err != nil {
		return nil, err
	}
	wallet, err := keystore.Open(b, pw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.file, err)
	}
	return wallet, nil
}

// save seals the wallet with a new password into the file, readable by
// its owner only. An existing file is kept unless force is set.
func (w *walletFlags) save(e *env, wallet *keystore.Wallet, force bool) error {
	if w.file == "" {
		return usagef("--wallet FILE is required (or DIDLIGHT_WALLET)")
	}
	if _, err := os.Stat(w.file); err == nil && !force {
		return usagef("%s exists: pick another --wallet FILE, or --force to replace it", w.file)
	}
	pw, err := readPassword(e, w.passwordFile, true)
	if err != nil {
		return err
	}
	b, err := keystore.Seal(wallet, pw, keystore.DefaultParams, rand.Reader)
	if err != nil {
		return err
	}
	return writePrivate(w.file, b)
}

// writePrivate writes a file readable and writable by its owner only,
// through a temporary file renamed into place, so that no reader ever sees
// a partial wallet.
func writePrivate(name string, b []byte) error { return writeAtomic(name, b, 0o600) }

// writeAtomic writes a file with permissions perm through a temporary
// file renamed into place, so that name holds the old file or the whole
// new one.
func writeAtomic(name string, b []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}

// walletInfo is what the wallet commands print.
type walletInfo struct {
	File      string `json:"file"`
	Address   string `json:"address"`
	DID       string `json:"did"`
	PublicKey string `json:"publicKey"`
	Mnemonic  string `json:"mnemonic,omitempty"`
	Index     *int   `json:"index,omitempty"`
}

func infoOf(file string, w *keystore.Wallet) walletInfo {
	info := walletInfo{File: file, Address: w.ProgramHash().Address(), DID: w.DID().String(), PublicKey: w.Key.Public().Base58()}
	if w.Mnemonic != "" {
		i := int(w.Index)
		info.Index = &i
	}
	return info
}

func (i walletInfo) print(w io.Writer, asJSON bool) error {
	if asJSON {
		return printJSON(w, i)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "wallet\t%s\naddress\t%s\nDID\t%s\npublic key\t%s\n", i.File, i.Address, i.DID, i.PublicKey)
	if i.Index != nil {
		fmt.Fprintf(tw, "key\tm/44'/0'/0'/0/%d of its mnemonic (the SDKs' DID key number %d)\n", *i.Index, *i.Index)
	}
	if i.Mnemonic != "" {
		fmt.Fprintf(tw, "mnemonic\t%s\n", i.Mnemonic)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if i.Mnemonic != "" {
		fmt.Fprintln(w, "\nWrite the mnemonic down and keep it offline: with its passphrase it restores this\nwallet (didlight wallet import) and its DIDs in any Elastos DID SDK. It is not shown again.")
	}
	return nil
}

func walletCreate(e *env, args []string) error {
	c := newCommand("wallet create", "", `
Creates a wallet from a fresh BIP39 mnemonic: its key is the one the Elastos DID
SDKs derive for DID number --index (m/44'/0'/0'/0/index), so the same words
restore the wallet and its DID anywhere. The file is sealed with a password
(scrypt + AES-256-GCM) and readable by you only; the mnemonic is shown once.`, `
  didlight wallet create --wallet alice.json
  didlight wallet create --wallet alice.json --password-file pw.txt --words 24 --json`)
	var (
		w                    walletFlags
		words                int
		index                uint
		passphraseFile       string
		force, asJSON, quiet bool
	)
	w.add(c.fs, true)
	c.fs.IntVar(&words, "words", 12, "mnemonic length: 12, 15, 18, 21 or 24 words")
	c.fs.UintVar(&index, "index", 0, "DID key number to use")
	c.fs.StringVar(&passphraseFile, "passphrase-file", "", "BIP39 passphrase (the SDKs' mnemonic passphrase) from the first line of this file; none by default")
	c.fs.BoolVar(&force, "force", false, "replace an existing wallet file")
	c.fs.BoolVar(&asJSON, "json", false, "print JSON")
	c.fs.BoolVar(&quiet, "no-mnemonic", false, "do not print the mnemonic (you will not see it again)")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	if words < 12 || words > 24 || words%3 != 0 {
		return usagef("--words %d: want 12, 15, 18, 21 or 24", words)
	}
	entropy := make([]byte, words*4/3)
	if _, err := rand.Read(entropy); err != nil {
		return err
	}
	mnemonic, err := hdkey.NewMnemonic(entropy)
	if err != nil {
		return err
	}
	wallet, err := mnemonicWallet(mnemonic, passphraseFile, index)
	if err != nil {
		return err
	}
	if err := w.save(e, wallet, force); err != nil {
		return err
	}
	info := infoOf(w.file, wallet)
	if !quiet {
		info.Mnemonic = mnemonic
	}
	return info.print(e.stdout, asJSON)
}

// mnemonicWallet derives DID key number index of a mnemonic, with the
// passphrase read from passphraseFile ("" for none).
func mnemonicWallet(mnemonic, passphraseFile string, index uint) (*keystore.Wallet, error) {
	var passphrase []byte
	if passphraseFile != "" {
		var err error
		if passphrase, err = readSecretFile(passphraseFile, "--passphrase-file"); err != nil {
			return nil, err
		}
	}
	if index >= uint(hdkey.Hardened) {
		return nil, usagef("--index %d: want below 2^31", index)
	}
	w, err := keystore.FromMnemonic(mnemonic, string(passphrase), uint32(index))
	if err != nil {
		return nil, usagef("%v", err)
	}
	return w, nil
}

func walletImport(e *env, args []string) error {
	c := newCommand("wallet import", "", `
Makes a wallet file from a secret you have: a BIP39 mnemonic (with --index and
--passphrase-file as the SDKs use them), a 64-digit hex private key, or an
extended private key (xprv…, as the SDKs export keys). The secret is read from
--secret-file, or asked on the terminal without echo.`, `
  didlight wallet import --wallet alice.json --secret-file words.txt --index 0
  didlight wallet import --wallet dev.json --secret-file dev.key --password-file pw.txt`)
	var (
		w                          walletFlags
		secretFile, passphraseFile string
		index                      uint
		force, asJSON              bool
	)
	w.add(c.fs, true)
	c.fs.StringVar(&secretFile, "secret-file", "", "file whose first line is the mnemonic, hex private key or xprv")
	c.fs.UintVar(&index, "index", 0, "with a mnemonic: the DID key number to use")
	c.fs.StringVar(&passphraseFile, "passphrase-file", "", "with a mnemonic: its BIP39 passphrase, from the first line of this file")
	c.fs.BoolVar(&force, "force", false, "replace an existing wallet file")
	c.fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	var secret []byte
	var err error
	if secretFile != "" {
		secret, err = readSecretFile(secretFile, "--secret-file")
	} else {
		secret, err = e.term.readSecret("Mnemonic, hex private key or xprv: ")
	}
	if err != nil {
		return err
	}
	wallet, err := walletFromSecret(strings.TrimSpace(string(secret)), passphraseFile, index)
	if err != nil {
		return err
	}
	if err := w.save(e, wallet, force); err != nil {
		return err
	}
	return infoOf(w.file, wallet).print(e.stdout, asJSON)
}

// walletFromSecret tells a mnemonic, a hex key and an xprv apart and makes
// the wallet.
func walletFromSecret(s, passphraseFile string, index uint) (*keystore.Wallet, error) {
	switch {
	case strings.HasPrefix(s, "xprv"):
		k, err := hdkey.ParseExtended(s)
		if err != nil {
			return nil, usagef("%v", err)
		}
		return &keystore.Wallet{Key: k.PrivateKey()}, nil
	case len(s) == 2*keys.PrivateKeySize && !strings.Contains(s, " "):
		raw, err := hex.DecodeString(s)
		if err != nil {
			return nil, usagef("the secret is 64 characters but not hex")
		}
		k, err := keys.NewPrivateKey(raw)
		if err != nil {
			return nil, usagef("%v", err)
		}
		return &keystore.Wallet{Key: k}, nil
	}
	return mnemonicWallet(s, passphraseFile, index)
}

func walletShow(e *env, args []string) error {
	c := newCommand("wallet show", "", `
Shows a wallet's address, DID and public key. No password is needed: they are
stored in the clear, bound to the sealed key so that they cannot be altered.`, `
  didlight wallet show --wallet alice.json
  DIDLIGHT_WALLET=alice.json didlight wallet show --json`)
	var (
		w      walletFlags
		asJSON bool
	)
	w.add(c.fs, false)
	c.fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	f, _, err := w.read()
	if err != nil {
		return err
	}
	return walletInfo{File: w.file, Address: f.Address, DID: f.DID, PublicKey: f.PublicKey}.print(e.stdout, asJSON)
}

func walletAddress(e *env, args []string) error {
	c := newCommand("wallet address", "", `
Prints the wallet's address (E…), the one to pay it at; with --did, the DID
its key derives.`, `
  didlight wallet address --wallet alice.json
  didlight resolve "$(didlight wallet address --wallet alice.json --did)" --verify
  didlight tx build --from "$(didlight wallet address --wallet alice.json)" --to E... --amount 1`)
	var (
		w              walletFlags
		asJSON, ownDID bool
	)
	w.add(c.fs, false)
	c.fs.BoolVar(&asJSON, "json", false, "print JSON: {address, did}")
	c.fs.BoolVar(&ownDID, "did", false, "print the wallet's DID instead")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	f, _, err := w.read()
	if err != nil {
		return err
	}
	switch {
	case asJSON:
		return printJSON(e.stdout, map[string]string{"address": f.Address, "did": f.DID})
	case ownDID:
		_, err = fmt.Fprintln(e.stdout, f.DID)
	default:
		_, err = fmt.Fprintln(e.stdout, f.Address)
	}
	return err
}

func walletBalance(e *env, args []string) error {
	c := newCommand("wallet balance", "", `
Shows the balance of a wallet (or of any --address) and its unspent outputs,
as the node's chain holds them (pending transactions not counted).`, `
  didlight wallet balance --wallet alice.json
  didlight wallet balance --address EUL3gVZCdJaj6oRfGfzYu8v41ecZvE1Unz --json`)
	var (
		w       walletFlags
		n       nodeFlags
		address string
		asJSON  bool
	)
	w.add(c.fs, false)
	n.add(c.fs)
	c.fs.StringVar(&address, "address", "", "an address to look at instead of the wallet's")
	c.fs.BoolVar(&asJSON, "json", false, "print JSON")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	if address == "" {
		f, _, err := w.read()
		if err != nil {
			return usagef("give --wallet FILE or --address ADDRESS")
		}
		address = f.Address
	}
	if _, err := parseAddress("--address", address); err != nil {
		return err
	}
	cl, ctx, cancel, err := n.client(restAPI)
	if err != nil {
		return err
	}
	defer cancel()
	balance, err := cl.Balance(ctx, address)
	if err != nil {
		return err
	}
	utxos, err := cl.UTXOs(ctx, address)
	if err != nil {
		return err
	}
	type out struct {
		Txid  string `json:"txid"`
		Index uint16 `json:"index"`
		Value string `json:"value"`
	}
	res := struct {
		Address string `json:"address"`
		Balance string `json:"balance"`
		UTXOs   []out  `json:"utxos"`
	}{Address: address, Balance: balance.String(), UTXOs: []out{}}
	for _, u := range utxos {
		if u.Asset == ela.ELAAssetID() {
			res.UTXOs = append(res.UTXOs, out{u.Txid.String(), u.Index, u.Value.String()})
		}
	}
	if asJSON {
		return printJSON(e.stdout, res)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "address\t%s\nbalance\t%s ELA\n\nTXID\tINDEX\tVALUE\n", res.Address, res.Balance)
	for _, u := range res.UTXOs {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", u.Txid, u.Index, u.Value)
	}
	return tw.Flush()
}

// noArgs parses the flags of a command that takes no positional argument.
func noArgs(c *cmdSpec, e *env, args []string) error {
	rest, err := c.parse(e, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("unexpected argument %q (run \"didlight %s -h\")", rest[0], c.name)
	}
	return nil
}

// parseAddress reads an address given by flag name.
func parseAddress(name, s string) (ela.ProgramHash, error) {
	if s == "" {
		return ela.ProgramHash{}, usagef("%s is required", name)
	}
	h, err := ela.ParseAddress(s)
	if err != nil {
		return h, usagef("%s %q is not a valid address: %v", name, s, err)
	}
	return h, nil
}
