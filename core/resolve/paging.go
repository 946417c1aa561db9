package resolve

import "fmt"

// The query method's paging, as the interface has it: a page holds
// [DefaultQueryLimit] documents unless the client asks for another number,
// and never more than [MaxQueryLimit] (a larger limit is clamped, not
// refused).
const (
	DefaultQueryLimit = 20
	MaxQueryLimit     = 256
)

// QueryPage returns the skip and limit of the page a query asks for: limit
// 0 means [DefaultQueryLimit], and a limit above [MaxQueryLimit] means
// MaxQueryLimit. A negative skip or limit is an error that names it.
func QueryPage(skip, limit int) (int, int, error) {
	return page(skip, limit, DefaultQueryLimit, MaxQueryLimit)
}

// page is the rule both listing methods page by: limit 0 means def, a
// limit above most means most, and a negative skip or limit is an error.
func page(skip, limit, def, most int) (int, int, error) {
	switch {
	case skip < 0:
		return 0, 0, fmt.Errorf("skip %d is negative", skip)
	case limit < 0:
		return 0, 0, fmt.Errorf("limit %d is negative", limit)
	case limit == 0:
		limit = def
	}
	return skip, min(limit, most), nil
}
