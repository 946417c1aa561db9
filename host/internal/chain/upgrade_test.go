package chain

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// A store of format 1 (history entries without Expires, no format in meta)
// is upgraded when it is opened: every entry gets the Expires its operation
// gives, and resolving answers as before.
func TestUpgradeFormat1(t *testing.T) {
	f := newFixture(t, Config{})
	alice, bob := newUser("upgrade alice"), newUser("upgrade bob")
	alice.last = f.publish(alice.create(t, alice.document(t, GenesisTime.AddDate(2, 0, 0), nil)))
	alice.last = f.publish(alice.update(t, alice.document(t, GenesisTime.AddDate(3, 0, 0), []did.Service{service("hub", "Hub")})))
	bob.last = f.publish(bob.create(t, bob.document(t, f.clock.Now().Add(time.Hour), nil)))
	f.publish(bob.deactivate(t))
	vc := credential(t, f, alice, alice, "email", "EmailCredential")
	declare, err := idop.NewDeclare(vc, alice.primary(), alice.key)
	if err != nil {
		t.Fatal(err)
	}
	f.publish(declare)
	var before [][]byte
	for _, d := range []did.DID{alice.did(), bob.did()} {
		for _, all := range []bool{false, true} {
			b, err := f.c.ResolveDID(context.Background(), d, all)
			if err != nil {
				t.Fatal(err)
			}
			before = append(before, b)
		}
	}
	f.c.Close()

	downgrade(t, f.db, 4) // views of format 1 are those of format 4
	downgraded := 0
	err = f.db.Update(func(tx store.Tx) error {
		for _, name := range []string{didindex.BucketHistory, didindex.BucketCredHist} {
			b := bucket(tx, name)
			for k, v := range b.Scan(store.Range{}) {
				if err := b.Put(k, v[:len(v)-8]); err != nil { // Expires is the last field
					return err
				}
				downgraded++
			}
		}
		return bucket(tx, bucketMeta).Delete([]byte(metaFormat))
	})
	if err != nil || downgraded != 5 {
		t.Fatalf("downgrading %d entries: %v", downgraded, err)
	}
	f.open()
	checkIndexes(t, f.c) // every entry as the operations give it, Expires included
	i := 0
	for _, d := range []did.DID{alice.did(), bob.did()} {
		for _, all := range []bool{false, true} {
			if b, err := f.c.ResolveDID(context.Background(), d, all); err != nil || string(b) != string(before[i]) {
				t.Errorf("resolving %s (all %v) after the upgrade:\n got %s (%v)\nwant %s", d, all, b, err, before[i])
			}
			i++
		}
	}
	err = f.db.View(func(tx store.Tx) error {
		n, err := getU64(tx, metaFormat)
		if n != storeFormat {
			t.Errorf("format %d after the upgrade, want %d", n, storeFormat)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A store written by a newer version is refused, and left as it is.
func TestOpenNewerFormat(t *testing.T) {
	f := newFixture(t, Config{})
	f.c.Close()
	err := f.db.Update(func(tx store.Tx) error { return putMeta(tx, metaFormat, record.U64(storeFormat+1)) })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(f.cfg); err == nil || !strings.Contains(err.Error(), "newer than this version's") {
		t.Errorf("opening a store of format %d: %v", storeFormat+1, err)
	}
}
