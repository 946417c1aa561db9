package webapp_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/didlight/didlight/core/did"
)

// The chain view shows the tip's height and the latest blocks, newest
// first; a block shows its transactions and a transaction its details, and
// a transaction hash typed into the form is looked up.
func TestChainView(t *testing.T) {
	f := env(t)
	height, hash, _ := f.node.Chain.Tip()
	tb := newTab(t)
	tb.Open(f.app + "#/chain")
	tb.Wait(`document.querySelector('.height[data-height]')`)
	type blockRow struct{ Height, Hash string }
	shown := eval[string](tb, `document.querySelector('.height').dataset.height`)
	rows := eval[[]blockRow](tb, `[...document.querySelectorAll('table.blocks tbody tr')].map((tr) => ({height: tr.querySelector('th').innerText, hash: tr.querySelector('td span[title], td code').title || tr.querySelector('td').innerText}))`)
	if shown != strconv.Itoa(int(height)) || len(rows) != min(10, int(height)+1) {
		t.Fatalf("height %s with %d rows; want %d and %d rows", shown, len(rows), height, min(10, int(height)+1))
	}
	for i, r := range rows {
		if r.Height != strconv.Itoa(int(height)-i) {
			t.Errorf("row %d is block %s, want %d", i, r.Height, int(height)-i)
		}
	}
	if rows[0].Hash != hash.String() {
		t.Errorf("the tip's row shows hash %s, want %s", rows[0].Hash, hash)
	}

	// The tip block, then its first transaction.
	tb.Do(chromedp.Click(chromedp.CSS("table.blocks tbody tr th a")))
	tb.Wait(`document.querySelector('table.block-txs')`)
	txid := eval[string](tb, `document.querySelector('table.block-txs tbody tr th a').textContent`)
	tb.Do(chromedp.Click(chromedp.CSS("table.block-txs tbody tr th a")))
	tb.Wait(`document.querySelector('dl.tx[data-txid]')`)
	if got := eval[string](tb, `document.querySelector('dl.tx').dataset.txid`); got != txid {
		t.Errorf("the transaction view shows %s, want %s", got, txid)
	}

	// An identity operation's transaction, by hash.
	d, err := did.Parse(f.bob)
	if err != nil {
		t.Fatal(err)
	}
	last, err := f.lastTxid(d)
	if err != nil {
		t.Fatal(err)
	}
	tb.Do(chromedp.SetValue(chromedp.CSS("#tx-input"), last), chromedp.Click(chromedp.CSS("form.entry button[type=submit]")))
	tb.Wait(`document.querySelector('dl.tx[data-txid="` + last + `"]')`)
	if typ := eval[string](tb, `document.querySelector('dl.tx').innerText`); !strings.Contains(typ, "identity operation (0x0a)") {
		t.Errorf("the DID operation's transaction:\n%s", typ)
	}
}
