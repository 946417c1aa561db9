package api

import (
	"fmt"
	"math"
	"net/http"
	"strconv"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/excerpt"
)

// Path parameters of the REST API. Each parser returns the value or the
// 42002 (Invalid Params) error naming what is wrong with it.

// heightParam reads a block height: decimal digits, at most MaxUint32.
func heightParam(r *http.Request) (uint32, *restError) {
	s := r.PathValue("height")
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, fail(invalidParams, fmt.Sprintf("height %s is not a decimal block height", excerpt.Quote(s)))
		}
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n > math.MaxUint32 {
		return 0, fail(invalidParams, fmt.Sprintf("height %s is not a decimal block height up to %d", excerpt.Quote(s), uint32(math.MaxUint32)))
	}
	return uint32(n), nil
}

// hashParam reads the path value name as a hash: 64 hex digits.
func hashParam(r *http.Request, name string) (ela.Hash, *restError) {
	h, err := ela.ParseHash(r.PathValue(name))
	if err != nil {
		return h, fail(invalidParams, fmt.Sprintf("%s: %v", name, err))
	}
	return h, nil
}

// addrParam reads an address: base58check of a program hash.
func addrParam(r *http.Request) (ela.ProgramHash, *restError) {
	h, err := ela.ParseAddress(r.PathValue("addr"))
	if err != nil {
		return h, fail(invalidParams, fmt.Sprintf("addr: %v", err))
	}
	return h, nil
}
