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
		var h []resolve.Entry
		var err error
		if all {
			h, err = s.history(d.Key(), 0)
		} else {
			h, err = s.latest(d.Key())
		}
		if err != nil {
			return err
		}
		out, err = resolve.Result(d, h, all, at)
		return err
	})
	return out, err
}

// latest returns the part of a DID's history a result without all shows:
// its newest operation and, when that is a deactivate, the operation that
// published the document it deactivated. Reading them costs the same
// whatever the length of the history.
func (s snapshot) latest(key string) ([]resolve.Entry, error) {
	rec, err := s.didRecord(key)
	if err != nil || rec == nil {
		return nil, err
	}
	h, err := s.history(key, 1)
	if err != nil || !rec.Deactivated {
		return h, err
	}
	e, err := s.entry(key, rec.DocHeight, rec.DocPos)
	if err != nil {
		return nil, err
	}
	return append(h, resolveEntry(e, rec.DocHeight, rec.DocPos)), nil
}

// history returns the operations of the DID with key key, newest first:
// all of them, or the newest n.
func (s snapshot) history(key string, n int) ([]resolve.Entry, error) {
	prefix := record.HistoryPrefix(key)
	var h []resolve.Entry
	for k, v := range bucket(s.tx, bucketHistory).Scan(store.Range{Prefix: prefix, Reverse: true}) {
		height, pos, err := record.ParseHistoryKey(prefix, k)
		if err != nil {
			return nil, err
		}
		e, err := record.ParseEntry(v)
		if err != nil {
			return nil, err
		}
		if h = append(h, resolveEntry(e, height, pos)); len(h) == n {
			break
		}
	}
	return h, nil
}

func resolveEntry(e *record.Entry, height, pos uint32) resolve.Entry {
	return resolve.Entry{Txid: e.Txid.String(), Height: height, Position: int(pos), Time: int64(e.Time), Request: e.Request}
}
