package ela

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// Fixed64 is an amount in units of 10^-8 (Elastos.ELA common/fixed64.go):
// Fixed64(100000000) is one ELA. Its text form has exactly eight decimal
// places, "1.00000000", as the REST API shows amounts.
type Fixed64 int64

// OneELA is one coin in Fixed64 units.
const OneELA Fixed64 = 100_000_000

const fixedDecimals = 8

// String returns the amount with exactly eight decimal places.
func (f Fixed64) String() string {
	sign := ""
	u := uint64(f)
	if f < 0 {
		sign, u = "-", -u // two's complement negation is exact for MinInt64 too
	}
	return fmt.Sprintf("%s%d.%08d", sign, u/uint64(OneELA), u%uint64(OneELA))
}

// ParseFixed64 reads a decimal amount: an optional minus sign, digits, and
// optionally a point followed by one to eight digits ("1", "0.5",
// "1.00000000"). It rejects more than eight decimals, values outside the
// int64 range, and anything else (signs, spaces, exponents).
func ParseFixed64(s string) (Fixed64, error) {
	digits, negative := strings.CutPrefix(s, "-")
	whole, frac, hasPoint := strings.Cut(digits, ".")
	switch {
	case !isDigits(whole) || (hasPoint && !isDigits(frac)):
		return 0, fmt.Errorf("ela: amount %s is not a decimal number", excerpt.Quote(s))
	case len(frac) > fixedDecimals:
		return 0, fmt.Errorf("ela: amount %s has %d decimal places, at most %d", excerpt.Quote(s), len(frac), fixedDecimals)
	}
	units, err := strconv.ParseUint(whole+frac+strings.Repeat("0", fixedDecimals-len(frac)), 10, 64)
	limit := uint64(math.MaxInt64)
	if negative {
		limit++
	}
	if err != nil || units > limit {
		return 0, fmt.Errorf("ela: amount %s is out of range", excerpt.Quote(s))
	}
	if negative {
		return Fixed64(-units), nil
	}
	return Fixed64(units), nil
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// MarshalText returns the eight-decimal form.
func (f Fixed64) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText parses a decimal amount with [ParseFixed64].
func (f *Fixed64) UnmarshalText(b []byte) error {
	v, err := ParseFixed64(string(b))
	if err != nil {
		return err
	}
	*f = v
	return nil
}
