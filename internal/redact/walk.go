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
	r.walk(reflect.ValueOf(ptr), RoleText, role)
}

var stringType = reflect.TypeOf("")

func (r *Redactor) walk(v reflect.Value, as Role, role func(string) Role) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			r.walk(v.Elem(), as, role)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			r.walk(v.Field(i), role(t.Name()+"."+f.Name), role)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			r.walk(v.Index(i), as, role)
		}
	case reflect.Map:
		if v.Type().Elem() != stringType {
			for _, k := range v.MapKeys() {
				e := v.MapIndex(k)
				if e.Kind() == reflect.Interface || e.Kind() == reflect.Pointer {
					r.walk(e, as, role)
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
