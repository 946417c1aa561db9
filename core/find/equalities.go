package find

// Equality is a requirement every document matching a condition meets:
// reading Path as the matcher does (through arrays, any element), the
// document holds a value equal to one of Values. An index on Path can
// therefore answer it, and a scan need only test the documents it yields.
type Equality struct {
	Path   string
	Values []any // each a string, float64 or bool
}

// Equalities returns the equality requirements the condition implies, for
// the node to answer from an index instead of a scan: implicit equality
// and $eq with a string, number or boolean, $in with such values only, the
// items of $all, and the members of shape conditions and of $elemMatch
// queries (as sub-paths: {credential: {type: ["X"]…}} gives
// credential.type = "X"). Only requirements joined by AND count, and paths
// with a name that spells an array position are left out. A condition
// without any returns nil: every document must be tested.
func (c *Condition) Equalities() []Equality {
	return equalities(c.root, "", nil)
}

func equalities(m matcher, prefix string, out []Equality) []Equality {
	switch m := m.(type) {
	case and:
		for _, k := range m {
			out = equalities(k, prefix, out)
		}
	case *pathMatch:
		for _, s := range m.steps {
			if s.index >= 0 {
				return out
			}
		}
		path := prefix + m.path
		switch p := m.pred.(type) {
		case *compare:
			if v, ok := scalar(p); ok {
				out = append(out, Equality{Path: path, Values: []any{v}})
			}
		case *in:
			if vs, ok := scalars(p); ok {
				out = append(out, Equality{Path: path, Values: vs})
			}
		case shape:
			out = equalities(p.cond, path+".", out)
		case elemMatchDoc:
			out = equalities(p.cond, path+".", out)
		}
	}
	return out
}

// scalar returns the operand of an $eq that an index can hold.
func scalar(c *compare) (any, bool) {
	if c.op != opEq {
		return nil, false
	}
	switch v := c.operand; v.kind {
	case kindString:
		return v.str, true
	case kindNumber:
		return v.num, true
	case kindBool:
		return v.num != 0, true
	}
	return nil, false
}

func scalars(m *in) ([]any, bool) {
	if len(m.patterns) > 0 || len(m.values) == 0 {
		return nil, false
	}
	vs := make([]any, len(m.values))
	for i, c := range m.values {
		v, ok := scalar(c)
		if !ok {
			return nil, false
		}
		vs[i] = v
	}
	return vs, true
}
