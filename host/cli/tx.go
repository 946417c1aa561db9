package cli

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/spend"
	"github.com/didlight/didlight/host/client"
)

// runTx is `didlight tx`.
func runTx(args []string, stdout, stderr io.Writer) int {
	return runGroup("tx", "Build, sign, broadcast and inspect ledger transactions.", []subcommand{
		{"build", "build an unsigned payment from the node's unspent outputs", txBuild},
		{"sign", "sign a transaction with a wallet's key", txSign},
		{"send", "broadcast a signed transaction, print its txid", txSend},
		{"show", "decode a transaction and print its JSON", txShow},
	}, args, stdout, stderr)
}

// defaultFee is what a transaction pays when --fee is not given: a hundred
// times the node's minimum (100 sela), as ELA wallets pay.
const defaultFee = "0.0001"

func txBuild(e *env, args []string) error {
	c := newCommand("tx build", "", `
Builds an unsigned payment of --amount ELA from --from to --to, paying --fee.
It spends the payer's unspent outputs as the node reports them (the smallest
one that covers amount and fee, else the largest first) and sends the change
back to the payer. The unsigned transaction is printed in hex on stdout, a
summary on stderr; sign it with "didlight tx sign", then "didlight tx send".`, `
  didlight tx build --from EUL3gVZCdJaj6oRfGfzYu8v41ecZvE1Unz --to EJyNEaTDCKDeT7Q1Yn2Xb5fh25vUqifw4z --amount 1.5
  didlight tx build --wallet alice.json --to EJyNEaTDCKDeT7Q1Yn2Xb5fh25vUqifw4z --amount 0.25 --fee 0.00001 --json`)
	var (
		w                   walletFlags
		n                   nodeFlags
		from, to, amt, feeS string
		asJSON              bool
	)
	w.add(c.fs, false)
	n.add(c.fs)
	c.fs.StringVar(&from, "from", "", "the paying address (default: the --wallet's)")
	c.fs.StringVar(&to, "to", "", "the address to pay")
	c.fs.StringVar(&amt, "amount", "", "ELA to pay, up to 8 decimals (1.5, 0.00000100)")
	c.fs.StringVar(&feeS, "fee", defaultFee, "ELA paid to the block producer; the node's minimum is 0.000001")
	c.fs.BoolVar(&asJSON, "json", false, "print JSON: hex, txid, inputs, outputs, fee")
	if err := noArgs(c, e, args); err != nil {
		return err
	}
	if from == "" && w.file != "" {
		f, _, err := w.read()
		if err != nil {
			return err
		}
		from = f.Address
	}
	fromHash, err := parseAddress("--from", from)
	if err != nil {
		return err
	}
	toHash, err := parseAddress("--to", to)
	if err != nil {
		return err
	}
	amount, err := parseAmount("--amount", amt)
	if err != nil {
		return err
	}
	if amount <= 0 {
		return usagef("--amount %s: want more than 0", amt)
	}
	fee, err := parseAmount("--fee", feeS)
	if err != nil {
		return err
	}
	cl, ctx, cancel, err := n.client(restAPI)
	if err != nil {
		return err
	}
	defer cancel()
	tx, err := buildSpend(ctx, cl, fromHash, spend.Order{To: []spend.Payment{{To: toHash, Amount: amount}}, Fee: fee})
	if err != nil {
		return err
	}
	raw := hex.EncodeToString(tx.Bytes())
	if asJSON {
		return printJSON(e.stdout, struct {
			Hex string     `json:"hex"`
			Fee string     `json:"fee"`
			Tx  ela.TxJSON `json:"tx"`
		}{raw, fee.String(), tx.JSON(ela.TxContext{})})
	}
	fmt.Fprintf(e.stderr, "unsigned payment of %s ELA to %s, fee %s, %d input(s), txid %s once signed\n",
		amount, to, fee, len(tx.Inputs), tx.Hash())
	_, err = fmt.Fprintln(e.stdout, raw)
	return err
}

// buildSpend fills in the order's payer, coins and asset from the node and
// builds the unsigned transaction. A short balance gives *spend.ShortError.
func buildSpend(ctx context.Context, cl *client.Client, from ela.ProgramHash, o spend.Order) (*ela.Tx, error) {
	if from.Prefix() != ela.PrefixStandard {
		return nil, usagef("the payer %s is not a standard (E…) address, which one key signs", from)
	}
	utxos, err := cl.UTXOs(ctx, from.Address())
	if err != nil {
		return nil, err
	}
	o.From, o.Asset = from, ela.ELAAssetID()
	for _, u := range utxos {
		if u.Asset == o.Asset {
			o.Coins = append(o.Coins, spend.Coin{Txid: u.Txid, Index: u.Index, Value: u.Value})
		}
	}
	tx, err := spend.Build(o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", from, err)
	}
	return tx, nil
}

// parseAmount reads an ELA amount given by flag name.
func parseAmount(name, s string) (ela.Fixed64, error) {
	if s == "" {
		return 0, usagef("%s is required", name)
	}
	v, err := ela.ParseFixed64(s)
	if err != nil {
		return 0, usagef("%s %q: %v", name, s, err)
	}
	if v < 0 {
		return 0, usagef("%s %s is negative", name, s)
	}
	return v, nil
}

// readTx reads a transaction in hex: the positional argument, or the file
// --file names.
func readTx(c *cmdSpec, rest []string, file string) (*ela.Tx, error) {
	var text string
	switch {
	case file != "" && len(rest) == 0:
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, usagef("--file: %v", err)
		}
		text = string(b)
	case file == "" && len(rest) == 1:
		text = rest[0]
	default:
		return nil, usagef("give the transaction as one HEX argument or --file FILE (run \"didlight %s -h\")", c.name)
	}
	raw, err := hex.DecodeString(strings.TrimSpace(text))
	if err != nil {
		return nil, usagef("the transaction is not hex: %v", err)
	}
	tx, err := ela.ParseTx(raw)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return tx, nil
}

func txSign(e *env, args []string) error {
	c := newCommand("tx sign", "HEX", `
Signs a transaction with the wallet's key (the program of its standard
address) and prints the signed transaction in hex. Signing again replaces
the wallet's earlier signature. Nothing is sent: see "didlight tx send".`, `
  didlight tx sign --wallet alice.json 02000100...
  didlight tx sign --wallet alice.json --password-file pw.txt --file unsigned.hex > signed.hex`)
	var (
		w    walletFlags
		file string
	)
	w.add(c.fs, true)
	c.fs.StringVar(&file, "file", "", "read the transaction hex from this file")
	rest, err := c.parse(e, args)
	if err != nil {
		return err
	}
	tx, err := readTx(c, rest, file)
	if err != nil {
		return err
	}
	if len(tx.Inputs) == 0 {
		return usagef("the transaction spends nothing: there is nothing to sign")
	}
	wallet, err := w.open(e)
	if err != nil {
		return err
	}
	tx.SignStandard(wallet.Key)
	_, err = fmt.Fprintln(e.stdout, hex.EncodeToString(tx.Bytes()))
	return err
}

func txSend(e *env, args []string) error {
	c := newCommand("tx send", "HEX", `
Broadcasts a signed transaction to the node and prints its txid. With --wait,
waits until it is in a block. A transaction spending an output already spent
(a double spend) or otherwise invalid is refused with the node's error code.`, `
  didlight tx send 02000100...
  didlight tx send --file signed.hex --wait --json`)
	var (
		n      nodeFlags
		file   string
		wait   bool
		asJSON bool
	)
	n.add(c.fs)
	c.fs.StringVar(&file, "file", "", "read the transaction hex from this file")
	c.fs.BoolVar(&wait, "wait", false, "wait until the transaction is in a block")
	c.fs.BoolVar(&asJSON, "json", false, "print JSON: txid (and block, with --wait)")
	rest, err := c.parse(e, args)
	if err != nil {
		return err
	}
	tx, err := readTx(c, rest, file)
	if err != nil {
		return err
	}
	cl, ctx, cancel, err := n.client(restAPI)
	if err != nil {
		return err
	}
	defer cancel()
	txid, block, err := sendTx(ctx, e, cl, tx, wait)
	if err != nil {
		return err
	}
	if asJSON {
		return printJSON(e.stdout, sent{Txid: txid.String(), BlockHash: block})
	}
	_, err = fmt.Fprintln(e.stdout, txid)
	return err
}

// sent is the JSON of a broadcast.
type sent struct {
	Txid      string `json:"txid"`
	BlockHash string `json:"blockhash,omitempty"`
}

// sendTx broadcasts tx and, when wait is set, waits for its block (with a
// spinner on a terminal) and returns the block hash.
func sendTx(ctx context.Context, e *env, cl *client.Client, tx *ela.Tx, wait bool) (ela.Hash, string, error) {
	txid, err := cl.Send(ctx, tx.Bytes())
	if err != nil || !wait {
		return txid, "", err
	}
	s := spin(e, e.stderr, "waiting for transaction "+txid.String()+" to be in a block")
	mined, err := cl.WaitConfirmed(ctx, txid, 200*time.Millisecond)
	s.end()
	if err != nil {
		return txid, "", err
	}
	return txid, mined.BlockHash, nil
}

func txShow(e *env, args []string) error {
	c := newCommand("tx show", "HEX", `
Decodes a transaction, signed or not, and prints it as the node's REST API
shows transactions (txid, vin, vout with 8-decimal values, payload, programs).
Nothing is asked of the node.`, `
  didlight tx show 02000100...
  didlight tx show --file signed.hex`)
	var file string
	c.fs.StringVar(&file, "file", "", "read the transaction hex from this file")
	rest, err := c.parse(e, args)
	if err != nil {
		return err
	}
	tx, err := readTx(c, rest, file)
	if err != nil {
		return err
	}
	return printJSON(e.stdout, tx.JSON(ela.TxContext{}))
}
