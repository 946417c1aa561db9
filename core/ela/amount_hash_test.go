package ela

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestFixed64String(t *testing.T) {
	for i, tc := range []struct {
		v    Fixed64
		want string
	}{
		{0, "0.00000000"},
		{1, "0.00000001"},
		{OneELA, "1.00000000"},
		{2999988097960000, "29999880.97960000"},
		{-50_000_000, "-0.50000000"},
		{math.MaxInt64, "92233720368.54775807"},
		{math.MinInt64, "-92233720368.54775808"},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			if got := tc.v.String(); got != tc.want {
				t.Errorf("Fixed64(%d).String() = %q, want %q", int64(tc.v), got, tc.want)
			}
			back, err := ParseFixed64(tc.want)
			if err != nil || back != tc.v {
				t.Errorf("ParseFixed64(%q) = %d, %v; want %d", tc.want, back, err, tc.v)
			}
		})
	}
}

func TestParseFixed64(t *testing.T) {
	for in, want := range map[string]Fixed64{
		"0": 0, "1": OneELA, "98.9999": 9_899_990_000, "0.5": 50_000_000, "007.1": 710_000_000, "-1": -OneELA, "-0": 0,
	} {
		if got, err := ParseFixed64(in); err != nil || got != want {
			t.Errorf("ParseFixed64(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for in, reason := range map[string]string{
		"":                      "not a decimal",
		"1.":                    "not a decimal",
		".5":                    "not a decimal",
		"+1":                    "not a decimal",
		"1e8":                   "not a decimal",
		" 1":                    "not a decimal",
		"1.2.3":                 "not a decimal",
		"--1":                   "not a decimal",
		"0.000000001":           "9 decimal places",
		"92233720368.54775808":  "out of range",
		"-92233720368.54775809": "out of range",
		"99999999999999999999":  "out of range",
	} {
		if _, err := ParseFixed64(in); err == nil || !strings.Contains(err.Error(), reason) {
			t.Errorf("ParseFixed64(%q) error %v, want one saying %q", in, err, reason)
		}
	}
}

func TestHashText(t *testing.T) {
	const s = "a3d0eaa466df74983b5d7c543de6904f4c9418ead5ffd6d25814234a96db37b0"
	h, err := ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	if h[0] != 0xb0 || h[31] != 0xa3 {
		t.Errorf("ParseHash stores %x; want the text's bytes reversed", h)
	}
	if h.String() != s {
		t.Errorf("String() = %s, want %s", h, s)
	}
	for in, reason := range map[string]string{
		s[:62]:             "62 characters",
		s[:63] + "g":       "not hex",
		strings.ToUpper(s): "", // upper case is accepted
	} {
		_, err := ParseHash(in)
		if reason == "" && err != nil || reason != "" && (err == nil || !strings.Contains(err.Error(), reason)) {
			t.Errorf("ParseHash(%q) error %v, want %q", in, err, reason)
		}
	}
}

func TestMerkleRoot(t *testing.T) {
	pair := func(a, b Hash) Hash {
		first := sha256.Sum256(append(a[:], b[:]...))
		return sha256.Sum256(first[:])
	}
	a, b, c := Hash{1}, Hash{2}, Hash{3}
	for _, tc := range []struct {
		in   []Hash
		want Hash
	}{
		{nil, Hash{}},
		{[]Hash{a}, a},
		{[]Hash{a, b}, pair(a, b)},
		{[]Hash{a, b, c}, pair(pair(a, b), pair(c, c))},
		{[]Hash{a, b, c, a, b}, pair(pair(pair(a, b), pair(c, a)), pair(pair(b, b), pair(b, b)))},
	} {
		in := append([]Hash(nil), tc.in...)
		if got := MerkleRoot(tc.in); got != tc.want {
			t.Errorf("MerkleRoot of %d hashes = %s, want %s", len(tc.in), got, tc.want)
		}
		for i := range in {
			if in[i] != tc.in[i] {
				t.Fatal("MerkleRoot changed its argument")
			}
		}
	}
}
