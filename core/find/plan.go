package find

import (
	"strconv"
	"strings"
)

// PlanOp is what one node of a Plan does.
type PlanOp uint8

// The kinds of Plan nodes.
const (
	PlanScan   PlanOp = iota // test every document
	PlanLookup               // the documents posted under Path (one of Values, or present)
	PlanAnd                  // the documents every kid finds
	PlanOr                   // the documents any kid finds
)

// Plan is how a store finds the documents a condition may match through
// an Index: a tree of lookups joined by intersection (PlanAnd) and union
// (PlanOr), or PlanScan when no index narrows the search. Every document
// the condition matches is among those the plan finds; when Exact, the
// plan finds exactly those, so that a store counts them without reading a
// document.
type Plan struct {
	Op     PlanOp
	Path   string // PlanLookup: the indexed path
	Values []any  // PlanLookup: the path holds one of these; nil: it is present
	Kids   []*Plan
	Exact  bool
}

// Plan returns the plan of the condition over the postings of ix:
// equality, $in and $exists: true on indexed paths are lookups of their
// values or presence (exact); any other operator that needs a value on a
// path under an indexed one is a lookup of that presence (not exact); a
// shape condition or $elemMatch gives the lookups of its members, whose
// conjunction every match meets (not exact, as they may hold in different
// elements); $and intersects its members' lookups, $or unites them if
// each has some. Anything else ($not, $nor, $ne...) is left to the test of
// the documents found: the plan is not exact, or PlanScan when nothing is
// left to look up.
func (c *Condition) Plan(ix *Index) *Plan {
	if p := plan(c.root, "", ix); p != nil {
		return p
	}
	return &Plan{Op: PlanScan}
}

// plan returns the plan of m, a matcher on the object at prefix, or nil
// when no index narrows it.
func plan(m matcher, prefix string, ix *Index) *Plan {
	switch m := m.(type) {
	case and:
		return planAnd(m, prefix, ix)
	case or:
		kids := make([]*Plan, len(m))
		exact := true
		for i, k := range m {
			if kids[i] = plan(k, prefix, ix); kids[i] == nil {
				return nil
			}
			exact = exact && kids[i].Exact
		}
		return &Plan{Op: PlanOr, Kids: kids, Exact: exact}
	case *pathMatch:
		return planPath(m, prefix, ix)
	}
	return nil
}

func planAnd(m and, prefix string, ix *Index) *Plan {
	var kids []*Plan
	exact := true
	for _, k := range m {
		if k == always(true) {
			continue
		}
		p := plan(k, prefix, ix)
		if p == nil {
			exact = false
			continue
		}
		exact = exact && p.Exact
		kids = append(kids, p)
	}
	switch len(kids) {
	case 0:
		return nil
	case 1:
		kids[0].Exact = exact
		return kids[0]
	}
	return &Plan{Op: PlanAnd, Kids: kids, Exact: exact}
}

// planPath plans a condition on one path.
func planPath(m *pathMatch, prefix string, ix *Index) *Plan {
	for _, s := range m.steps {
		if s.index >= 0 {
			return nil
		}
	}
	path := prefix + m.path
	exact := prefix == "" // inside a shape, lookups need not hold in the same element
	switch p := m.pred.(type) {
	case *compare:
		if v, ok := scalar(p); ok && ix.indexed(path) && posted(v) {
			return &Plan{Op: PlanLookup, Path: path, Values: []any{postedValue(v)}, Exact: exact}
		}
	case *in:
		if vs, ok := scalars(p); ok && ix.indexed(path) && allPosted(vs) {
			for i, v := range vs {
				vs[i] = postedValue(v)
			}
			return &Plan{Op: PlanLookup, Path: path, Values: vs, Exact: exact}
		}
	case exists:
		if ix.indexed(path) {
			return &Plan{Op: PlanLookup, Path: path, Exact: exact}
		}
	case shape:
		return inexact(plan(p.cond, path+".", ix))
	case elemMatchDoc:
		return inexact(plan(p.cond, path+".", ix))
	}
	if !needsValue(m.pred) {
		return nil
	}
	if at := ix.present(path); at != "" {
		return &Plan{Op: PlanLookup, Path: at}
	}
	return nil
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

// inexact marks p and its kids not exact.
func inexact(p *Plan) *Plan {
	if p != nil {
		p.Exact = false
		for _, k := range p.Kids {
			inexact(k)
		}
	}
	return p
}

// posted reports whether an index posts the value v itself.
func posted(v any) bool {
	s, ok := v.(string)
	return !ok || len(s) <= MaxPostedValue
}

func allPosted(vs []any) bool {
	for _, v := range vs {
		if !posted(v) {
			return false
		}
	}
	return true
}

// postedValue is the value v is posted under.
func postedValue(v any) any {
	if f, ok := v.(float64); ok {
		return postedNumber(f)
	}
	return v
}

// String describes the plan on one line, for logs and tests:
// and(service.type in ["Hub"], present(credential.subject.email)) exact.
func (p *Plan) String() string {
	var b strings.Builder
	p.write(&b)
	if p.Exact {
		b.WriteString(" exact")
	}
	return b.String()
}

func (p *Plan) write(b *strings.Builder) {
	switch p.Op {
	case PlanScan:
		b.WriteString("scan")
	case PlanLookup:
		if p.Values == nil {
			b.WriteString("present(" + p.Path + ")")
			return
		}
		b.WriteString(p.Path + " in [")
		for i, v := range p.Values {
			if i > 0 {
				b.WriteByte(',')
			}
			switch v := v.(type) {
			case string:
				b.WriteString(strconv.Quote(v))
			case float64:
				b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			case bool:
				b.WriteString(strconv.FormatBool(v))
			}
		}
		b.WriteByte(']')
	default:
		b.WriteString(map[PlanOp]string{PlanAnd: "and(", PlanOr: "or("}[p.Op])
		for i, k := range p.Kids {
			if i > 0 {
				b.WriteString(", ")
			}
			k.write(b)
		}
		b.WriteByte(')')
	}
}
