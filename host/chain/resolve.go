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
func (c *Chain) ResolveDID(d did.DID, all bool) ([]byte, error) { return c.resolveDID(d, all, true) }

// ResolveDIDSDK returns the result object the SDKs' did_resolveDID
// expects: as ResolveDID, except that expiry is left to the client, as the
// EID chain leaves it (an expired DID has status 0; the published JS SDK
// refuses status 1). It passes core/resolve a tip time before any expiry.
func (c *Chain) ResolveDIDSDK(d did.DID, all bool) ([]byte, error) {
	return c.resolveDID(d, all, false)
}

func (c *Chain) resolveDID(d did.DID, all, judgeExpiry bool) ([]byte, error) {
	var out []byte
	err := c.view(func(s snapshot) error {
		var at int64
		if judgeExpiry {
			tip, err := readTip(s.tx)
			if err != nil {
				return err
			}
			at = int64(tip.Time)
		}
		h, err := s.history(d.Key())
		if err != nil {
			return err
		}
		out, err = resolve.Result(d, h, all, at)
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
