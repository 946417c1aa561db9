package abi_test

import (
	"fmt"

	"github.com/didlight/didlight/wasm/abi"
)

// Every call takes a JSON object and answers an envelope: the result, or an
// error object.
func ExampleParseDID() {
	fmt.Printf("%s\n", abi.ParseDID([]byte(`{"did":"foobar"}`), abi.Env{}))
	fmt.Printf("%s\n", abi.ParseDID([]byte(`{"did":"did:web:example.com"}`), abi.Env{}))
	// Output:
	// {"result":{"did":"did:elastos:foobar","id":"foobar","customized":true}}
	// {"error":{"type":"invalid","message":"did: \"did:web:example.com\": method \"web\", want \"elastos\""}}
}

// A find condition in the shell's relaxed syntax, matched against documents
// as the query method does.
func ExampleMatch() {
	in := `{"condition":"{service:{$elemMatch:{type:'HiveVault'}}}",
	        "documents":[{"service":[{"type":"HiveVault"}]},{"service":[]}]}`
	fmt.Printf("%s\n", abi.Match([]byte(in), abi.Env{}))
	// Output:
	// {"result":{"matches":[true,false]}}
}
