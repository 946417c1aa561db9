package find

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/didlight/didlight/core/excerpt"
)

// regexOptions are the store's regular expression options: i (ignore
// case), m (^ and $ match at line breaks), s (. matches newlines), x
// (extended: unescaped white space and #-comments outside character classes
// are ignored) and u (Unicode; accepted and redundant, text is always UTF-8).
// https://www.mongodb.com/docs/manual/reference/operator/query/regex/#mongodb-query-op.-options
const regexOptions = "imsxu"

// MaxRegexBytes bounds the patterns of a condition's regular expressions,
// taken together. Compiling a pattern costs some hundred times more per
// byte than reading the rest of a condition, and more than linearly beyond
// a few tens of kilobytes (Go's regexp), so that without a bound one query
// could spend seconds compiling. Patterns people write are short.
const MaxRegexBytes = 16 << 10

// regexBytes returns how many bytes of pattern v holds: its /regex/
// literals and the strings given to $regex, at any depth.
func regexBytes(v *Value) int {
	n := 0
	if v.kind == kindRegex {
		pattern, _ := splitRegexLiteral(v.str)
		n += len(pattern)
	}
	for i := range v.items {
		if i < len(v.keys) && v.keys[i] == "$regex" && v.items[i].kind == kindString {
			n += len(v.items[i].str)
		}
		n += regexBytes(&v.items[i])
	}
	return n
}

// compileRegex compiles a pattern with the store's options. Patterns use
// Go's RE2 syntax, which covers the PCRE syntax people use in queries;
// PCRE-only constructs (backreferences, lookaround) are rejected here rather
// than matched differently.
func compileRegex(pattern, options string) (*regexp.Regexp, error) {
	var flags string
	for i := 0; i < len(options); i++ {
		switch c := options[i]; c {
		case 'i', 'm', 's':
			flags += string(c)
		case 'x':
			pattern = stripExtended(pattern)
		case 'u':
		default:
			return nil, fmt.Errorf("unknown regular expression option %q (valid: %s)", c, regexOptions)
		}
	}
	if flags != "" {
		pattern = "(?" + flags + ")" + pattern
	}
	return regexp.Compile(pattern)
}

// regexProblem says what is wrong with a pattern, quoting the part regexp
// names briefly (its errors quote it whole).
func regexProblem(err error) string {
	var se *syntax.Error
	if errors.As(err, &se) {
		return "invalid regular expression: " + string(se.Code) + ": " + excerpt.Quote(se.Expr)
	}
	return excerpt.Cut(err.Error())
}

// splitRegexLiteral splits a /pattern/flags literal.
func splitRegexLiteral(lit string) (pattern, flags string) {
	end := strings.LastIndexByte(lit, '/')
	return lit[1:end], lit[end+1:]
}

// stripExtended removes what the x option ignores: white space and
// comments from an unescaped # to the end of the line, outside character
// classes.
func stripExtended(pattern string) string {
	var b strings.Builder
	inClass, inComment := false, false
	for i := 0; i < len(pattern); i++ {
		c := pattern[i]
		switch {
		case inComment:
			inComment = c != '\n'
		case c == '\\' && i+1 < len(pattern):
			b.WriteByte(c)
			i++
			b.WriteByte(pattern[i])
		case inClass:
			inClass = c != ']'
			b.WriteByte(c)
		case c == '[':
			inClass = true
			b.WriteByte(c)
		case c == '#':
			inComment = true
		case strings.IndexByte(" \t\n\r\f\v", c) < 0:
			b.WriteByte(c)
		}
	}
	return b.String()
}
