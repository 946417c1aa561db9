package abi

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/core/jsontext"
	"github.com/didlight/didlight/core/resolve"
)

// MatchInput is the input of match.
type MatchInput struct {
	// Condition is a find condition: a string holding strict or relaxed
	// JSON ({$exists:true} and the like), or the condition object itself.
	Condition json.RawMessage   `json:"condition"`
	Documents []json.RawMessage `json:"documents"`
	// View matches DID documents as the query method does: each document
	// is parsed and matched through resolve.View (normalized, with a
	// credential member).
	View bool `json:"view,omitempty"`
}

func (*MatchInput) typeName() string { return "abi.MatchInput" }

func (in *MatchInput) member(d *decoder) bool {
	switch {
	case d.field("condition"):
		d.raw(&in.Condition)
	case d.field("documents"):
		d.raws(&in.Documents)
	case d.field("view"):
		d.boolean(&in.View)
	default:
		return false
	}
	return true
}

// Matches is the output of match.
type Matches struct {
	Matches []bool `json:"matches"` // one per document, in order
}

func (m Matches) appendJSON(b []byte) []byte {
	o := jsontext.NewObject(b, jsontext.Std)
	o.Array("matches", len(m.Matches), m.Matches == nil, func(b []byte, i int) []byte {
		return strconv.AppendBool(b, m.Matches[i])
	})
	return o.End()
}

// Match runs match: find.Compile, then Condition.Match on each document.
func Match(in []byte, env Env) []byte { return run(in, env, match) }

func match(in *MatchInput, _ Env) (Matches, error) {
	text, err := conditionText(in.Condition)
	if err != nil {
		return Matches{}, err
	}
	c, err := find.Compile(text)
	if err != nil {
		return Matches{}, err
	}
	out := Matches{Matches: make([]bool, len(in.Documents))}
	for i, b := range in.Documents {
		if in.View {
			doc, err := did.ParseDocument(b)
			if err != nil {
				return Matches{}, fmt.Errorf("abi: documents[%d]: %w", i, err)
			}
			b = resolve.View(doc)
		}
		out.Matches[i] = c.Match(b)
	}
	return out, nil
}

// conditionText returns the text of a condition given as a JSON string or
// as the condition object.
func conditionText(c json.RawMessage) (string, error) {
	if err := required("condition", len(c) == 0); err != nil {
		return "", err
	}
	if c[0] != '"' {
		return string(c), nil
	}
	d := decoder{s: c}
	return d.unquote(), nil
}
