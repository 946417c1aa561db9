package eid

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/didlight/didlight/core/idop"
)

// PrecompileAddress is the precompiled contract that runs DID and
// credential operations (Elastos.ELA.SideChain.EID core/vm/did_contracts.go,
// PrecompileContractsDID: address 22, operationDID).
const PrecompileAddress = "0x0000000000000000000000000000000000000016"

// PublishSelector is the selector of publishDidTransaction(string), the one
// method of the DID contract apps send operations to (core/vm/did/did.sol):
// the first 4 bytes of the Keccak-256 of that signature.
var PublishSelector = [4]byte{0x03, 0xc6, 0xd2, 0x40}

// wordSize is the size of an EVM word.
const wordSize = 32

// DecodeInput decodes the operation a transaction to address to carries in
// its input: [DecodePrecompileInput] when to is [PrecompileAddress], else
// [DecodeContractInput] (the DID contract, whose address differs by network).
func DecodeInput(to string, input []byte) (idop.Request, error) {
	if strings.EqualFold(to, PrecompileAddress) {
		return DecodePrecompileInput(input)
	}
	return DecodeContractInput(input)
}

// DecodePrecompileInput decodes the input of a call to the precompile: a
// 32-byte big-endian length and the operation's UTF-8 JSON. The precompile
// reads the JSON as all the bytes after the first 32 and ignores the length
// word (operationDID.Run, getData(input, 32, len(input)-32)), and so does
// this decoder. Errors wrap an *idop.RuleError (RuleMalformed).
func DecodePrecompileInput(input []byte) (idop.Request, error) {
	if len(input) < wordSize {
		return idop.Request{}, malformed("precompile input of %d bytes: want a 32-byte length and the JSON", len(input))
	}
	return parseJSON(input[wordSize:])
}

// DecodeContractInput decodes the input of a call to publishDidTransaction:
// the selector and the Solidity ABI encoding of one string (an offset word,
// then at that offset a length word and the bytes). The contract passes the
// string on to the precompile as its length word and bytes. Padding and
// bytes after the string are not read, as by the contract's ABI decoder.
// Errors wrap an *idop.RuleError (RuleMalformed).
func DecodeContractInput(input []byte) (idop.Request, error) {
	if len(input) < len(PublishSelector) || !bytes.Equal(input[:4], PublishSelector[:]) {
		return idop.Request{}, malformed("contract input does not call publishDidTransaction(string) (selector 0x%x)", PublishSelector)
	}
	args := input[4:]
	offset, ok := word(args, 0)
	if !ok {
		return idop.Request{}, malformed("publishDidTransaction input: no string offset in %d bytes", len(args))
	}
	n, ok := word(args, offset)
	if !ok {
		return idop.Request{}, malformed("publishDidTransaction input: no string length at offset %d of %d bytes", offset, len(args))
	}
	start := offset + wordSize
	if n > uint64(len(args))-start {
		return idop.Request{}, malformed("publishDidTransaction input: a string of %d bytes at offset %d, %d bytes left", n, start, uint64(len(args))-start)
	}
	return parseJSON(args[start : start+n])
}

// word reads the 32-byte big-endian word at offset in b, which must fit in
// 32 bits: offsets and lengths beyond that cannot lie within any input.
func word(b []byte, offset uint64) (uint64, bool) {
	if offset > uint64(len(b)) || uint64(len(b))-offset < wordSize {
		return 0, false
	}
	w := b[offset : offset+wordSize]
	for _, c := range w[:wordSize-4] {
		if c != 0 {
			return 0, false
		}
	}
	return uint64(binary.BigEndian.Uint32(w[wordSize-4:])), true
}

// parseJSON reads an operation's JSON as the SDKs write it.
func parseJSON(b []byte) (idop.Request, error) {
	r, err := idop.ParseRequest(b)
	if err != nil {
		return idop.Request{}, fmt.Errorf("eid: the input's operation: %w", err)
	}
	return r, nil
}
