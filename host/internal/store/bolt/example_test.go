package bolt_test

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// A data directory holds one store file; a second Open while the first is
// open fails with ErrInUse instead of waiting.
func ExampleOpen() {
	dir, err := os.MkdirTemp("", "didlight-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer db.Close()
	err = db.Update(func(tx store.Tx) error {
		b, err := tx.Bucket("settings")
		if err != nil {
			return err
		}
		return b.Put([]byte("network"), []byte("devnet"))
	})
	fmt.Println("committed:", err == nil)

	_, err = bolt.Open(dir, bolt.Options{LockTimeout: 50 * time.Millisecond})
	fmt.Println("second open in use:", errors.Is(err, bolt.ErrInUse))
	// Output:
	// committed: true
	// second open in use: true
}
