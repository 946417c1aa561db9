package cli

import (
	"bytes"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// SIGTERM stops the node within its grace period even while expensive
// requests are in flight: 24 resolvedid calls with 512 KiB DIDs, which cost
// 1.6 s of CPU each before identifiers had limits and held a store read
// open meanwhile, so that the node took over 20 s to exit on two cores.
func TestStopWithExpensiveRequestsInFlight(t *testing.T) {
	c := startNodeProcess(t, "--datadir", t.TempDir())
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"resolvedid","params":{"did":"did:elastos:i` + strings.Repeat("x", 512<<10) + `"}}`)
	client := &http.Client{Timeout: time.Minute}
	var wg sync.WaitGroup
	for range 24 {
		wg.Go(func() {
			resp, err := client.Post(c.rpc, "application/json", bytes.NewReader(body))
			if err == nil {
				resp.Body.Close()
			}
		})
	}
	time.Sleep(300 * time.Millisecond) // the requests are sent and being read
	c.stop()                           // within 15 s, status 0
	wg.Wait()
}
