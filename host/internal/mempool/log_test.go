package mempool

import (
	"bytes"
	"encoding/binary"
	"errors"
	"path/filepath"
	"testing"

	"github.com/didlight/didlight/host/internal/record"
)

// TestLog appends batches to a log and opens it again: the records come
// back in order, each with the count it was appended with. (What a drop
// leaves after a reopen is the wal package's, tested there.)
func TestLog(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mempool.log")
	l, recs, err := OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 0 {
		t.Fatalf("a new log holds %d records", len(recs))
	}
	type logged struct {
		received uint64
		tx       record.PoolTx
	}
	batches := []struct {
		name     string
		received uint64
		txs      []record.PoolTx
	}{
		{"one", 3, []record.PoolTx{{Epoch: 1, Raw: []byte{1, 2, 3}}}},
		{"two", 5, []record.PoolTx{{Epoch: 1, Raw: []byte{4}}, {Epoch: 2, Raw: []byte{5, 6}}}},
		{"a later epoch", 10, []record.PoolTx{{Epoch: 1 << 40, Raw: bytes.Repeat([]byte{8}, 300)}}},
	}
	var want []logged
	for _, b := range batches {
		t.Run(b.name, func(t *testing.T) {
			ids, err := l.Append(b.received, b.txs)
			if err != nil {
				t.Fatal(err)
			}
			if len(ids) != len(b.txs) {
				t.Fatalf("%d ids for %d transactions", len(ids), len(b.txs))
			}
			for _, p := range b.txs {
				want = append(want, logged{b.received, p})
			}
		})
	}
	if got := l.Appends(); got != uint64(len(batches)) {
		t.Errorf("Appends = %d, want %d", got, len(batches))
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(11, batches[0].txs); !errors.Is(err, ErrClosed) {
		t.Errorf("Append on a closed log: %v, want ErrClosed", err)
	}
	l, recs, err = OpenLog(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(recs) != len(want) {
		t.Fatalf("the log reopened holds %d records, want %d", len(recs), len(want))
	}
	for i, r := range recs {
		received, p, err := ParseLogRecord(r.Body)
		if err != nil {
			t.Fatalf("record %d: %v", r.ID, err)
		}
		if received != want[i].received || p.Epoch != want[i].tx.Epoch || !bytes.Equal(p.Raw, want[i].tx.Raw) {
			t.Errorf("record %d: received %d, %+v; want %d, %+v", r.ID, received, *p, want[i].received, want[i].tx)
		}
	}
	if err := l.DropAll(); err != nil {
		t.Fatal(err)
	}
}

// TestParseLogRecordRefuses gives ParseLogRecord bodies no log writes.
func TestParseLogRecordRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		body []byte
	}{
		{"empty", nil},
		{"short of a count", []byte{0, 0, 0, 0, 0, 0, 1}},
		{"a count alone", []byte{0, 0, 0, 0, 0, 0, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := ParseLogRecord(tc.body); err == nil {
				t.Errorf("ParseLogRecord(%x) took it", tc.body)
			}
		})
	}
}

// FuzzParseLogRecord decodes arbitrary bodies: what decodes encodes back
// to the same bytes.
func FuzzParseLogRecord(f *testing.F) {
	p := record.PoolTx{Epoch: 7, Raw: []byte{1, 2, 3}}
	f.Add(append([]byte{0, 0, 0, 0, 0, 0, 0, 4}, p.Bytes()...))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, body []byte) {
		received, p, err := ParseLogRecord(body)
		if err != nil {
			return
		}
		got := append(binary.BigEndian.AppendUint64(nil, received), p.Bytes()...)
		if !bytes.Equal(got, body) {
			t.Fatalf("ParseLogRecord(%x) encodes back as %x", body, got)
		}
	})
}
