package didcontract

import (
	"encoding/binary"
	"encoding/hex"
)

// Precompile is the address of EID's precompiled contract that checks and
// records a DID or credential operation (EID core/vm/did_contracts.go,
// params/protocol_params.go: address 22).
const Precompile = "0x0000000000000000000000000000000000000016"

// Selector is the 4-byte function selector of publishDidTransaction(string),
// the first four bytes of its signature's Keccak-256.
var Selector = [4]byte{0x03, 0xc6, 0xd2, 0x40}

// revertReason is what the contract reverts with when the precompile does
// not answer 1, as did.sol's revert("diderror") does.
const revertReason = "diderror"

// maxABI is the largest offset or length solc's ABI decoder takes (2^64-1).
var maxABI = []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}

// Runtime returns the deployed code. It behaves as the function
// publishDidTransaction of EID's core/vm/did/did.sol (compiled by solc
// 0.7.6): any other selector, a call with value, or calldata that is not one
// ABI-encoded string reverts with no data (a length above 2^64-1 hits
// INVALID, as solc's decoder does); otherwise it static-calls the
// precompile with [32-byte big-endian length][the string's bytes], all the
// gas left, and a zeroed 32-byte result; it stops if the result is 1 and
// reverts with Error("diderror") otherwise (a failed call leaves the result
// 0). Memory: 0x00 the result, 0x20 the length, 0x40 the bytes.
func Runtime() []byte {
	var a Asm
	// Dispatch on the selector.
	a.Push(4).Op(CALLDATASIZE, LT).PushLabel("fail").Op(JUMPI) // calldatasize < 4: no selector
	a.Push(0).Op(CALLDATALOAD)                                 // [first word]
	a.Push(0xe0).Op(SHR)                                       // [selector] = word >> 224
	a.Push(Selector[:]...).Op(EQ)                              // [selector == publishDidTransaction]
	a.PushLabel("publish").Op(JUMPI)                           // jump if so
	a.Label("fail")                                            // any refusal of the calldata:
	a.Push(0).Op(DUP1, REVERT)                                 // revert(0, 0)

	a.Label("publish")
	a.Op(CALLVALUE).PushLabel("fail").Op(JUMPI)                   // not payable
	a.Push(0x24).Op(CALLDATASIZE, LT).PushLabel("fail").Op(JUMPI) // calldatasize < 4+32: no offset word
	a.Push(4).Op(CALLDATALOAD)                                    // [off]: the string's offset after the selector
	a.Op(DUP1).Push(maxABI...).Op(LT).PushLabel("fail").Op(JUMPI) // off > 2^64-1
	a.Push(4).Op(ADD)                                             // [p] = 4 + off: where the length word is
	a.Push(0x20).Op(DUP2, ADD)                                    // [p, p+32]
	a.Op(CALLDATASIZE, LT).PushLabel("fail").Op(JUMPI)            // calldatasize < p+32: no length word; [p]
	a.Op(DUP1, CALLDATALOAD)                                      // [p, len]
	a.Op(DUP1).Push(maxABI...).Op(LT).PushLabel("huge").Op(JUMPI) // len > 2^64-1: solc 0.7.6 cannot allocate it
	a.Op(DUP1, DUP3, ADD).Push(0x20).Op(ADD)                      // [p, len, p+32+len]: the end of the bytes
	a.Op(CALLDATASIZE, LT).PushLabel("fail").Op(JUMPI)            // calldatasize < end: bytes cut short; [p, len]

	// Build the precompile's input in memory and call it.
	a.Op(DUP1).Push(0x20).Op(MSTORE)                      // mem[0x20] = len
	a.Op(DUP1, DUP3).Push(0x20).Op(ADD).Push(0x40)        // [p, len, len, p+32, 0x40]
	a.Op(CALLDATACOPY)                                    // mem[0x40:0x40+len] = calldata[p+32:]; [p, len]
	a.Push(0x20).Push(0)                                  // retSize 32, retOffset 0x00
	a.Op(DUP3).Push(0x20).Op(ADD)                         // argsSize len+32
	a.Push(0x20)                                          // argsOffset 0x20
	a.Push(0x16)                                          // address 0x…16
	a.Op(GAS)                                             // all the gas left (EIP-150 keeps 1/64)
	a.Op(STATICCALL)                                      // [p, len, success]; success is ignored, as in did.sol
	a.Op(POP, POP, POP)                                   // []
	a.Push(0).Op(MLOAD).Push(1).Op(EQ)                    // [result == 1]
	a.PushLabel("ok").Op(JUMPI)                           // accepted
	a.Push(errorWord()...).Push(0).Op(MSTORE)             // mem[0x00] = Error(string) selector
	a.Push(0x20).Push(4).Op(MSTORE)                       // mem[0x04] = offset of the string, 32
	a.Push(byte(len(revertReason))).Push(0x24).Op(MSTORE) // mem[0x24] = its length
	a.Push(reasonWord()...).Push(0x44).Op(MSTORE)         // mem[0x44] = "diderror", left-aligned
	a.Push(0x64).Push(0).Op(REVERT)                       // revert(0, 100)
	a.Label("ok").Op(STOP)
	a.Label("huge").Op(INVALID) // as solc's allocation check does: all the gas is spent
	return mustBytes(&a)
}

// Creation returns the code that deploys Runtime: it refuses value, as a
// solc constructor that is not payable does, copies the runtime code to
// memory and returns it.
func Creation() []byte {
	run := Runtime()
	var head Asm
	build := func(at int) {
		head = Asm{}
		head.Op(CALLVALUE).PushLabel("fail").Op(JUMPI) // not payable
		head.Push2(len(run)).Op(DUP1)                  // [n, n]
		head.Push2(at).Push(0).Op(CODECOPY)            // mem[0:n] = code[at:at+n]; [n]
		head.Push(0).Op(RETURN)                        // return mem[0:n]
		head.Label("fail").Push(0).Op(DUP1, REVERT)    // revert(0, 0)
	}
	build(0)
	build(head.Len()) // the head's length does not depend on at (PUSH2)
	return append(mustBytes(&head), run...)
}

// Calldata returns the input of a call publishDidTransaction(op): the
// selector, then the ABI encoding of one string (offset 32, length, bytes
// padded with zeros to a multiple of 32).
func Calldata(op []byte) []byte {
	padded := (len(op) + 31) / 32 * 32
	out := make([]byte, 4+32+32+padded)
	copy(out, Selector[:])
	out[4+31] = 0x20
	binary.BigEndian.PutUint64(out[4+32+24:], uint64(len(op)))
	copy(out[4+64:], op)
	return out
}

// PrecompileInput returns what a sender gives the precompile directly, and
// what the contract passes it: [32-byte big-endian length][op].
func PrecompileInput(op []byte) []byte {
	out := make([]byte, 32+len(op))
	binary.BigEndian.PutUint64(out[24:], uint64(len(op)))
	copy(out[32:], op)
	return out
}

// Hex returns b as 0x-prefixed hex, as JSON-RPC takes data.
func Hex(b []byte) string { return "0x" + hex.EncodeToString(b) }

func errorWord() []byte {
	w := make([]byte, 32)
	copy(w, []byte{0x08, 0xc3, 0x79, 0xa0}) // Keccak-256("Error(string)")[:4]
	return w
}

func reasonWord() []byte {
	w := make([]byte, 32)
	copy(w, revertReason)
	return w
}

func mustBytes(a *Asm) []byte {
	b, err := a.Bytes()
	if err != nil {
		panic(err) // the programs above define every label they use
	}
	return b
}
