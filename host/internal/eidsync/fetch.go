package eidsync

import (
	"context"
	"fmt"
	"strings"

	"github.com/didlight/didlight/host/client/eid"
)

// Upstream is what a scan asks of an EID node; *eid.Client is one.
type Upstream interface {
	ChainID(ctx context.Context) (uint64, error)
	BlockNumber(ctx context.Context) (uint64, error)
	Blocks(ctx context.Context, from uint64, n int) ([]*eid.TxBlock, error)
	Receipts(ctx context.Context, hashes []string) ([]*eid.Receipt, error)
}

// The addresses DID operations are sent to, in lower case.
const (
	// MainnetContract and TestnetContract are the public DID contracts,
	// whose publishDidTransaction hands an operation to the precompile
	// (Elastos.DID.Java.SDK Network.java; the DID DevGuide).
	MainnetContract = "0x46e5936a9baa167b3368f4197edce746a66f7a7a"
	TestnetContract = "0xf654c3cbbb60d7f4ac7cda325d51e62f47acd436"
	// Precompile is the precompiled contract that runs DID operations;
	// senders may call it directly (EID core/vm/did_contracts.go).
	Precompile = "0x0000000000000000000000000000000000000016"
)

// ContractOf returns the DID contract of the chain with id chainID:
// mainnet 22, testnet 23 (EID params/config.go); ok is false for others.
func ContractOf(chainID uint64) (contract string, ok bool) {
	switch chainID {
	case 22:
		return MainnetContract, true
	case 23:
		return TestnetContract, true
	}
	return "", false
}

// fetched is what one fetch found: blocks in order, and the DID
// transactions in them that were refused or carried no didLog.
type fetched struct {
	blocks  []*Block
	refused int
	creates int // accepted operations whose didLog says create
	short   bool
	err     error
}

// fetch reads n blocks from number from on, and the receipts of their
// transactions to the DID contract or the precompile: those with status 1
// and a didLog are the blocks' Ops. short says the upstream had fewer
// blocks than asked for.
func (s *Scanner) fetch(ctx context.Context, from uint64, n int) fetched {
	tbs, err := s.up.Blocks(ctx, from, n)
	if err != nil {
		return fetched{err: err}
	}
	f := fetched{blocks: make([]*Block, len(tbs)), short: len(tbs) < n}
	type ref struct {
		block *Block
		tx    eid.Tx
	}
	var hashes []string
	var refs []ref
	for i, tb := range tbs {
		b, err := block(tb)
		if err != nil {
			return fetched{err: err}
		}
		if i > 0 && b.Parent != f.blocks[i-1].Hash {
			return fetched{err: fmt.Errorf("eidsync: block %d's parent is not block %d: the upstream changed branch while it answered", b.Number, b.Number-1)}
		}
		f.blocks[i] = b
		for _, tx := range tb.Txs {
			if tx.To == s.contract || tx.To == Precompile {
				hashes = append(hashes, tx.Hash)
				refs = append(refs, ref{b, tx})
			}
		}
	}
	for len(hashes) > 0 {
		k := min(len(hashes), s.batch)
		rs, err := s.up.Receipts(ctx, hashes[:k])
		if err != nil {
			return fetched{err: err}
		}
		for i, r := range rs {
			b, tx := refs[i].block, refs[i].tx
			if r.BlockHash != b.Hash.String() || r.Index != tx.Index {
				return fetched{err: fmt.Errorf("eidsync: the receipt of %s is in block %s at %d, the block fetched is %s: the upstream changed branch", tx.Hash, r.BlockHash, r.Index, b.Hash)}
			}
			if r.Status != 1 || r.DIDLog == nil {
				f.refused++
				continue
			}
			h, err := ParseHash(tx.Hash)
			if err != nil {
				return fetched{err: err}
			}
			if strings.EqualFold(r.DIDLog.Operation, "create") {
				f.creates++
			}
			b.Ops = append(b.Ops, Op{TxHash: h, Index: tx.Index, From: tx.From, Data: r.DIDLog.Data})
		}
		hashes, refs = hashes[k:], refs[k:]
	}
	return f
}

// block returns the Block of tb, without its Ops.
func block(tb *eid.TxBlock) (*Block, error) {
	h, err := ParseHash(tb.Hash)
	if err != nil {
		return nil, err
	}
	p, err := ParseHash(tb.ParentHash)
	if err != nil {
		return nil, err
	}
	return &Block{Number: tb.Number, Hash: h, Parent: p, Time: tb.Time}, nil
}
