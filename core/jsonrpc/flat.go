package jsonrpc

// flatMembers appends to dst the members of b and reports true when b is
// a JSON object whose values are all strings, true, false or integers
// (no fraction, no exponent): a call's plain params, checked and split in
// one pass instead of encoding/json's check and then members. On anything
// else, text that is not JSON included, it reports false, and the caller
// leaves b to encoding/json. It accepts only what encoding/json's scanner
// accepts (FuzzFlatMembers holds it to json.Valid and to members).
func flatMembers(dst []member, b []byte) ([]member, bool) {
	i := skipSpace(b, 0)
	if i == len(b) || b[i] != '{' {
		return nil, false
	}
	if i = skipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return closed(dst, b, i)
	}
	for {
		nameEnd, ok := scanString(b, i)
		if !ok {
			return nil, false
		}
		j := skipSpace(b, nameEnd)
		if j == len(b) || b[j] != ':' {
			return nil, false
		}
		j = skipSpace(b, j+1)
		end, ok := scanFlatValue(b, j)
		if !ok {
			return nil, false
		}
		dst = append(dst, member{unquote(b[i:nameEnd]), b[j:end]})
		if i = skipSpace(b, end); i == len(b) {
			return nil, false
		}
		switch b[i] {
		case ',':
			i = skipSpace(b, i+1)
		case '}':
			return closed(dst, b, i)
		default:
			return nil, false
		}
	}
}

// closed returns dst, the members of an object that closes at b[i], when
// nothing but whitespace follows.
func closed(dst []member, b []byte, i int) ([]member, bool) {
	if skipSpace(b, i+1) != len(b) {
		return nil, false
	}
	return dst, true
}

// scanFlatValue returns the index just past the string, true, false or
// integer at b[i], and false for any other value or text that is not JSON.
func scanFlatValue(b []byte, i int) (int, bool) {
	if i == len(b) {
		return 0, false
	}
	switch c := b[i]; {
	case c == '"':
		return scanString(b, i)
	case c == 't':
		return scanLiteral(b, i, "true")
	case c == 'f':
		return scanLiteral(b, i, "false")
	}
	return scanInteger(b, i)
}

// scanInteger returns the index just past the JSON integer at b[i]: its
// integer part (see scanDigits), not followed by a fraction or an
// exponent.
func scanInteger(b []byte, i int) (int, bool) {
	i, ok := scanDigits(b, i)
	if !ok || i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		return 0, false
	}
	return i, true
}

// scanString returns the index just past the JSON string literal at b[i],
// and false when there is none: no closing quote, a control character, or
// an escape JSON does not define. Bytes of 0x80 and above pass, as they
// do encoding/json's scanner (which replaces invalid UTF-8 when decoding).
func scanString(b []byte, i int) (int, bool) {
	if i == len(b) || b[i] != '"' {
		return 0, false
	}
	for i++; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return 0, false
		case c == '\\':
			if i++; i == len(b) {
				return 0, false
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(b)-i <= 4 || !isHex4(b[i+1:i+5]) {
					return 0, false
				}
				i += 4
			default:
				return 0, false
			}
		}
	}
	return 0, false
}

// isHex4 reports whether the four bytes of h are hexadecimal digits.
func isHex4(h []byte) bool {
	for _, c := range h {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}
