// Package didcontract assembles the DID contract of a private EID chain.
//
// A private EID chain publishes DID transactions through a wrapper
// contract: publishDidTransaction(string), as the mainnet contract offers
// it, written here as EVM bytecode.
package didcontract

import (
	"fmt"
	"slices"
)

// Opcodes the contract uses (the Yellow Paper's numbering, as go-ethereum's
// core/vm/opcodes.go lists them).
const (
	STOP         byte = 0x00
	ADD          byte = 0x01
	LT           byte = 0x10
	GT           byte = 0x11
	EQ           byte = 0x14
	ISZERO       byte = 0x15
	SHR          byte = 0x1c
	CALLVALUE    byte = 0x34
	CALLDATALOAD byte = 0x35
	CALLDATASIZE byte = 0x36
	CALLDATACOPY byte = 0x37
	CODECOPY     byte = 0x39
	POP          byte = 0x50
	MLOAD        byte = 0x51
	MSTORE       byte = 0x52
	JUMP         byte = 0x56
	JUMPI        byte = 0x57
	GAS          byte = 0x5a
	JUMPDEST     byte = 0x5b
	PUSH1        byte = 0x60
	PUSH2        byte = 0x61
	PUSH4        byte = 0x63
	PUSH8        byte = 0x67
	PUSH32       byte = 0x7f
	DUP1         byte = 0x80
	DUP2         byte = 0x81
	DUP3         byte = 0x82
	SWAP1        byte = 0x90
	STATICCALL   byte = 0xfa
	RETURN       byte = 0xf3
	REVERT       byte = 0xfd
	INVALID      byte = 0xfe
)

// Asm builds bytecode: opcodes, pushes of constants, and jumps to labels,
// which Bytes resolves. Label targets are pushed as two bytes, so programs
// stay under 64 KiB.
type Asm struct {
	code   []byte
	labels map[string]int // label -> offset of its JUMPDEST
	refs   map[int]string // offset of a PUSH2 operand -> label
}

// Op appends opcodes that take no immediate operand.
func (a *Asm) Op(ops ...byte) *Asm {
	for _, op := range ops {
		if op >= PUSH1 && op <= PUSH32 {
			panic(fmt.Sprintf("didcontract: opcode %#x needs an operand: use Push", op))
		}
	}
	a.code = append(a.code, ops...)
	return a
}

// Push appends the shortest PUSHn of the big-endian constant v (1 to 32
// bytes; leading zero bytes are dropped, zero itself is PUSH1 0).
func (a *Asm) Push(v ...byte) *Asm {
	for len(v) > 1 && v[0] == 0 {
		v = v[1:]
	}
	if len(v) == 0 || len(v) > 32 {
		panic(fmt.Sprintf("didcontract: cannot push %d bytes", len(v)))
	}
	a.code = append(a.code, PUSH1+byte(len(v)-1))
	a.code = append(a.code, v...)
	return a
}

// Push2 appends PUSH2 v: a constant of fixed width, for code whose length
// must not depend on the value.
func (a *Asm) Push2(v int) *Asm {
	if v < 0 || v > 0xffff {
		panic(fmt.Sprintf("didcontract: %d does not fit PUSH2", v))
	}
	a.code = append(a.code, PUSH2, byte(v>>8), byte(v))
	return a
}

// PushLabel appends PUSH2 with the offset of label, filled in by Bytes.
func (a *Asm) PushLabel(label string) *Asm {
	if a.refs == nil {
		a.refs = map[int]string{}
	}
	a.code = append(a.code, PUSH2)
	a.refs[len(a.code)] = label
	a.code = append(a.code, 0, 0)
	return a
}

// Label marks a jump target here: a JUMPDEST named label.
func (a *Asm) Label(label string) *Asm {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	if _, dup := a.labels[label]; dup {
		panic("didcontract: label " + label + " defined twice")
	}
	a.labels[label] = len(a.code)
	a.code = append(a.code, JUMPDEST)
	return a
}

// Raw appends bytes that are data, not code (after the last instruction).
func (a *Asm) Raw(b []byte) *Asm {
	a.code = append(a.code, b...)
	return a
}

// Len is the number of bytes assembled so far.
func (a *Asm) Len() int { return len(a.code) }

// Bytes returns the assembled code with every label reference filled in,
// or an error naming a label that was pushed but never defined.
func (a *Asm) Bytes() ([]byte, error) {
	out := slices.Clone(a.code)
	for at, label := range a.refs {
		off, ok := a.labels[label]
		if !ok {
			return nil, fmt.Errorf("didcontract: label %q is used but not defined", label)
		}
		out[at], out[at+1] = byte(off>>8), byte(off)
	}
	return out, nil
}
