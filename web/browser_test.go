package web_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium is Debian's Chromium, which `make test` installs when missing.
const chromium = "/usr/bin/chromium"

// actionTimeout bounds one browser action, a wait included.
const actionTimeout = 60 * time.Second

// One headless Chromium serves every test, each in its own tab.
var browser struct {
	once   sync.Once
	ctx    context.Context
	cancel func()
	dir    string // its fresh user data directory
	err    error
}

// startBrowser starts Chromium as the task asks of a closed network:
// headless, no sandbox (tests run as root), no GPU, and nothing that
// phones home (background networking, component updates, sync, first-run
// tasks), with a fresh profile.
func startBrowser() error {
	if _, err := os.Stat(chromium); err != nil {
		return fmt.Errorf("no Chromium at %s (%v): `make test` installs it (apt-get install chromium)", chromium, err)
	}
	dir, err := os.MkdirTemp("", "didlight-chromium-")
	if err != nil {
		return err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	browser.ctx, browser.dir = ctx, dir
	browser.cancel = func() { cancel(); cancelAlloc(); os.RemoveAll(dir) }
	// The first action starts the browser; it must not run under a timeout.
	_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void](`1`))
	return err
}

func closeBrowser() {
	if browser.cancel != nil {
		browser.cancel()
	}
}

// tab is a page of the shared browser. When its test fails, a screenshot
// of it is written and its console is logged.
type tab struct {
	t   *testing.T
	ctx context.Context

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// screenshots is where failing tests leave a picture of their tab.
var screenshots = filepath.Join(os.TempDir(), "didlight-web-screenshots")

func newTab(t *testing.T) *tab {
	t.Helper()
	browser.once.Do(func() { browser.err = startBrowser() })
	if browser.err != nil {
		t.Fatal(browser.err)
	}
	ctx, cancel := chromedp.NewContext(browser.ctx)
	tb := &tab{t: t, ctx: ctx}
	messages := chromedp.Console(ctx) // opens the tab
	listening, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for m, err := range messages {
			if err != nil || listening.Err() != nil {
				return
			}
			tb.mu.Lock()
			tb.console = append(tb.console, m)
			tb.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		if t.Failed() {
			tb.screenshot()
			tb.logConsole()
		} else if exc := tb.exceptions(); len(exc) > 0 {
			t.Errorf("the page threw: %v", exc)
		}
		stop()
		cancel()
		<-done
	})
	return tb
}

// screenshot writes the whole page to a PNG file under screenshots and
// logs its path.
func (tb *tab) screenshot() {
	ctx, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Logf("no screenshot: %v", err)
		return
	}
	name := regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(tb.t.Name(), "_")
	path := filepath.Join(screenshots, fmt.Sprintf("%s-%s.png", name, time.Now().Format("150405.000")))
	err = os.MkdirAll(screenshots, 0o755)
	if err == nil {
		err = os.WriteFile(path, png, 0o644)
	}
	if err != nil {
		tb.t.Logf("screenshot not written: %v", err)
		return
	}
	tb.t.Logf("screenshot of the failing page: %s", path)
}

func (tb *tab) logConsole() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, m := range tb.console {
		tb.t.Logf("console %s", m)
	}
}

// exceptions are the page's uncaught exceptions and unhandled rejections.
func (tb *tab) exceptions() []string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	var out []string
	for _, m := range tb.console {
		if m.IsException() {
			out = append(out, m.Text)
		}
	}
	return out
}

// do runs actions, each bounded by actionTimeout; a failure ends the test.
func (tb *tab) do(actions ...chromedp.Action[chromedp.Void]) {
	tb.t.Helper()
	for _, a := range actions {
		ctx, cancel := context.WithTimeout(tb.ctx, actionTimeout)
		_, err := chromedp.Run(ctx, a)
		cancel()
		if err != nil {
			tb.t.Fatalf("browser: %v", err)
		}
	}
}

// open loads url and waits until the app has found its node and loaded
// (or failed to load) the verifier.
func (tb *tab) open(url string) {
	tb.t.Helper()
	tb.do(chromedp.Navigate(url))
	tb.wait(`document.body.dataset.ready === 'true' || document.querySelector('main .alert-error')`)
}

// wait waits until a JavaScript expression is truthy.
func (tb *tab) wait(expr string) {
	tb.t.Helper()
	tb.do(chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(actionTimeout), chromedp.WithPollingInterval(20*time.Millisecond)))
}

// eval evaluates a JavaScript expression in tb's page (awaiting a promise)
// and decodes its value.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		var exc *chromedp.ExceptionError
		if errors.As(err, &exc) {
			tb.t.Fatalf("evaluating %s: %v", strings.SplitN(expr, "\n", 2)[0], exc)
		}
		tb.t.Fatalf("evaluating: %v", err)
	}
	return v
}
