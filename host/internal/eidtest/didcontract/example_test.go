package didcontract_test

import (
	"encoding/hex"
	"fmt"

	"github.com/didlight/didlight/host/internal/eidtest/didcontract"
)

// An operation reaches EID's precompile as [32-byte length][JSON], sent
// straight to it or through the contract's publishDidTransaction.
func Example() {
	op := []byte(`{"header":{}}`)
	fmt.Println(hex.EncodeToString(didcontract.PrecompileInput(op)[24:32]), string(didcontract.PrecompileInput(op)[32:]))
	call := didcontract.Calldata(op)
	fmt.Println(hex.EncodeToString(call[:4]), len(call))
	// Output:
	// 000000000000000d {"header":{}}
	// 03c6d240 100
}
