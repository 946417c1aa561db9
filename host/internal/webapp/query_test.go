package webapp_test

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/didlight/didlight/host/client"
)

// queryView is the page of results the query console shows.
type queryView struct {
	Total, Start, Count string
	IDs                 []string
	Heading             string
	Prev, Next          bool // enabled
	Error               string
}

const readQuery = `(() => {
  const p = document.querySelector('.results .page');
  const err = document.querySelector('.results .alert-error');
  if (!p) return {error: err ? err.innerText : ''};
  return {
    total: p.dataset.total, start: p.dataset.start, count: p.dataset.count,
    ids: [...p.querySelectorAll('table.query-results tbody tr th a')].map((a) => a.textContent),
    heading: p.querySelector('h3').textContent,
    prev: !!p.querySelector('button.prev') && !p.querySelector('button.prev').disabled,
    next: !!p.querySelector('button.next') && !p.querySelector('button.next').disabled,
  };
})()`

// readPage waits for the page of results that starts at skip.
func (tb *tab) readPage(skip int) queryView {
	tb.T.Helper()
	tb.Wait(`document.querySelector('.results .page[data-start="` + strconv.Itoa(skip) + `"]') || document.querySelector('.results .alert-error')`)
	return eval[queryView](tb, readQuery)
}

// The console pages a query: each page holds the DIDs the node's query
// gives for that skip and limit, Previous and Next move by a page and are
// disabled at the ends.
func TestQueryPages(t *testing.T) {
	f := env(t)
	const limit = 3
	all, err := f.query(client.Query{Service: "HiveVault", Limit: 256})
	if err != nil {
		t.Fatal(err)
	}
	if all.Total <= 2*limit {
		t.Fatalf("%d DIDs with a HiveVault service: too few to page", all.Total)
	}
	tb := newTab(t)
	tb.Open(f.app + "#/query")
	tb.Wait(`document.getElementById('query-input')`)
	tb.Do(
		chromedp.Click(chromedp.CSS(`input[name=kind][value=service]`)),
		chromedp.SendKeys(chromedp.CSS("#query-input"), "HiveVault"),
		chromedp.SetValue(chromedp.CSS("#query-limit"), strconv.Itoa(limit)),
		chromedp.Click(chromedp.CSS("form.query button[type=submit]")),
	)
	pages := (all.Total + limit - 1) / limit
	for page := range pages {
		skip := page * limit
		v := tb.readPage(skip)
		want := all.Document[skip:min(skip+limit, all.Total)]
		var ids []string
		for _, d := range want {
			ids = append(ids, d.ID)
		}
		if !slices.Equal(v.IDs, ids) || v.Total != strconv.Itoa(all.Total) || v.Count != strconv.Itoa(len(ids)) {
			t.Fatalf("page %d: %+v; want total %d and %v", page+1, v, all.Total, ids)
		}
		if v.Prev != (page > 0) || v.Next != (page < pages-1) {
			t.Errorf("page %d of %d: previous enabled %v, next enabled %v", page+1, pages, v.Prev, v.Next)
		}
		if page < pages-1 {
			tb.Do(chromedp.Click(chromedp.CSS("button.next")))
		}
	}
	tb.Do(chromedp.Click(chromedp.CSS("button.prev")))
	if v := tb.readPage((pages - 2) * limit); !v.Next {
		t.Errorf("back one page: %+v", v)
	}
}

// A find condition is sent as typed (relaxed syntax included); one the
// node refuses shows the node's reason.
func TestQueryCondition(t *testing.T) {
	f := env(t)
	tb := newTab(t)
	const cond = `{credential.subject.name:'Bob'}`
	tb.Open(f.app + "#/query?kind=query&limit=5&q=" + url.QueryEscape(cond))
	if v := tb.readPage(0); !slices.Equal(v.IDs, []string{f.bob}) {
		t.Errorf("%s: %+v, want %s", cond, v, f.bob)
	}
	tb.Open(f.app + "#/query?kind=query&q=" + url.QueryEscape(`{credential:`))
	tb.Wait(`document.querySelector('.results .alert-error')`)
	if v := eval[queryView](tb, readQuery); !strings.Contains(v.Error, "Query parameters invalid") {
		t.Errorf("a condition that does not parse: %q", v.Error)
	}
}
