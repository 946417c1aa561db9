package find

import (
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/internal/scaling"
)

// BenchmarkScaleCompile compiles conditions grown by their members, their
// lists and their strings: the query parameter of the query method. See
// package scaling for what the ratios mean.
func BenchmarkScaleCompile(b *testing.B) {
	shapes := map[string]func(int) string{
		"members": func(n int) string {
			return scaling.Repeat(n, "{", ",", "}", func(i int) string { return fmt.Sprintf("f%d:%d", i, i) })
		},
		"or": func(n int) string {
			return scaling.Repeat(n, "{$or:[", ",", "]}", func(i int) string { return fmt.Sprintf("{f%d:'v%d'}", i%97, i) })
		},
		"in": func(n int) string {
			return scaling.Repeat(n, "{service:{$elemMatch:{type:{$in:[", ",", "]}}}}", func(i int) string { return fmt.Sprintf("'T%d'", i) })
		},
		"all": func(n int) string {
			return scaling.Repeat(n, "{credential:{$all:[", ",", "]}}", func(i int) string { return fmt.Sprintf("{$elemMatch:{type:'T%d'}}", i) })
		},
		"string": func(n int) string { return `{"id":"` + strings.Repeat("x", n-10) + `"}` },
		"escapes": func(n int) string {
			return scaling.Repeat(n, `{"id":"`, "", `"}`, func(int) string { return `\u00e9\n` })
		},
		"regex": func(n int) string { return "{id:/" + strings.Repeat("ab", (n-10)/2) + "/i}" },
		"regexes": func(n int) string {
			return scaling.Repeat(n, "{$or:[", ",", "]}", func(i int) string { return fmt.Sprintf("{f:/v%d/}", i) })
		},
		"path": func(n int) string {
			return scaling.Repeat(n, "{", ".", ":1}", func(i int) string { return fmt.Sprintf("p%d", i) })
		},
		"and": func(n int) string {
			return scaling.Repeat(n, "{$and:[", ",", "]}", func(i int) string { return fmt.Sprintf("{f:{$ne:%d}}", i) })
		},
	}
	for name, shape := range shapes {
		if _, err := Compile(shape(scaling.Small)); err != nil {
			b.Fatalf("%s: %v", name, err)
		}
	}
	scaling.Run(b, shapes, func(s string) error { _, err := Compile(s); return err })
}
