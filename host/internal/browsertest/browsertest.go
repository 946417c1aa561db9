// Package browsertest drives Chromium from Go tests of the browser app.
//
// One headless browser serves a test binary, started on first use, with a
// tab per test whose screenshot and console are kept when the test fails.
// `make test` installs Debian's Chromium when it is missing; without it (or
// without the WASI shim of wasm/js) a test skips outside CI and fails under
// CI=true, as [testenv.Check] decides.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/didlight/didlight/host/internal/testenv"
	"github.com/didlight/didlight/host/internal/wasmbuild"
)

// Chromium is the browser's program, looked up on PATH: Debian's chromium,
// which `make test` installs when missing.
const Chromium = "chromium"

// ActionTimeout bounds one browser action, a wait included.
const ActionTimeout = 60 * time.Second

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
	path, err := testenv.LookPath(Chromium, "`make test` installs it: apt-get install chromium")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "didlight-chromium-")
	if err != nil {
		return err
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(path),
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

// Close stops the browser, if a test started it; call it from TestMain.
func Close() {
	if browser.cancel != nil {
		browser.cancel()
	}
}

// Tab is a page of the shared browser. When its test fails, a screenshot
// of it is written and its console is logged.
type Tab struct {
	T   testing.TB
	ctx context.Context

	mu      sync.Mutex
	console []chromedp.ConsoleMessage
}

// screenshots is where failing tests leave a picture of their tab.
var screenshots = filepath.Join(os.TempDir(), "didlight-web-screenshots")

// NewTab opens a tab for the test, closed when it ends; the test fails
// when the page throws.
func NewTab(t testing.TB) *Tab {
	t.Helper()
	browser.once.Do(func() { browser.err = startBrowser() })
	testenv.Check(t, browser.err)
	ctx, cancel := chromedp.NewContext(browser.ctx)
	tb := &Tab{T: t, ctx: ctx}
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
func (tb *Tab) screenshot() {
	ctx, cancel := context.WithTimeout(tb.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.T.Logf("no screenshot: %v", err)
		return
	}
	name := regexp.MustCompile(`[^A-Za-z0-9_.-]+`).ReplaceAllString(tb.T.Name(), "_")
	path := filepath.Join(screenshots, fmt.Sprintf("%s-%s.png", name, time.Now().Format("150405.000")))
	err = os.MkdirAll(screenshots, 0o755)
	if err == nil {
		err = os.WriteFile(path, png, 0o644)
	}
	if err != nil {
		tb.T.Logf("screenshot not written: %v", err)
		return
	}
	tb.T.Logf("screenshot of the failing page: %s", path)
}

func (tb *Tab) logConsole() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, m := range tb.console {
		tb.T.Logf("console %s", m)
	}
}

// exceptions are the page's uncaught exceptions and unhandled rejections.
func (tb *Tab) exceptions() []string {
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

// Do runs actions, each bounded by ActionTimeout; a failure ends the test.
func (tb *Tab) Do(actions ...chromedp.Action[chromedp.Void]) {
	tb.T.Helper()
	for _, a := range actions {
		ctx, cancel := context.WithTimeout(tb.ctx, ActionTimeout)
		_, err := chromedp.Run(ctx, a)
		cancel()
		if err != nil {
			tb.T.Fatalf("browser: %v", err)
		}
	}
}

// Open loads url and waits until the app has found its node and loaded
// (or failed to load) the verifier.
func (tb *Tab) Open(url string) {
	tb.T.Helper()
	tb.Do(chromedp.Navigate(url))
	tb.Wait(`document.body.dataset.ready === 'true' || document.querySelector('main .alert-error')`)
}

// Wait waits until a JavaScript expression is truthy.
func (tb *Tab) Wait(expr string) {
	tb.T.Helper()
	tb.Do(chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingTimeout(ActionTimeout), chromedp.WithPollingInterval(20*time.Millisecond)))
}

// Eval evaluates a JavaScript expression in tb's page (awaiting a promise)
// and decodes its value.
func Eval[T any](tb *Tab, expr string) T {
	tb.T.Helper()
	ctx, cancel := context.WithTimeout(tb.ctx, ActionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		var exc *chromedp.ExceptionError
		if errors.As(err, &exc) {
			tb.T.Fatalf("evaluating %s: %v", strings.SplitN(expr, "\n", 2)[0], exc)
		}
		tb.T.Fatalf("evaluating: %v", err)
	}
	return v
}

// Assets returns what the app serves browsers besides its own files: the
// module built from the checkout whose root is root (stripped, as `make
// wasm` writes it) and the WASI shim npm installed in wasm/js.
func Assets(root string) (module []byte, shim fs.FS, err error) {
	dir, err := testenv.Shim(root)
	if err != nil {
		return nil, nil, err
	}
	m, err := wasmbuild.Build(context.Background(), filepath.Join(root, "wasm"))
	if err != nil {
		return nil, nil, err
	}
	m, err = wasmbuild.Strip(m)
	return m, os.DirFS(dir), err
}

// OpenCORS lets pages of any origin call h, as a didlight node serves its
// reads: it answers preflights for POST with a JSON body, and marks every
// answer for any origin.
func OpenCORS(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "POST")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.ServeHTTP(w, r)
	})
}
