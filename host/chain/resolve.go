package chain

import (
	"didlight/core/did"
	"didlight/core/resolve"
	"didlight/host/chain/internal/record"
	"didlight/host/store"
)

// ResolveDID returns the resolvedid result object for d (see
// resolve.Result): its status at the tip's block time and its latest
// transaction, or with all its whole history, newest first. A DID that
// does not exist gives status 3, not an error.
func (c *Chain) ResolveDID(d did.DID, all bool) ([]byte, error) {
	var out []byte
	err := c.view(func(s snapshot) error {
		tip, err := readTip(s.tx)
		if err != nil {
			return err
		}
		h, err := s.history(d.Key())
		if err != nil {
			return err
		}
		out, err = resolve.Result(d, h, all, int64(tip.Time))
		return err
	})
	return out, err
}

// history returns the operations of the DID with key key, oldest first.
func (s snapshot) history(key string) ([]resolve.Entry, error) {
	prefix := record.HistoryPrefix(key)
	var h []resolve.Entry
	for k, v := range bucket(s.tx, bucketHistory).Scan(store.Range{Prefix: prefix}) {
		height, pos, err := record.ParseHistoryKey(prefix, k)
		if err != nil {
			return nil, err
		}
		e, err := record.ParseEntry(v)
		if err != nil {
			return nil, err
		}
		h = append(h, resolve.Entry{Txid: e.Txid.String(), Height: height, Position: int(pos), Time: int64(e.Time), Request: e.Request})
	}
	return h, nil
}
