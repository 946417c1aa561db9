package ela

import (
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/keys"
)

func TestIdentityAddressOfKey(t *testing.T) {
	// Wire facts: a DID's id is the 0x67-prefixed address of its default
	// key's script; today's DIDs end the script with 0xAD, the oldest with 0xAC.
	for i, tc := range []struct {
		key  string
		op   byte
		want string
	}{
		{"vMYSz32qbWsNeDJpKsuuMaFsiApuZMz9XVy9DmEwysWg", OpCheckSigDID, "iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"},
		{"zxt6NyoorFUFMXA8mDBULjnuH3v6iNdZm42PyG4c1YdC", OpCheckSig, "ifawgWFmZRLXN1JVmqpXcNRurhB1zyHNcf"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			pub, err := keys.ParsePublicKeyBase58(tc.key)
			if err != nil {
				t.Fatal(err)
			}
			h := ToProgramHash(PrefixIdentity, SingleKeyScript(pub, tc.op))
			if got := h.Address(); got != tc.want {
				t.Errorf("address of %s with 0x%02X = %s, want %s", tc.key, tc.op, got, tc.want)
			}
			back, err := ParseAddress(tc.want)
			if err != nil || back != h {
				t.Errorf("ParseAddress(%s) = %s, %v; want %s", tc.want, back.Hex(), err, h.Hex())
			}
			if back.Prefix() != PrefixIdentity {
				t.Errorf("prefix %#x, want %#x", back.Prefix(), PrefixIdentity)
			}
		})
	}
}

func TestParseAddressErrors(t *testing.T) {
	for i, tc := range []struct{ in, want string }{
		{"", "empty"},
		{"iXcRhYB38gMt1phi5JXJMjeXL2TL8", "decodes to 22 bytes"},
		{"iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58z", "checksum"},
		{"iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58O", "not base58"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			_, err := ParseAddress(tc.in)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseAddress(%q) error %v, want one containing %q", tc.in, err, tc.want)
			}
		})
	}
}

// An address is refused by its length before base58 decodes it (which
// costs the square of the length), and the error quotes only its start.
func TestParseAddressLong(t *testing.T) {
	for _, s := range []string{strings.Repeat("i", 36), strings.Repeat("z", 60<<10)} {
		_, err := ParseAddress(s)
		if err == nil || !strings.Contains(err.Error(), "longer than any encoding of 25 bytes") || len(err.Error()) > 300 {
			t.Errorf("ParseAddress of %d bytes: error %.400v, want a short one saying it is too long", len(s), err)
		}
	}
}

// A hash of the wrong length is refused with an error that quotes its start
// only.
func TestParseHashLong(t *testing.T) {
	_, err := ParseHash(strings.Repeat("ab", 30<<10))
	if err == nil || !strings.Contains(err.Error(), "61440 characters") || len(err.Error()) > 300 {
		t.Errorf("ParseHash of 60 KiB: error %.400v, want a short one", err)
	}
}
