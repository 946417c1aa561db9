package wasmrt_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/didlight/didlight/host/internal/wasmbuild"
	"github.com/didlight/didlight/host/wasmrt"
	"github.com/didlight/didlight/wasm/abi"
)

// A Go program runs core's answers from the sandboxed module: compile it
// once (the machine code is cached on disk), then call it from any
// goroutine. Each call takes and returns the abi package's Go values.
func Example() {
	ctx := context.Background()
	// A program ships the module as a file (`make wasm` writes
	// wasm/js/didlight.wasm) or embeds it; this example builds it from
	// the repository's source.
	module, err := wasmbuild.Build(ctx, "../../wasm")
	if err != nil {
		fmt.Println(err)
		return
	}
	rt, err := wasmrt.New(ctx, module, wasmrt.WithCacheDir(filepath.Join(os.TempDir(), "didlight-wasmrt-test")))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close(ctx)

	d, err := rt.ParseDID(ctx, abi.ParseDIDInput{DID: "iop7hwsiP3uDuf5TjvZxGB44tUTvuj2vQS"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.DID, "customized:", d.Customized)

	m, err := rt.Match(ctx, abi.MatchInput{
		Condition: json.RawMessage(`"{'service.type': {$in: ['HiveVault']}}"`),
		Documents: []json.RawMessage{
			json.RawMessage(`{"id":"did:elastos:alice","service":[{"type":"HiveVault"}]}`),
			json.RawMessage(`{"id":"did:elastos:bob","service":[{"type":"ProfilePage"}]}`),
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("matches:", m.Matches)

	// A refusal comes back as an *abi.Error saying what is wrong.
	_, err = rt.ParseDID(ctx, abi.ParseDIDInput{DID: "did:web:example.org"})
	fmt.Println(err)
	// Output:
	// did:elastos:iop7hwsiP3uDuf5TjvZxGB44tUTvuj2vQS customized: false
	// matches: [true false]
	// did: "did:web:example.org": method "web", want "elastos"
}
