package jsonrpc

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// decodePlain decodes params, when it is a flat JSON object (see
// flatMembers), into v, a pointer to a plain struct (see plainStruct),
// when each member names a field and is a string for a string field, true
// or false for a bool field or an integer (no fraction or exponent) that
// fits an int field: the common case, a resolve's {"did":…,"all":…} or a
// query's {"query":…,"limit":10}, which it decodes with the scanners of
// flat.go and scan.go rather than encoding/json's reflective walk (a
// twentieth of the node's CPU per resolve). For anything else it returns
// false having changed nothing, and DecodeParams leaves params to
// encoding/json; a struct that is not plain costs it no look at params.
// FuzzDecodeParams holds the two to the same answers.
func decodePlain(params []byte, v any) bool {
	p := reflect.ValueOf(v)
	if p.Kind() != reflect.Pointer || p.IsNil() || p.Elem().Kind() != reflect.Struct || !plainStruct(p.Elem().Type()) {
		return false
	}
	s := p.Elem()
	var fields [8]int
	var buf [len(fields)]member
	ms, flat := flatMembers(buf[:0], params)
	if !flat || len(ms) > len(fields) {
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
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(m.value[0] == 't')
		case reflect.Int:
			n, _ := strconv.Atoi(string(m.value)) // plainField parsed it
			f.SetInt(int64(n))
		default:
			f.SetString(string(unquote(m.value)))
		}
	}
	return true
}

// plainStruct reports whether every field of the struct type t that
// encoding/json would decode is a string, a bool or an int, or a pointer
// to one, with a name of its own and no options in its tag, and t embeds
// nothing: a struct whose parameters decodePlain may set.
func plainStruct(t reflect.Type) bool {
	var names [8]string
	n := 0
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return false
		}
		tag := f.Tag.Get("json")
		name, _, opts := strings.Cut(tag, ",")
		switch {
		case !f.IsExported() || name == "-" && !opts:
			continue
		case opts, plainType(f.Type) == nil, n == len(names):
			return false
		case name == "":
			name = f.Name
		}
		if slices.Contains(names[:n], name) {
			return false
		}
		names[n] = name
		n++
	}
	return true
}

// plainType returns t, or what it points to, when that is string, bool or
// int, else nil.
func plainType(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == reflect.TypeFor[string]() || t == reflect.TypeFor[bool]() || t == reflect.TypeFor[int]() {
		return t
	}
	return nil
}

// plainField returns the index of the field of the plain struct type t
// that m names and whose type m's value has, or -1.
func plainField(t reflect.Type, m member) int {
	if string(m.name) == "-" {
		return -1
	}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || paramName(f) != string(m.name) {
			continue
		}
		switch plainType(f.Type) {
		case reflect.TypeFor[string]():
			if m.value[0] == '"' {
				return i
			}
		case reflect.TypeFor[bool]():
			if m.value[0] == 't' || m.value[0] == 'f' {
				return i
			}
		case reflect.TypeFor[int]():
			if _, err := strconv.Atoi(string(m.value)); err == nil {
				return i
			}
		}
		return -1
	}
	return -1
}
