package jsonrpc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/scaling"
)

// BenchmarkScaleDecode decodes bodies and the params of each call, grown by
// their calls, members and strings. See package scaling for what the
// ratios mean.
func BenchmarkScaleDecode(b *testing.B) {
	call := `{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y","all":true},"id":%d}`
	scaling.Run(b, map[string]func(int) []byte{
		"batch": func(n int) []byte {
			return []byte(scaling.Repeat(n, "[", ",", "]", func(i int) string { return fmt.Sprintf(call, i) }))
		},
		"batch-of-100": func(n int) []byte {
			pad := strings.Repeat("x", max(0, n/100-100))
			return []byte(scaling.Repeat(n, "[", ",", "]", func(i int) string {
				return fmt.Sprintf(`{"method":"query","params":{"service":"%s"},"id":%d}`, pad, i)
			}))
		},
		"members": func(n int) []byte {
			return []byte(scaling.Repeat(n, `{"jsonrpc":"2.0","method":"resolvedid","id":1,"params":{"did":"x",`, ",", "}}",
				func(i int) string { return fmt.Sprintf(`"all":%v`, i%2 == 0) }))
		},
		"string": func(n int) []byte {
			return []byte(`{"jsonrpc":"2.0","method":"resolvedid","id":1,"params":{"did":"` + strings.Repeat("x", n-70) + `"}}`)
		},
		"id": func(n int) []byte {
			return []byte(`{"jsonrpc":"2.0","method":"resolvedid","params":{"did":"x"},"id":"` + strings.Repeat("7", n-70) + `"}`)
		},
		"array-params": func(n int) []byte {
			return []byte(scaling.Repeat(n, `{"method":"did_resolveDID","id":1,"params":[`, ",", "]}", func(i int) string { return `{"did":"x"}` }))
		},
	}, func(body []byte) error {
		calls, _, err := Decode(body)
		for _, c := range calls {
			var p struct {
				DID string `json:"did"`
				All bool   `json:"all"`
			}
			DecodeParams(c.Params, &p)
		}
		if err != nil {
			return err
		}
		return nil
	})
}
