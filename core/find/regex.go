package find

import (
	"fmt"
	"regexp"
	"strings"
)

// regexOptions are the store's regular expression options: i (ignore
// case), m (^ and $ match at line breaks), s (. matches newlines), x
// (extended: unescaped white space and #-comments outside character classes
// are ignored) and u (Unicode; accepted and redundant, text is always UTF-8).
// https://www.mongodb.com/docs/manual/reference/operator/query/regex/#mongodb-query-op.-options
const regexOptions = "imsxu"

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
