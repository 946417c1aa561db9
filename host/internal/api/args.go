package api

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/excerpt"
	"github.com/didlight/didlight/core/jsonrpc"
)

// args are the parameters of a call to one of the chain's general methods,
// by name, read from an object or a positional array ([jsonrpc.Args]). Each
// reader checks one parameter and says, in the error's data, which one is
// wrong and what it should be, quoting at most a few dozen bytes of it.
type args map[string]json.RawMessage

// readArgs reads the params of a method that takes names.
func readArgs(params json.RawMessage, names ...string) (args, *jsonrpc.Error) {
	a, err := jsonrpc.Args(params, names...)
	return args(a), err
}

// What each kind of parameter must be, as error data says it.
const (
	wantHeight    = "a block height: a whole number from 0 to 4294967295, or its decimal string"
	wantHash      = "a hash: 64 hex digits"
	wantFlag      = "true or false (or 1 or 0)"
	wantVerbosity = "0 (raw hex), 1 (transaction hashes) or 2 (full transactions)"
	wantHex       = "a signed transaction in hex"
	wantAddress   = "an address: base58check, such as E… or i…"
	wantQuantity  = "a whole number, its decimal string or a hex quantity such as \"0x1e\""
)

// maxAddresses bounds listunspent's addresses, so that one call cannot ask
// for the same large set of outputs without end.
const maxAddresses = 100

// maxAddressLen is longer than any base58check address (25 bytes take at
// most 35 digits): a longer string is not decoded at all.
const maxAddressLen = 40

// required returns the parameter name, or the error that it is missing.
func (a args) required(name, want string) (json.RawMessage, *jsonrpc.Error) {
	v, ok := a[name]
	if !ok {
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("%s is missing: want %s", name, want))
	}
	return v, nil
}

// badArg reports parameter name, which is got instead of want.
func badArg(name, want string, got json.RawMessage) *jsonrpc.Error {
	return jsonrpc.InvalidParams(fmt.Sprintf("%s: want %s, got %s", name, want, excerpt.Cut(string(got))))
}

// height reads a block height. Numbers and decimal strings are both
// heights, as the Elastos nodes read them (Elastos.ELA utils/http/params.go,
// Uint32); ela-cli sends strings.
func (a args) height(name string) (uint32, *jsonrpc.Error) {
	v, err := a.required(name, wantHeight)
	if err != nil {
		return 0, err
	}
	n, ok := wholeNumber(v, math.MaxUint32)
	if !ok {
		return 0, badArg(name, wantHeight, v)
	}
	return uint32(n), nil
}

// verbosity reads getblock's verbosity, 1 when absent.
func (a args) verbosity(name string) (uint64, *jsonrpc.Error) {
	v, ok := a[name]
	if !ok {
		return 1, nil
	}
	n, ok := wholeNumber(v, 2)
	if !ok {
		return 0, badArg(name, wantVerbosity, v)
	}
	return n, nil
}

// wholeNumber reads a JSON number without a fraction, or a string of
// decimal digits, from 0 to most.
func wholeNumber(v json.RawMessage, most uint64) (uint64, bool) {
	if len(v) > 0 && v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) != nil || s == "" {
			return 0, false
		}
		for i := 0; i < len(s); i++ {
			if s[i] < '0' || s[i] > '9' {
				return 0, false
			}
		}
		n, err := strconv.ParseUint(s, 10, 64)
		return n, err == nil && n <= most
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil || f < 0 || f > float64(most) || f != math.Trunc(f) {
		return 0, false
	}
	return uint64(f), true
}

// quantity reads a whole number from 0 to most, and whether it was given:
// a JSON number, a string of decimal digits, or a hex quantity ("0x…", as
// the Ethereum devnets' controls take numbers).
func (a args) quantity(name string, most uint64) (uint64, bool, *jsonrpc.Error) {
	v, ok := a[name]
	if !ok {
		return 0, false, nil
	}
	if n, ok := wholeNumber(v, most); ok {
		return n, true, nil
	}
	var s string
	if json.Unmarshal(v, &s) == nil && len(s) > 2 && len(s) <= 18 && (s[:2] == "0x" || s[:2] == "0X") {
		if n, err := strconv.ParseUint(s[2:], 16, 64); err == nil && n <= most {
			return n, true, nil
		}
	}
	return 0, false, badArg(name, wantQuantity, v)
}

// amount reads an amount of ELA that must be given: a decimal string of at
// most eight places, not negative ([ela.ParseFixed64]).
func (a args) amount(name string) (ela.Fixed64, *jsonrpc.Error) {
	const want = "an amount of ELA as a decimal string, such as \"1.5\""
	s, err := a.str(name, want)
	if err != nil {
		return 0, err
	}
	v, perr := ela.ParseFixed64(s)
	if perr != nil || v < 0 {
		return 0, badArg(name, want, a[name])
	}
	return v, nil
}

// time reads a time (parseTimeParam), and whether it was given.
func (a args) time(name string) (time.Time, bool, *jsonrpc.Error) {
	v, ok := a[name]
	if !ok {
		return time.Time{}, false, nil
	}
	t, err := parseTimeParam(v)
	return t, err == nil, err
}

// flag reads a boolean, false when absent. 1 and 0 are read as true and
// false, as clients used to Bitcoin's verbose parameter send them.
func (a args) flag(name string) (bool, *jsonrpc.Error) {
	v, ok := a[name]
	if !ok {
		return false, nil
	}
	switch string(v) {
	case "true", "1":
		return true, nil
	case "false", "0":
		return false, nil
	}
	return false, badArg(name, wantFlag, v)
}

// str reads a string parameter that must be given.
func (a args) str(name, want string) (string, *jsonrpc.Error) {
	v, err := a.required(name, want)
	if err != nil {
		return "", err
	}
	var s string
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return "", badArg(name, want, v)
	}
	return s, nil
}

// hash reads a transaction id or block hash: 64 hex digits, shown
// byte-reversed as every API shows hashes.
func (a args) hash(name string) (ela.Hash, *jsonrpc.Error) {
	s, err := a.str(name, wantHash)
	if err != nil {
		return ela.Hash{}, err
	}
	if len(s) != 2*ela.HashSize {
		return ela.Hash{}, jsonrpc.InvalidParams(fmt.Sprintf("%s: want %s, got %d characters", name, wantHash, len(s)))
	}
	h, perr := ela.ParseHash(s)
	if perr != nil {
		return h, jsonrpc.InvalidParams(fmt.Sprintf("%s: %v", name, perr))
	}
	return h, nil
}

// hexBytes reads hex-encoded bytes.
func (a args) hexBytes(name string) ([]byte, *jsonrpc.Error) {
	s, err := a.str(name, wantHex)
	if err != nil {
		return nil, err
	}
	b, herr := hex.DecodeString(s)
	if herr != nil {
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("%s is not hex: %s", name, hexProblem(s)))
	}
	return b, nil
}

// address reads one address.
func (a args) address(name string) (ela.ProgramHash, *jsonrpc.Error) {
	s, err := a.str(name, wantAddress)
	if err != nil {
		return ela.ProgramHash{}, err
	}
	return parseAddress(name, s)
}

// addresses reads a list of one to maxAddresses addresses; repeated ones
// are listed once.
func (a args) addresses(name string) ([]ela.ProgramHash, *jsonrpc.Error) {
	const want = "a list of addresses"
	v, err := a.required(name, want)
	if err != nil {
		return nil, err
	}
	var list []json.RawMessage
	if len(v) == 0 || v[0] != '[' || json.Unmarshal(v, &list) != nil {
		return nil, badArg(name, want, v)
	}
	if len(list) == 0 || len(list) > maxAddresses {
		return nil, jsonrpc.InvalidParams(fmt.Sprintf("%s: want 1 to %d addresses, got %d", name, maxAddresses, len(list)))
	}
	out := make([]ela.ProgramHash, 0, len(list))
	seen := make(map[ela.ProgramHash]bool, len(list))
	for i, raw := range list {
		item := fmt.Sprintf("%s[%d]", name, i)
		var s string
		if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
			return nil, badArg(item, wantAddress, raw)
		}
		ph, err := parseAddress(item, s)
		if err != nil {
			return nil, err
		}
		if !seen[ph] {
			seen[ph] = true
			out = append(out, ph)
		}
	}
	return out, nil
}

// parseAddress reads the address s, parameter name.
func parseAddress(name, s string) (ela.ProgramHash, *jsonrpc.Error) {
	if len(s) > maxAddressLen {
		return ela.ProgramHash{}, jsonrpc.InvalidParams(fmt.Sprintf("%s: want %s, got %d characters", name, wantAddress, len(s)))
	}
	ph, err := ela.ParseAddress(s)
	if err != nil {
		return ph, jsonrpc.InvalidParams(fmt.Sprintf("%s: %v", name, err))
	}
	return ph, nil
}
