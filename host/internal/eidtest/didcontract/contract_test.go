package didcontract

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"

	"golang.org/x/crypto/sha3"
)

func keccak(s string) []byte {
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(s))
	return h.Sum(nil)
}

func TestSelectors(t *testing.T) {
	for _, tc := range []struct {
		signature string
		want      []byte
	}{
		{"publishDidTransaction(string)", Selector[:]},
		{"Error(string)", errorWord()[:4]},
	} {
		t.Run(tc.signature, func(t *testing.T) {
			if got := keccak(tc.signature)[:4]; !bytes.Equal(got, tc.want) {
				t.Errorf("keccak selector %x, the code uses %x", got, tc.want)
			}
		})
	}
}

func TestAsm(t *testing.T) {
	for _, tc := range []struct {
		name string
		prog func(a *Asm)
		want string
		err  string
	}{
		{"push trims leading zeros", func(a *Asm) { a.Push(0, 0, 1, 2) }, "610102", ""},
		{"push zero", func(a *Asm) { a.Push(0) }, "6000", ""},
		{"push 32 bytes", func(a *Asm) { a.Push(bytes.Repeat([]byte{0xaa}, 32)...) }, "7f" + strings.Repeat("aa", 32), ""},
		{"push2 keeps its width", func(a *Asm) { a.Push2(1) }, "610001", ""},
		{"label after use", func(a *Asm) { a.PushLabel("x").Op(JUMP).Label("x").Op(STOP) }, "610004565b00", ""},
		{"label before use", func(a *Asm) { a.Op(STOP).Label("x").PushLabel("x").Op(JUMP) }, "005b61000156", ""},
		{"undefined label", func(a *Asm) { a.PushLabel("nowhere") }, "", `label "nowhere" is used but not defined`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var a Asm
			tc.prog(&a)
			b, err := a.Bytes()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || hex.EncodeToString(b) != tc.want {
				t.Fatalf("got %x, %v; want %s", b, err, tc.want)
			}
		})
	}
}

func TestAsmRefusesMisuse(t *testing.T) {
	for _, tc := range []struct {
		name string
		prog func(a *Asm)
	}{
		{"PUSH through Op", func(a *Asm) { a.Op(PUSH1) }},
		{"push of 33 bytes", func(a *Asm) { a.Push(bytes.Repeat([]byte{1}, 33)...) }},
		{"push of nothing", func(a *Asm) { a.Push() }},
		{"label twice", func(a *Asm) { a.Label("x").Label("x") }},
		{"push2 too large", func(a *Asm) { a.Push2(0x10000) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			tc.prog(&Asm{})
		})
	}
}

// jumpTargets returns the offsets of the runtime's JUMPDESTs, walking
// instructions (skipping PUSH operands), and the PUSH2 operands that
// precede a JUMP or JUMPI.
func jumpTargets(code []byte) (dests map[int]bool, jumps []int) {
	dests = map[int]bool{}
	for pc := 0; pc < len(code); pc++ {
		op := code[pc]
		switch {
		case op == JUMPDEST:
			dests[pc] = true
		case op == PUSH2 && pc+3 < len(code) && (code[pc+3] == JUMP || code[pc+3] == JUMPI):
			jumps = append(jumps, int(code[pc+1])<<8|int(code[pc+2]))
		}
		if op >= PUSH1 && op <= PUSH32 {
			pc += int(op-PUSH1) + 1
		}
	}
	return dests, jumps
}

func TestRuntimeJumpsLandOnJumpdests(t *testing.T) {
	code := Runtime()
	dests, jumps := jumpTargets(code)
	if len(jumps) < 8 {
		t.Fatalf("found %d jumps, the runtime has at least 8", len(jumps))
	}
	for _, j := range jumps {
		if !dests[j] {
			t.Errorf("a jump to %d, which is no JUMPDEST", j)
		}
	}
}

func TestCreationReturnsRuntime(t *testing.T) {
	code, run := Creation(), Runtime()
	if !bytes.HasSuffix(code, run) {
		t.Fatal("the creation code does not end with the runtime")
	}
	at := len(code) - len(run)
	// CALLVALUE PUSH2 fail JUMPI PUSH2 n DUP1 PUSH2 at ...
	n := int(code[6])<<8 | int(code[7])
	off := int(code[10])<<8 | int(code[11])
	if n != len(run) || off != at {
		t.Errorf("copies %d bytes from %d, the runtime is %d bytes at %d", n, off, len(run), at)
	}
}

func TestCalldata(t *testing.T) {
	for _, tc := range []struct {
		op   string
		want string
	}{
		{"", "03c6d240" + word(0x20) + word(0)},
		{"{}", "03c6d240" + word(0x20) + word(2) + "7b7d" + strings.Repeat("00", 30)},
		{strings.Repeat("a", 32), "03c6d240" + word(0x20) + word(32) + strings.Repeat("61", 32)},
	} {
		t.Run(tc.op, func(t *testing.T) {
			if got := hex.EncodeToString(Calldata([]byte(tc.op))); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestPrecompileInput(t *testing.T) {
	got := PrecompileInput([]byte(`{"a":1}`))
	if want := word(7) + hex.EncodeToString([]byte(`{"a":1}`)); hex.EncodeToString(got) != want {
		t.Errorf("got %x, want %s", got, want)
	}
}

func word(n int) string {
	b := make([]byte, 32)
	b[30], b[31] = byte(n>>8), byte(n)
	return hex.EncodeToString(b)
}
