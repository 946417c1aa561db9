package bolt

import (
	"testing"

	"github.com/didlight/didlight/host/internal/rss"
)

// A trim takes the pages a scan mapped out of the process's resident
// memory (RssFile), and every value still reads back equal.
func TestTrimDropsMapped(t *testing.T) {
	db, err := Open(t.TempDir(), Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const n = 8000 // 32 MB of values
	putRange(t, db, 0, n)
	if err := checkRange(db, 0, n); err != nil {
		t.Fatal(err)
	}
	before, err := rss.Self()
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Trim(); err != nil {
		t.Fatal(err)
	}
	after, err := rss.Self()
	if err != nil {
		t.Fatal(err)
	}
	if dropped := before.File - after.File; dropped < n*4096*3/4 {
		t.Errorf("RssFile %d bytes before the trim, %d after: want at least %d fewer", before.File, after.File, n*4096*3/4)
	}
	if err := checkRange(db, 0, n); err != nil {
		t.Error(err)
	}
}
