package chain

import (
	"context"
	"errors"
	"testing"

	"github.com/didlight/didlight/core/ela"
)

// FuzzSubmitTx submits arbitrary bytes: the chain must refuse them with a
// *RejectError or accept them, never fail otherwise or panic, and a block
// must take whatever it accepted.
func FuzzSubmitTx(f *testing.F) {
	fx := newFixture(f, Config{})
	fx.split(fx.dev(), 4)
	u := newUser("fuzz")
	f.Add(fx.transfer(fx.dev(), newWallet("fuzz").ph, 1).Bytes())
	f.Add(fx.opTx(fx.dev(), u.create(f, u.document(f, GenesisTime.AddDate(1, 0, 0), nil))).Bytes())
	f.Add(fx.c.genesis.Bytes())
	f.Add([]byte{byte(ela.TxDIDOperation), 0})
	f.Fuzz(func(t *testing.T, raw []byte) {
		_, err := fx.c.SubmitTx(raw)
		if _, ok := errors.AsType[*RejectError](err); err != nil && !ok {
			t.Fatalf("SubmitTx failed with %v, not a RejectError", err)
		}
		if err == nil {
			if _, err := fx.c.Mine(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	})
}
