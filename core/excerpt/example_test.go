package excerpt_test

import (
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// An error names the value it was given, however long: a short one whole,
// a long one by its start and its length.
func ExampleQuote() {
	fmt.Println(excerpt.Quote("did:elastos:x"))
	fmt.Println(excerpt.Quote(strings.Repeat("a", 1000))[95:])
	// Output:
	// "did:elastos:x"
	// aaaaaa"… (1000 bytes)
}

// Bytes reads no more of a body than it quotes.
func ExampleBytes() {
	fmt.Println(excerpt.Bytes([]byte("<html>busy</html>")))
	// Output: "<html>busy</html>"
}
