package eid

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/idop"
	"golang.org/x/crypto/sha3"
)

// The selector is Keccak-256 of the method's signature, as the Solidity
// compiler makes it for core/vm/did/did.sol.
func TestPublishSelector(t *testing.T) {
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte("publishDidTransaction(string)"))
	if got := h.Sum(nil)[:4]; !bytes.Equal(got, PublishSelector[:]) {
		t.Errorf("selector %x, want %x", got, PublishSelector)
	}
}

// precompileInput returns the input of a call to the precompile, as the
// contract makes it: the length word and the JSON.
func precompileInput(json []byte) []byte {
	b := make([]byte, 32, 32+len(json))
	binary.BigEndian.PutUint64(b[24:], uint64(len(json)))
	return append(b, json...)
}

// The two ways an operation reaches EID decode to the operation sent, and
// anything else is refused.
func TestDecodeInput(t *testing.T) {
	m := readMainnet(t)
	sent, err := idop.ParseRequest(m.DIDRequest)
	if err != nil {
		t.Fatal(err)
	}
	js := sent.AppendJSON(nil)
	contract := contractInput(js)
	wrongLength := precompileInput(js)
	wrongLength[31]++ // EID ignores the length word
	farOffset := append(append(bytes.Clone(contract[:4]), word32(64)...), make([]byte, 32)...)
	farOffset = append(farOffset, contract[36:]...)
	for _, tc := range []struct {
		name  string
		to    string
		input []byte
		msg   string // "" decodes to sent
	}{
		{"contract", mainnetContract, contract, ""},
		{"contract, string at another offset", mainnetContract, farOffset, ""},
		{"contract, without padding", mainnetContract, contract[:4+64+len(js)], ""},
		{"precompile", PrecompileAddress, precompileInput(js), ""},
		{"precompile, address in capitals", "0x" + strings.ToUpper(PrecompileAddress[2:]), precompileInput(js), ""},
		{"precompile input sent to a contract", mainnetContract, precompileInput(js), "selector"},
		{"precompile, wrong length word", PrecompileAddress, wrongLength, ""},
		{"precompile, too short", PrecompileAddress, make([]byte, 31), "32-byte length"},
		{"precompile, not an operation", PrecompileAddress, precompileInput([]byte(`{"header":{}}`)), "specification"},
		{"contract, another method", mainnetContract, append([]byte{1, 2, 3, 4}, contract[4:]...), "selector"},
		{"contract, truncated string", mainnetContract, contract[:4+64+len(js)-1], "bytes left"},
		{"contract, offset beyond the input", mainnetContract, append(bytes.Clone(contract[:4]), word32(1<<20)...), "no string length"},
		{"contract, offset over 32 bits", mainnetContract, append(append(bytes.Clone(contract[:4]), 1), contract[5:]...), "no string offset"},
		{"contract, no arguments", mainnetContract, contract[:4], "no string offset"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DecodeInput(tc.to, tc.input)
			if tc.msg != "" {
				if err == nil || !strings.Contains(err.Error(), tc.msg) {
					t.Fatalf("error %v, want one saying %q", err, tc.msg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != sent {
				t.Errorf("decoded %+v", got)
			}
		})
	}
}

func word32(n uint32) []byte {
	b := make([]byte, 32)
	binary.BigEndian.PutUint32(b[28:], n)
	return b
}
