package didindex

import (
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Latest returns the part of a DID's history a result without all shows:
// its newest operation and, when that is a deactivate, the operation before
// it, which published the document it deactivated (nothing follows a
// deactivate, and it follows a document). Reading them costs the same
// whatever the length of the history.
func (s Reader) Latest(key string) ([]resolve.Entry, error) {
	return s.entries(BucketHistory, key, func(h []resolve.Entry) bool {
		return len(h) == 2 || h[0].Request.Header.Operation != idop.Deactivate
	})
}

// History returns the operations of the DID with key key, newest first.
func (s Reader) History(key string) ([]resolve.Entry, error) {
	return s.entries(BucketHistory, key, nil)
}

// entries returns the history entries of key in a history bucket, newest
// first, until enough (nil for all) says that those read are enough. The
// entries are read in place: ParseEntry keeps nothing of the store's slice
// (its strings are one copy of it), so a history of several kilobytes an
// operation is copied once, not twice.
func (s Reader) entries(name, key string, enough func([]resolve.Entry) bool) ([]resolve.Entry, error) {
	prefix := record.HistoryPrefix(key)
	h := make([]resolve.Entry, 0, 2)
	for k, v := range bucket(s.tx, name).ScanShared(store.Range{Prefix: prefix, Reverse: true}) {
		height, pos, err := record.ParseHistoryKey(prefix, k)
		if err != nil {
			return nil, err
		}
		e, err := record.ParseEntry(v)
		if err != nil {
			return nil, err
		}
		if h = append(h, resolveEntry(e, height, pos)); enough != nil && enough(h) {
			break
		}
	}
	return h, nil
}

func resolveEntry(e *record.Entry, height, pos uint32) resolve.Entry {
	return resolve.Entry{Txid: e.Txid.String(), Height: height, Position: int(pos), Time: int64(e.Time), Request: e.Request, Expires: e.Expires}
}
