package ela

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/keys"
)

func sampleConfirm(t testing.TB) *Confirm {
	ks := testKeys(t, "user1.id.primary", "user2.id.primary", "user3.id.primary")
	c := NewConfirm(ks[0], GenesisBlock().Hash(), 2)
	c.AddVote(ks[0], true)
	c.AddVote(ks[1], true)
	c.AddVote(ks[2], false)
	return c
}

func TestConfirmRoundTrip(t *testing.T) {
	c := sampleConfirm(t)
	if err := c.Verify(keys.Native{}); err != nil {
		t.Fatalf("Verify of a fresh confirm: %v", err)
	}
	raw := c.Bytes()
	// Layout: sponsor varbytes, block hash, view offset, signature
	// varbytes, then a fixed 8-byte vote count.
	if raw[0] != 33 || raw[1+33+32] != 2 || raw[1+33+32+4] != 64 {
		t.Errorf("proposal layout %x", raw[:1+33+32+4+1])
	}
	if n := binary.LittleEndian.Uint64(raw[1+33+32+4+65:]); n != 3 {
		t.Errorf("vote count %d, want 3", n)
	}
	parsed, err := ParseConfirm(raw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := txDiff(c, parsed); diff != "" {
		t.Errorf("binary round trip (-built +parsed):\n%s", diff)
	}
	j := viaJSON[ConfirmJSON](t, c.JSON())
	back, err := j.Confirm()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back.Bytes(), raw) {
		t.Error("JSON round trip changed the bytes")
	}
	if j.BlockHash != GenesisBlock().Hash().String() || j.Votes[2].Accept {
		t.Errorf("JSON block hash %s, third vote accept %v", j.BlockHash, j.Votes[2].Accept)
	}
}

func TestConfirmVerifyFails(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Confirm)
		reason string
	}{
		{"other block", func(c *Confirm) { c.BlockHash[0] ^= 1 }, "sponsor's signature"},
		{"vote flipped", func(c *Confirm) { c.Votes[2].Accept = true }, "vote 2"},
		{"vote by another key", func(c *Confirm) { c.Votes[1].Signer = c.Votes[0].Signer }, "vote 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := sampleConfirm(t)
			tc.change(c)
			if err := c.Verify(keys.Native{}); !errors.Is(err, ErrSignature) || !strings.Contains(err.Error(), tc.reason) {
				t.Errorf("%s: error %v, want ErrSignature about %q", tc.name, err, tc.reason)
			}
		})
	}
}

func TestParseConfirmErrors(t *testing.T) {
	raw := sampleConfirm(t).Bytes()
	proposalEnd := 1 + 33 + 32 + 4 + 65
	firstVote := proposalEnd + 8
	checkDecodeErrors(t, ParseConfirm, []decodeCase{
		{"key too long", patched(raw, 0, 65), ErrTooLarge, "sponsor", 0},
		{"key off the curve", patched(raw, 1, 0x05), ErrInvalid, "sponsor", 0},
		{"short signature", patched(raw, 1+33+32+4, 63), ErrInvalid, "signature", 1 + 33 + 32 + 4},
		{"vote for another proposal", patched(raw, firstVote, raw[firstVote]^1), ErrInvalid, "votes[0].proposalhash", firstVote},
		{"accept byte 2", patched(raw, firstVote+32+34, 2), ErrInvalid, "votes[0].accept", firstVote + 32 + 34},
		{"too many votes", patched(raw, proposalEnd, 0x01, 0x04), ErrTooLarge, "votes", proposalEnd},
		{"votes beyond the input", patched(raw, proposalEnd, 4), ErrTruncated, "votes", proposalEnd},
		{"trailing byte", append(bytes.Clone(raw), 0), ErrTrailingData, "end", len(raw)},
		{"truncated", raw[:len(raw)-1], ErrTruncated, "votes", proposalEnd},
		{"truncated proposal", raw[:40], ErrTruncated, "blockhash", 34},
	})
}

func TestConfirmJSONErrors(t *testing.T) {
	good := sampleConfirm(t).JSON()
	for _, tc := range []struct {
		name   string
		change func(*ConfirmJSON)
		field  string
	}{
		{"block hash", func(j *ConfirmJSON) { j.BlockHash = "00" }, "blockhash"},
		{"sponsor", func(j *ConfirmJSON) { j.Sponsor = "zz" }, "sponsor"},
		{"signature", func(j *ConfirmJSON) { j.Signature = "0102" }, "signature"},
		{"vote signer", func(j *ConfirmJSON) { j.Votes[1].Signer = j.Votes[1].Signer[:10] }, "votes[1].signer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j := good
			j.Votes = append([]VoteJSON(nil), good.Votes...)
			tc.change(&j)
			_, err := j.Confirm()
			if !isDecodeError(err, ErrInvalid, tc.field, -1) {
				t.Errorf("%s: error %v, want invalid %s", tc.name, err, tc.field)
			}
		})
	}
}
