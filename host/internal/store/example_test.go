package store_test

import (
	"encoding/binary"
	"fmt"

	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// A record and its index entries go into one Update, so readers see both or
// neither; a reverse prefix scan reads one DID's history newest first.
func Example() {
	db := mem.New() // or bolt.Open(dir, bolt.Options{})
	defer db.Close()

	ops := []string{"create", "update", "deactivate"}
	for height, op := range ops {
		err := db.Update(func(tx store.Tx) error {
			txs, history, err := chainBuckets(tx)
			if err != nil {
				return err
			}
			id, err := txs.NextSequence()
			if err != nil {
				return err
			}
			if err := txs.Put(binary.BigEndian.AppendUint64(nil, id), []byte(op)); err != nil {
				return err
			}
			key := binary.BigEndian.AppendUint32([]byte("did:example:alice/"), uint32(height))
			return history.Put(key, binary.BigEndian.AppendUint64(nil, id))
		})
		if err != nil {
			fmt.Println(err)
		}
	}

	err := db.View(func(tx store.Tx) error {
		txs, history, err := chainBuckets(tx)
		if err != nil {
			return err
		}
		for key, id := range history.Scan(store.Range{Prefix: []byte("did:example:alice/"), Reverse: true}) {
			op, _ := txs.Get(id)
			fmt.Printf("height %d: tx %d %s\n", binary.BigEndian.Uint32(key[len(key)-4:]), binary.BigEndian.Uint64(id), op)
		}
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// height 2: tx 3 deactivate
	// height 1: tx 2 update
	// height 0: tx 1 create
}

// chainBuckets returns the example's two buckets: transactions by number,
// and each DID's history by height.
func chainBuckets(tx store.Tx) (txs, history store.Bucket, err error) {
	if txs, err = tx.Bucket("txs"); err != nil {
		return nil, nil, err
	}
	history, err = tx.Bucket("history")
	return txs, history, err
}
