package client_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/host/client"
)

// A node that does not answer is reported with the URL that was tried,
// so that the user can tell a wrong --rest from a stopped node.
func ExampleUnreachableError() {
	c := client.New("http://127.0.0.1:1", "http://127.0.0.1:1/", nil)
	_, err := c.Height(context.Background())
	var ue *client.UnreachableError
	fmt.Println(errors.As(err, &ue), ue.URL)
	// Output: true http://127.0.0.1:1/api/v1/block/height
}
