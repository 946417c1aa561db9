package jsonrpc

// maxDepth is how deeply objects and arrays may nest: encoding/json's
// scanner's limit (maxNestingDepth in encoding/json/scanner.go), so that
// valid and json.Valid agree.
const maxDepth = 10000

// valid reports whether b is one JSON value with nothing but whitespace
// around it, as json.Valid does, in a tight loop rather than encoding/json's
// state machine of a function call per byte (which cost a tenth of the
// node's instructions per resolve). FuzzValid holds the two to the same
// answers.
func valid(b []byte) bool {
	i, ok := scanValue(b, skipSpace(b, 0), 0)
	return ok && skipSpace(b, i) == len(b)
}

// scanValue returns the index just past the JSON value at b[i], nested in
// depth objects and arrays, and false when there is none.
func scanValue(b []byte, i, depth int) (int, bool) {
	if i == len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return scanString(b, i)
	case '{', '[':
		return scanContainer(b, i, depth+1)
	case 't':
		return scanLiteral(b, i, "true")
	case 'f':
		return scanLiteral(b, i, "false")
	case 'n':
		return scanLiteral(b, i, "null")
	}
	return scanNumber(b, i)
}

// scanContainer returns the index just past the object or array that
// opens at b[i], at nesting depth depth.
func scanContainer(b []byte, i, depth int) (int, bool) {
	if depth > maxDepth {
		return 0, false
	}
	object := b[i] == '{'
	close := byte(']')
	if object {
		close = '}'
	}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == close {
		return i + 1, true
	}
	for {
		var ok bool
		if object {
			if i, ok = scanString(b, i); !ok {
				return 0, false
			}
			if i = skipSpace(b, i); i == len(b) || b[i] != ':' {
				return 0, false
			}
			i = skipSpace(b, i+1)
		}
		if i, ok = scanValue(b, i, depth); !ok {
			return 0, false
		}
		if i = skipSpace(b, i); i == len(b) {
			return 0, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case close:
			return i + 1, true
		default:
			return 0, false
		}
	}
}

// scanLiteral returns the index just past lit (true, false or null) at
// b[i].
func scanLiteral(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// scanNumber returns the index just past the JSON number at b[i]: an
// integer part as scanInteger reads it, then an optional fraction and
// exponent.
func scanNumber(b []byte, i int) (int, bool) {
	i, ok := scanDigits(b, i)
	if !ok {
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		if i, ok = digits(b, i+1); !ok {
			return 0, false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		if i++; i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i, ok = digits(b, i); !ok {
			return 0, false
		}
	}
	return i, true
}

// scanDigits returns the index just past a JSON number's integer part at
// b[i]: an optional minus, then 0 or digits not starting with 0.
func scanDigits(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	end, ok := digits(b, i)
	if !ok || b[i] == '0' && end-i > 1 {
		return 0, false
	}
	return end, true
}

// digits returns the index just past the one or more decimal digits at
// b[i].
func digits(b []byte, i int) (int, bool) {
	start := i
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i, i > start
}
