package ledger_test

import (
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
)

// poolTx returns a transaction of size bytes spending the outputs ins of
// one funding transaction, carrying op.
func poolTx(t *testing.T, n byte, size int, op *idop.Op, ins ...uint16) ledger.PoolTx {
	t.Helper()
	tx := &ela.Tx{}
	for _, i := range ins {
		tx.Inputs = append(tx.Inputs, ela.Input{TxID: ela.Hash{0xf0}, Index: i, Sequence: uint32(n)})
	}
	return ledger.PoolTx{Tx: tx, Txid: ela.Hash{n}, Size: size, Op: op}
}

func didOp(t *testing.T, s string) *idop.Op {
	t.Helper()
	d, err := did.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return &idop.Op{Request: idop.Request{Header: idop.Header{Specification: idop.SpecDID}}, DID: d}
}

func credentialOp(t *testing.T, s string) *idop.Op {
	t.Helper()
	id, err := did.ParseCredentialID(s)
	if err != nil {
		t.Fatal(err)
	}
	return &idop.Op{Request: idop.Request{Header: idop.Header{Specification: idop.SpecCredential}}, DID: id.DID, CredentialID: id}
}

func TestPool(t *testing.T) {
	const alice = "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"
	pooled := func(t *testing.T) *ledger.Pool[string] {
		p := ledger.NewPool[string](3, 1000)
		if err := p.Add(poolTx(t, 1, 400, didOp(t, alice), 0), "one"); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		tx   ledger.PoolTx
		code ledger.Code
		rule idop.Rule
	}{
		{"another transaction", poolTx(t, 2, 100, nil, 1), 0, ""},
		{"the same transaction", poolTx(t, 1, 100, nil, 1), ledger.Duplicate, ""},
		{"a pooled transaction's output", poolTx(t, 2, 100, nil, 1, 0), ledger.DoubleSpend, ""},
		{"an operation on a pending DID", poolTx(t, 2, 100, didOp(t, alice), 1), ledger.Payload, idop.RulePending},
		{"a credential of the pending DID", poolTx(t, 2, 100, credentialOp(t, alice+"#profile"), 1), 0, ""},
		{"too many bytes", poolTx(t, 2, 601, nil, 1), ledger.PoolFull, ""},
		{"just enough bytes", poolTx(t, 2, 600, nil, 1), 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := pooled(t)
			err := p.Add(tc.tx, "two")
			if got := ledger.CodeOf(err); got != tc.code || idop.RuleOf(err) != tc.rule {
				t.Fatalf("Add: %v (code %d, rule %q), want code %d rule %q", err, got, idop.RuleOf(err), tc.code, tc.rule)
			}
			v, ok := p.Get(tc.tx.Txid)
			want := map[bool]string{true: "two", false: ""}[tc.code == 0]
			if tc.code == ledger.Duplicate {
				want = "one"
			}
			if v != want || ok != (want != "") {
				t.Errorf("after Add: Get = %q, %v; want %q", v, ok, want)
			}
			if wantLen := map[bool]int{true: 2, false: 1}[tc.code == 0]; p.Len() != wantLen {
				t.Errorf("Len = %d, want %d", p.Len(), wantLen)
			}
		})
	}
}

func TestPoolRemove(t *testing.T) {
	const alice = "did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"
	p := ledger.NewPool[int](2, 1000)
	first := poolTx(t, 1, 600, didOp(t, alice), 0)
	if err := p.Add(first, 1); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(poolTx(t, 2, 100, nil, 1), 2); err != nil {
		t.Fatal(err)
	}
	if err := p.Add(poolTx(t, 3, 100, nil, 2), 3); ledger.CodeOf(err) != ledger.PoolFull {
		t.Fatalf("a third transaction: %v, want PoolFull", err)
	}
	if !p.Remove(first.Txid) || p.Remove(first.Txid) {
		t.Fatal("Remove did not report once that it took the transaction out")
	}
	if _, ok := p.Spender(ela.Input{TxID: ela.Hash{0xf0}, Index: 0}); ok {
		t.Error("the removed transaction's output is still spent")
	}
	if h, ok := p.Spender(ela.Input{TxID: ela.Hash{0xf0}, Index: 1}); !ok || h != (ela.Hash{2}) {
		t.Errorf("Spender of the other output = %s, %v, want transaction 2", h, ok)
	}
	// Its DID, outputs and bytes are free again.
	if err := p.Add(poolTx(t, 4, 900, didOp(t, alice), 0), 4); err != nil {
		t.Errorf("an operation on the DID after Remove: %v", err)
	}
	if err := p.CheckPending(didOp(t, alice)); idop.RuleOf(err) != idop.RulePending {
		t.Errorf("CheckPending: %v, want RulePending", err)
	}
	if err := p.CheckPending(nil); err != nil {
		t.Errorf("CheckPending(nil) = %v", err)
	}
	// Clear empties it, and keeps its bounds.
	p.Clear()
	if _, ok := p.Spender(ela.Input{TxID: ela.Hash{0xf0}, Index: 1}); ok || p.Len() != 0 || p.CheckPending(didOp(t, alice)) != nil {
		t.Errorf("after Clear: %d transactions, or an output or DID still held", p.Len())
	}
	if err := p.Add(poolTx(t, 5, 1001, nil, 0), 5); ledger.CodeOf(err) != ledger.PoolFull {
		t.Errorf("after Clear, a transaction over the byte bound: %v, want PoolFull", err)
	}
}
