package chain

import (
	"fmt"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/resolve"
	"github.com/didlight/didlight/host/internal/bitmap"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/ledgerstore"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// checkIndexes fails the test unless the store is exactly what its blocks
// imply: it replays every block from the genesis (each linked to the one
// before, passing ledger.CheckBlock, with a confirm that verifies) and
// compares every index bucket, key for key and byte for byte, with what
// the replay computes.
func checkIndexes(t testing.TB, c *Chain) {
	t.Helper()
	err := c.db.View(func(tx store.Tx) error {
		want, err := replay(snapshot{c: c, tx: tx})
		if err != nil {
			return err
		}
		for name, kv := range want {
			got := map[string]string{}
			for k, v := range bucket(tx, name).Scan(store.Range{}) {
				got[string(k)] = string(v)
			}
			if err := sameBucket(name, got, kv); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func sameBucket(name string, got, want map[string]string) error {
	for k, v := range want {
		if g, ok := got[k]; !ok || g != v {
			return fmt.Errorf("bucket %s, key %x: stored %x (%v), replay gives %x", name, k, g, ok, v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			return fmt.Errorf("bucket %s holds key %x, which the replay does not give", name, k)
		}
	}
	return nil
}

// didModel is a DID's state as the replay computes it.
type didModel struct {
	rec       record.DID
	view, doc []byte // the query view in scan form, the document normalized
}

// replay computes the index buckets from the stored blocks.
func replay(s snapshot) (map[string]map[string]string, error) {
	want := map[string]map[string]string{}
	for _, name := range []string{ledgerstore.BucketBlocks, ledgerstore.BucketHashes, ledgerstore.BucketTxs, ledgerstore.BucketUTXOs, ledgerstore.BucketAddresses,
		ledgerstore.BucketBalances, didindex.BucketDIDs, didindex.BucketHistory, didindex.BucketViews, didindex.BucketDocs, didindex.BucketServices, didindex.BucketCredTypes,
		didindex.BucketCredHist, didindex.BucketCreds, didindex.BucketOwned, didindex.BucketFields, didindex.BucketCounts} {
		want[name] = map[string]string{}
	}
	tip, err := readTip(s.tx)
	if err != nil {
		return nil, err
	}
	utxos := map[string]record.UTXO{}
	dids := map[string]*didModel{}
	creds := map[string]*record.Credential{}
	var order []string // DID keys in creation order
	var prev *ela.Header
	var txCount uint64
	for h := uint32(0); h <= tip.Height; h++ {
		b, _, err := s.block(h)
		if err != nil {
			return nil, err
		}
		if err := checkBlock(s, b, prev); err != nil {
			return nil, fmt.Errorf("block %d: %w", h, err)
		}
		rec, _ := ledgerstore.ReadBlock(s.tx, h)
		want[ledgerstore.BucketBlocks][string(record.HeightKey(h))] = string(rec.Bytes())
		hash := b.Hash()
		want[ledgerstore.BucketHashes][string(hash[:])] = string(record.HeightKey(h))
		for pos, t := range b.Transactions {
			txid := t.Hash()
			want[ledgerstore.BucketTxs][string(txid[:])] = string((&record.Tx{Height: h, Pos: uint32(pos), Raw: t.Bytes()}).Bytes())
			if t.Type() != ela.TxCoinBase {
				for _, in := range t.Inputs {
					k := string(record.OutpointKey(in.TxID, in.Index))
					if _, ok := utxos[k]; !ok {
						return nil, fmt.Errorf("block %d transaction %d spends %s:%d, which is not unspent", h, pos, in.TxID, in.Index)
					}
					delete(utxos, k)
				}
			}
			for i, o := range t.Outputs {
				utxos[string(record.OutpointKey(txid, uint16(i)))] = record.UTXO{Output: o, Height: h, Pos: uint32(pos), Coinbase: t.Type() == ela.TxCoinBase}
			}
			if p, ok := t.Payload.(*ela.Operation); ok && p.Header.Specification == idop.SpecCredential {
				if err := replayCredential(want, creds, requestOf(p), txid, h, uint32(pos), b.Header.Timestamp); err != nil {
					return nil, fmt.Errorf("block %d transaction %d: %w", h, pos, err)
				}
			} else if ok {
				key, err := replayOp(want, dids, requestOf(p), txid, h, uint32(pos), b.Header.Timestamp)
				if err != nil {
					return nil, fmt.Errorf("block %d transaction %d: %w", h, pos, err)
				}
				if key != "" {
					order = append(order, key)
				}
			}
		}
		txCount += uint64(len(b.Transactions))
		prev = &b.Header
	}
	balances := map[string]ela.Fixed64{}
	for k, u := range utxos {
		want[ledgerstore.BucketUTXOs][k] = string(u.Bytes())
		var txid ela.Hash
		copy(txid[:], k)
		index := uint16(k[32])<<8 | uint16(k[33])
		o := u.Output
		want[ledgerstore.BucketAddresses][string(record.AddressKey(o.ProgramHash, u.Height, u.Pos, index))] = string((&record.AddressUTXO{TxID: txid, Asset: o.AssetID, Value: o.Value}).Bytes())
		balances[string(record.BalanceKey(o.ProgramHash, o.AssetID))] += o.Value
	}
	for k, v := range balances {
		if v != 0 {
			want[ledgerstore.BucketBalances][k] = string(record.Amount(v))
		}
	}
	counts := map[string]uint64{}
	fields := map[string]*bitmap.Container{}
	for _, key := range order {
		m := dids[key]
		want[didindex.BucketDIDs][key] = string(m.rec.Bytes())
		if m.rec.Deactivated {
			continue
		}
		view, err := didindex.StoredView(m.view)
		if err != nil {
			return nil, err
		}
		want[didindex.BucketViews][string(record.SeqKey(m.rec.Seq))] = string(view.Bytes())
		want[didindex.BucketDocs][string(record.SeqKey(m.rec.Seq))] = string(m.doc)
		for _, typ := range m.rec.Services {
			want[didindex.BucketServices][string(record.PostingKey(typ, m.rec.Seq))] = key
		}
		for _, typ := range m.rec.Credentials {
			want[didindex.BucketCredTypes][string(record.PostingKey(typ, m.rec.Seq))] = key
		}
		counts[string(record.CountKey(didindex.BucketViews, nil))]++
		for _, typ := range m.rec.Services {
			counts[string(record.CountKey(didindex.BucketServices, record.PostingPrefix(typ)))]++
		}
		for _, typ := range m.rec.Credentials {
			counts[string(record.CountKey(didindex.BucketCredTypes, record.PostingPrefix(typ)))]++
		}
		for _, p := range didindex.Postings(m.view) {
			prefix, _ := record.FieldPrefix(p.Path, p.Value)
			key := string(record.FieldKey(prefix, m.rec.Seq>>bitmap.ChunkBits))
			if fields[key] == nil {
				fields[key] = &bitmap.Container{}
			}
			fields[key].Add(uint16(m.rec.Seq))
			counts[string(record.CountKey(didindex.BucketFields, prefix))]++
		}
	}
	for k, c := range fields {
		want[didindex.BucketFields][k] = string(c.Encode())
	}
	for k, n := range counts {
		want[didindex.BucketCounts][k] = string(record.U64(n))
	}
	for key, rec := range creds {
		want[didindex.BucketCreds][key] = string(rec.Bytes())
	}
	if got, n := bucket(s.tx, didindex.BucketOwned).Sequence(), len(want[didindex.BucketOwned]); got != uint64(n) {
		return nil, fmt.Errorf("the declare sequence is %d, %d credentials were declared", got, n)
	}
	if got := bucket(s.tx, didindex.BucketDIDs).Sequence(); got != uint64(len(order)) {
		return nil, fmt.Errorf("the DID sequence is %d, %d DIDs were created", got, len(order))
	}
	n, err := getU64(s.tx, metaTxnCount)
	if err != nil || n != txCount {
		return nil, fmt.Errorf("the stored transaction count is %d (%v), the blocks hold %d", n, err, txCount)
	}
	if tip.Hash != prev.Hash() || tip.Time != prev.Timestamp {
		return nil, fmt.Errorf("the tip %+v is not the last block", tip)
	}
	return want, nil
}

// checkBlock checks a stored block against the one before it (nil for the
// genesis): its structure and coinbase, and its confirm.
func checkBlock(s snapshot, b *ela.Block, prev *ela.Header) error {
	p := s.c.params
	if prev == nil {
		if b.Hash() != s.c.genesis.Hash() {
			return fmt.Errorf("the genesis is %s, want %s", b.Hash(), s.c.genesis.Hash())
		}
	} else if err := p.CheckBlock(b, prev); err != nil {
		return err
	}
	cf, err := s.c.Confirm(b.Hash())
	if err != nil {
		return err
	}
	if cf.BlockHash != b.Hash() || cf.Verify(keys.Native{}) != nil || len(cf.Votes) != len(s.c.arbiters) {
		return fmt.Errorf("the confirm %+v does not confirm the block", cf.JSON())
	}
	if prev == nil {
		return nil
	}
	cb := b.Transactions[0]
	return p.CheckCoinbase(cb, b.Header.Height, cb.Outputs[0].Value-p.Subsidy)
}

// replayCredential applies a credential operation to the model.
func replayCredential(want map[string]map[string]string, creds map[string]*record.Credential, req idop.Request, txid ela.Hash, height, pos, t uint32) error {
	op, err := idop.Decode(req)
	if err != nil {
		return err
	}
	key := op.CredentialID.Key()
	e := record.Entry{Txid: txid, Time: t, Request: req}
	want[didindex.BucketCredHist][string(record.HistoryKey(key, height, pos))] = string(e.Bytes())
	rec := creds[key]
	if rec == nil {
		rec = &record.Credential{}
		creds[key] = rec
	}
	if req.Header.Operation == idop.Revoke {
		rec.Revokers = append(rec.Revokers, op.Method.DID.String())
		return nil
	}
	if !rec.DeclTxid.IsZero() {
		return fmt.Errorf("credential %s declared twice", key)
	}
	rec.DeclTxid, rec.DeclHeight, rec.DeclPos = txid, height, pos
	seq := uint64(len(want[didindex.BucketOwned]) + 1)
	want[didindex.BucketOwned][string(record.PostingKey(op.DID.Key(), seq))] = op.CredentialID.String()
	return nil
}

// replayOp applies an identity operation to the model and returns the key
// of a DID it creates.
func replayOp(want map[string]map[string]string, dids map[string]*didModel, req idop.Request, txid ela.Hash, height, pos, t uint32) (string, error) {
	op, err := idop.Decode(req)
	if err != nil {
		return "", err
	}
	key := op.DID.Key()
	e := record.Entry{Txid: txid, Time: t, Request: req}
	if op.Document != nil {
		e.Expires = op.Document.Expires().Unix()
	}
	want[didindex.BucketHistory][string(record.HistoryKey(key, height, pos))] = string(e.Bytes())
	m := dids[key]
	created := ""
	switch {
	case req.Header.Operation == idop.Create && m == nil:
		m = &didModel{rec: record.DID{Seq: uint64(len(dids) + 1)}}
		dids[key], created = m, key
	case m == nil || m.rec.Deactivated || req.Header.Operation == idop.Create:
		return "", fmt.Errorf("%s of %s in a block, not valid on its state", req.Header.Operation, key)
	}
	m.rec.LastTxid = txid
	if req.Header.Operation == idop.Deactivate {
		m.rec.Deactivated, m.rec.Services, m.rec.Credentials = true, nil, nil
		return created, nil
	}
	doc := op.Document
	m.rec.DocTxid, m.rec.DocHeight, m.rec.DocPos = txid, height, pos
	m.rec.Services, m.rec.Credentials = doc.ServiceTypes(), doc.CredentialTypes()
	m.view, m.doc = resolve.View(doc), doc.Normalized()
	return created, nil
}
