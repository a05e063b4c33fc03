package redact

import "reflect"

// Role is how Walk treats a string field.
type Role int

const (
	RoleText Role = iota // free text: Text
	RoleHost             // a host or node name: Host
	RoleKeep             // left as is (identifiers, enums)
)

// Walk redacts, in place, every string reachable from ptr (a pointer to a
// struct or slice): string fields, slices and arrays of strings, and
// string map values. Fields whose type is a named string type (enums such
// as a verdict) are left. role gives a field's role from "Type.Field";
// nil means every field is free text. Values shared by several fields
// are safe to visit twice: Text and Host are idempotent.
func (r *Redactor) Walk(ptr any, role func(field string) Role) {
	if r == nil || ptr == nil {
		return
	}
	if role == nil {
		role = func(string) Role { return RoleText }
	}
	w := walker{r: r, role: role, fields: map[reflect.Type][]fieldRole{}}
	w.walk(reflect.ValueOf(ptr), RoleText)
}

// walker is one Walk: the roles of each struct type's fields are found
// once, not once a value.
type walker struct {
	r      *Redactor
	role   func(string) Role
	fields map[reflect.Type][]fieldRole
}

type fieldRole struct {
	index int
	role  Role
	skip  bool // unexported, or nothing in it is a string to mask
}

func (w *walker) fieldsOf(t reflect.Type) []fieldRole {
	if fs, ok := w.fields[t]; ok {
		return fs
	}
	fs := make([]fieldRole, t.NumField())
	for i := range fs {
		f := t.Field(i)
		fs[i] = fieldRole{index: i, role: w.role(t.Name() + "." + f.Name), skip: !f.IsExported() || !hasStrings(f.Type, 0)}
	}
	w.fields[t] = fs
	return fs
}

// hasStrings reports whether a value of type t can hold a string Walk
// changes.
func hasStrings(t reflect.Type, depth int) bool {
	if depth > 8 {
		return true
	}
	switch t.Kind() {
	case reflect.String:
		return t == stringType
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return hasStrings(t.Elem(), depth+1)
	case reflect.Map, reflect.Interface:
		return true
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.IsExported() && hasStrings(f.Type, depth+1) {
				return true
			}
		}
	}
	return false
}

var stringType = reflect.TypeOf("")

func (w *walker) walk(v reflect.Value, as Role) {
	r := w.r
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			w.walk(v.Elem(), as)
		}
	case reflect.Struct:
		for _, f := range w.fieldsOf(v.Type()) {
			if f.skip || f.role == RoleKeep && v.Field(f.index).Kind() != reflect.Struct {
				continue
			}
			w.walk(v.Field(f.index), f.role)
		}
	case reflect.Slice, reflect.Array:
		if !hasStrings(v.Type().Elem(), 0) {
			return
		}
		for i := 0; i < v.Len(); i++ {
			w.walk(v.Index(i), as)
		}
	case reflect.Map:
		if v.Type().Elem() != stringType {
			for _, k := range v.MapKeys() {
				e := v.MapIndex(k)
				if e.Kind() == reflect.Interface || e.Kind() == reflect.Pointer {
					w.walk(e, as)
				}
			}
			return
		}
		for _, k := range v.MapKeys() {
			v.SetMapIndex(k, reflect.ValueOf(r.apply(v.MapIndex(k).String(), as)))
		}
	case reflect.String:
		if v.Type() != stringType || !v.CanSet() {
			return
		}
		v.SetString(r.apply(v.String(), as))
	}
}

func (r *Redactor) apply(s string, as Role) string {
	switch as {
	case RoleHost:
		return r.Host(s)
	case RoleKeep:
		return s
	}
	return r.Text(s)
}
