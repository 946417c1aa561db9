package ledger

import (
	"crypto/sha256"
	"errors"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
)

func arbiterKeys(t *testing.T, n int) []*keys.PrivateKey {
	t.Helper()
	out := make([]*keys.PrivateKey, n)
	for i := range out {
		b := sha256.Sum256([]byte{byte(i)})
		k, err := keys.NewPrivateKey(b[:])
		if err != nil {
			t.Fatal(err)
		}
		out[i] = k
	}
	return out
}

func TestCheckConfirm(t *testing.T) {
	ks := arbiterKeys(t, 4)
	arbiters := NewArbiters([]keys.PublicKey{ks[0].Public(), ks[1].Public(), ks[2].Public()})
	block := ela.Hash{1, 2, 3}
	confirm := func(sponsor *keys.PrivateKey, h ela.Hash, votes ...*keys.PrivateKey) *ela.Confirm {
		cf := ela.NewConfirm(sponsor, h, 0)
		for _, k := range votes {
			cf.AddVote(k, true)
		}
		return cf
	}
	rejecting := confirm(ks[0], block, ks[0])
	rejecting.AddVote(ks[1], false)
	forged := confirm(ks[0], block, ks[0], ks[1])
	forged.Votes[1].Signature[0] ^= 1

	tests := []struct {
		name string
		cf   *ela.Confirm
		want string // "" for none
	}{
		{"one vote", confirm(ks[0], block, ks[0]), ""},
		{"every arbiter", confirm(ks[0], block, ks[2], ks[0], ks[1]), ""},
		{"none", nil, "the block has no confirm"},
		{"another block", confirm(ks[0], ela.Hash{9}, ks[0]), "the confirm is of block"},
		{"another sponsor", confirm(ks[1], block, ks[1]), "is not the chain's first arbiter"},
		{"no votes", confirm(ks[0], block), "the confirm has no votes"},
		{"a stranger votes", confirm(ks[0], block, ks[0], ks[3]), "confirm vote 1 is by"},
		{"a vote rejects", rejecting, "confirm vote 1 (arbiter 1) rejects the block"},
		{"a vote repeats", confirm(ks[0], block, ks[1], ks[1]), "confirm vote 1 repeats arbiter 1"},
		{"a forged vote", forged, "signature"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := arbiters.CheckConfirm(tc.cf, block, keys.Native{})
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
	if err := arbiters.CheckConfirm(forged, block, keys.Native{}); !errors.Is(err, ela.ErrSignature) {
		t.Errorf("a forged vote: %v, want ela.ErrSignature", err)
	}
}
