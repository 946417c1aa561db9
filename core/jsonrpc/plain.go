package jsonrpc

import (
	"encoding/json"
	"reflect"
	"strings"
)

// decodePlain decodes params, when it is a JSON object, into v, a pointer to a
// struct, when each member names one of the struct's own fields exactly
// and is a string for a string field or true or false for a bool field
// (or pointers to them): the common case, a resolve's {"did":…,"all":…},
// which it decodes with the scanner of scan.go rather than encoding/json's
// reflective walk (a twentieth of the node's CPU per resolve). For
// anything else it returns false having changed nothing, and DecodeParams
// leaves params to encoding/json. FuzzDecodeParams holds the two to the
// same answers.
func decodePlain(params []byte, v any) bool {
	p := reflect.ValueOf(v)
	if p.Kind() != reflect.Pointer || p.IsNil() || p.Elem().Kind() != reflect.Struct ||
		!json.Valid(params) || params[skipSpace(params, 0)] != '{' {
		return false
	}
	s := p.Elem()
	ms := members(params)
	var fields [8]int
	if len(ms) > len(fields) {
		return false
	}
	for i, m := range ms {
		if fields[i] = plainField(s.Type(), m); fields[i] < 0 {
			return false
		}
	}
	for i, m := range ms {
		f := s.Field(fields[i])
		if f.Kind() == reflect.Pointer {
			if f.IsNil() {
				f.Set(reflect.New(f.Type().Elem()))
			}
			f = f.Elem()
		}
		if f.Kind() == reflect.Bool {
			f.SetBool(m.value[0] == 't')
		} else {
			f.SetString(string(unquote(m.value)))
		}
	}
	return true
}

// plainField returns the index of the field of the struct type t that m
// sets as decodePlain does, or -1: m names exactly one field, t embeds no
// struct whose fields encoding/json would also match, and the field,
// without options in its tag, is a string or bool (or a pointer to one)
// that m's value is.
func plainField(t reflect.Type, m member) int {
	found := -1
	for i := range t.NumField() {
		f := t.Field(i)
		switch {
		case f.Anonymous:
			return -1
		case !f.IsExported() || paramName(f) != string(m.name):
			continue
		case found >= 0 || strings.Contains(f.Tag.Get("json"), ","):
			return -1
		}
		found = i
	}
	if found < 0 || string(m.name) == "-" {
		return -1
	}
	ft := t.Field(found).Type
	if ft.Kind() == reflect.Pointer {
		ft = ft.Elem()
	}
	switch {
	case ft == reflect.TypeFor[string]() && m.value[0] == '"',
		ft == reflect.TypeFor[bool]() && (m.value[0] == 't' || m.value[0] == 'f'):
		return found
	}
	return -1
}
