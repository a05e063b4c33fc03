package printers

import (
	"bufio"
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"k8s.io/client-go/util/jsonpath"
)

// kubectl's template outputs, with its syntax (client-go's JSONPath):
// -o jsonpath=TEMPLATE runs on the document -o json prints; -o
// custom-columns=HEADER:PATH,… runs each PATH on every item of it and
// prints a table. The -file forms read the template from a file.
const TemplateOutputsHelp = `-o jsonpath=TEMPLATE (or jsonpath-file=FILE) prints TEMPLATE, kubectl's
JSONPath, evaluated on the document -o json prints; -o
custom-columns=HEADER:PATH,... (or custom-columns-file=FILE: headers on the
first line, paths on the second) prints a table with one row per item,
<none> where a PATH finds nothing.`

var TemplateOutputs = []string{"jsonpath=", "jsonpath-file=", "custom-columns=", "custom-columns-file="}

// Template is a parsed -o jsonpath or -o custom-columns.
type Template struct {
	jsonpath *jsonpath.JSONPath // -o jsonpath
	headers  []string           // -o custom-columns
	columns  []*jsonpath.JSONPath
	paths    []string // the columns' templates
	raw      string   // -o jsonpath's template, as given
	// keys is what the templates can print: the rest of a flow is
	// dropped as it is read, so that a template on 10,000 pods' flows
	// need not hold them all.
	keys *keySet
}

// OutputFormat reads an -o value: one of fixed, a template output or ""
// (the table). readFile reads the -file forms' templates.
func OutputFormat(output string, fixed []string, readFile func(string) ([]byte, error)) (*Template, error) {
	t, isTemplate, err := ParseTemplateOutput(output, readFile)
	if err != nil || isTemplate || output == "" || slices.Contains(fixed, output) {
		return t, err
	}
	allowed := append(slices.Clip(fixed), TemplateOutputs...)
	return nil, usageErrorf("unknown output format %q; allowed: %s", output, strings.Join(allowed, ", "))
}

// Each yields a pointer to each element of s, the items a template
// output prints.
func Each[T any](s []T) iter.Seq[any] {
	return func(yield func(any) bool) {
		for i := range s {
			if !yield(&s[i]) {
				return
			}
		}
	}
}

// ParseTemplateOutput reads an -o value. ok is false when it names no
// template output; err says what is wrong with one that does.
func ParseTemplateOutput(output string, readFile func(string) ([]byte, error)) (t *Template, ok bool, err error) {
	format, arg, found := strings.Cut(output, "=")
	switch format {
	case "jsonpath", "jsonpath-file", "custom-columns", "custom-columns-file":
	default:
		return nil, false, nil
	}
	format, file := strings.CutSuffix(format, "-file")
	if !found || arg == "" {
		what := "template"
		if file {
			what = "file name"
		}
		return nil, true, usageErrorf("-o %s needs a %s after =", output, what)
	}
	if file {
		b, err := readFile(arg)
		if err != nil {
			return nil, true, usageErrorf("-o %s-file: %v", format, err)
		}
		arg = string(b)
	}
	if format == "jsonpath" {
		jp, err := compileJSONPath(format, arg)
		if err != nil {
			return nil, true, err
		}
		return &Template{jsonpath: jp, keys: templateKeys(arg), raw: arg}, true, nil
	}
	t = &Template{}
	var paths []string
	var specs []string
	if file {
		// kubectl's file form: headers on the first line, paths on the second.
		lines := strings.Split(strings.TrimSpace(arg), "\n")
		if len(lines) != 2 {
			return nil, true, usageErrorf("-o custom-columns-file: want 2 lines (headers, then paths), found %d", len(lines))
		}
		heads, paths := strings.Fields(lines[0]), strings.Fields(lines[1])
		if len(heads) != len(paths) {
			return nil, true, usageErrorf("-o custom-columns-file: %d headers but %d paths", len(heads), len(paths))
		}
		for i := range heads {
			specs = append(specs, heads[i]+":"+paths[i])
		}
	} else {
		specs = strings.Split(arg, ",")
	}
	for _, spec := range specs {
		head, path, found := strings.Cut(spec, ":")
		if !found || head == "" || path == "" {
			return nil, true, usageErrorf("-o custom-columns: %q is not HEADER:PATH (e.g. NAME:.pod.name)", spec)
		}
		jp, err := compileJSONPath("custom-columns", relaxedPath(path))
		if err != nil {
			return nil, true, err
		}
		t.headers = append(t.headers, head)
		t.columns = append(t.columns, jp)
		paths = append(paths, relaxedPath(path))
	}
	t.keys, t.paths = templateKeys(paths...), paths
	return t, true, nil
}

// CheckKeys fails, as kubectl fails on a key it cannot find ("error
// executing jsonpath … is not found"), when a template names a key that
// no document of type doc can hold: a mistyped key (.pod.nmae) would
// otherwise print nothing, as a key merely absent from this document
// does (an omitted empty field prints nothing, as in kubectl).
func (t *Template) CheckKeys(doc reflect.Type) error {
	known, any := schemaKeys(doc)
	if t == nil || any {
		return nil
	}
	check := func(tmpl string) string {
		for _, k := range fieldNames(tmpl) {
			if !known[k] {
				return k
			}
		}
		return ""
	}
	var names []string
	for k := range known {
		names = append(names, k)
	}
	slices.Sort(names)
	if t.jsonpath != nil {
		if k := check(t.raw); k != "" {
			return usageErrorf("error executing jsonpath %q: Error executing template: %s is not found (no %s key in any %s)%s", t.raw, k, k, doc.Name(), DidYouMean(k, names))
		}
		return nil
	}
	for i, p := range t.paths {
		if k := check(p); k != "" {
			return usageErrorf("-o custom-columns: %s:%s: %s is not found (no %s key in any %s)%s", t.headers[i], p, k, k, doc.Name(), DidYouMean(k, names))
		}
	}
	return nil
}

// fieldNames are the keys a template names, filters included.
func fieldNames(tmpl string) []string {
	p, err := jsonpath.Parse("keys", tmpl)
	if err != nil {
		return nil
	}
	var out []string
	var walk func(n jsonpath.Node)
	walk = func(n jsonpath.Node) {
		switch n := n.(type) {
		case *jsonpath.ListNode:
			for _, c := range n.Nodes {
				walk(c)
			}
		case *jsonpath.FieldNode:
			out = append(out, n.Value)
		case *jsonpath.FilterNode:
			walk(n.Left)
			walk(n.Right)
		case *jsonpath.UnionNode:
			for _, c := range n.Nodes {
				walk(c)
			}
		}
	}
	for _, n := range p.Root.Nodes {
		walk(n)
	}
	return out
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()
)

// schemaKeys is every object key a JSON document of type t can hold; any
// is true when some object takes keys of any name (a map by string).
func schemaKeys(t reflect.Type) (keys map[string]bool, any bool) {
	keys = map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			t = t.Elem()
		}
		if seen[t] {
			return
		}
		seen[t] = true
		if t.Implements(jsonMarshaler) || t.Implements(textMarshaler) || reflect.PointerTo(t).Implements(jsonMarshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
			return // a string or a value of its own shape
		}
		switch t.Kind() {
		case reflect.Interface:
			any = true
		case reflect.Map:
			if t.Key() == reflect.TypeFor[timeline.Verdict]() {
				for _, v := range timeline.Verdicts {
					keys[string(v)] = true
				}
			} else {
				any = true
			}
			walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				f := t.Field(i)
				if !f.IsExported() {
					continue
				}
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if name == "-" {
					continue
				}
				if f.Anonymous && name == "" {
					walk(f.Type)
					continue
				}
				if name == "" {
					name = f.Name
				}
				keys[name] = true
				walk(f.Type)
			}
		}
	}
	walk(t)
	return keys, any
}

// keySet is what a template can print of a document: the object keys it
// names, and of those the ones whose whole value it may print (the last
// field of a path; a range only walks its list). A nil keySet keeps
// everything: a wildcard, a recursive descent, a union or a path of no
// field (such as {@} or {[0]}) can reach keys the template does not name.
type keySet struct{ named, whole map[string]bool }

// templateKeys is the keySet of templates, already parsed without error.
func templateKeys(templates ...string) *keySet {
	ks := &keySet{named: map[string]bool{}, whole: map[string]bool{}}
	all := false
	// path reads one path: an action's ({…}) or a filter operand's. Its
	// last field's value may be printed whole; with no field the path is
	// the current object ({@}, {.}, {[0]}) and any key may be printed.
	var path func(l *jsonpath.ListNode)
	path = func(l *jsonpath.ListNode) {
		last, literal, iterates := "", false, false
		for _, n := range l.Nodes {
			switch n := n.(type) {
			case *jsonpath.IdentifierNode:
				if n.Name == "end" {
					return
				}
				iterates = iterates || n.Name == "range"
			case *jsonpath.FieldNode:
				ks.named[n.Value] = true
				last = n.Value
			case *jsonpath.FilterNode:
				path(n.Left)
				path(n.Right)
			case *jsonpath.TextNode, *jsonpath.IntNode, *jsonpath.FloatNode, *jsonpath.BoolNode:
				literal = true // {"\n"}, or a filter's constant
			case *jsonpath.WildcardNode, *jsonpath.RecursiveNode, *jsonpath.UnionNode, *jsonpath.ListNode:
				all = true
			}
		}
		switch {
		case iterates || literal && last == "":
		case last == "":
			all = true
		default:
			ks.whole[last] = true
		}
	}
	for _, tmpl := range templates {
		p, err := jsonpath.Parse("keys", tmpl)
		if err != nil {
			return nil
		}
		for _, n := range p.Root.Nodes {
			switch n := n.(type) {
			case *jsonpath.ListNode:
				path(n)
			case *jsonpath.TextNode:
			default:
				all = true
			}
		}
	}
	if all {
		return nil
	}
	return ks
}

// rowKeys are the keys of a flow (and of its pod) that a flow judged for
// a table row (LoadOptions.rows) holds as a fully judged one does, and
// rowContainerKeys those of its containers.
var (
	rowKeys = map[string]bool{"items": true, "apiVersion": true, "kind": true,
		"pod": true, "namespace": true, "name": true, "uid": true, "node": true, "source": true,
		"static": true, "mirrorUID": true, "incarnation": true, "verdict": true, "stage": true,
		"stalledAt": true, "container": true, "containerStage": true, "reason": true,
		"waited": true, "start": true, "end": true, "duration": true}
	rowContainerKeys = map[string]bool{"containers": true, "name": true, "type": true, "restarts": true}
)

// RowsOnly reports whether the templates print nothing a flow judged for
// a table row lacks, so that a big log is judged as fast and as small as
// for the table.
func (t *Template) RowsOnly() bool {
	ks := t.keys
	if ks == nil || ks.whole["items"] || ks.whole["containers"] {
		return false
	}
	containers := ks.named["containers"]
	for k := range ks.named {
		switch {
		case rowContainerKeys[k]:
		case rowKeys[k] && !(containers && k == "reason"): // a container's reason is not kept
		default:
			return false
		}
	}
	return true
}

func compileJSONPath(format, tmpl string) (*jsonpath.JSONPath, error) {
	jp := jsonpath.New(format).AllowMissingKeys(true)
	if err := jp.Parse(tmpl); err != nil {
		return nil, usageErrorf("-o %s: %q: %v", format, tmpl, err)
	}
	return jp, nil
}

var relaxedPathRE = regexp.MustCompile(`^\{?(\.?[^{}]*)\}?$`)

// relaxedPath lets a custom column say .pod.name or pod.name for
// {.pod.name}, as kubectl does.
func relaxedPath(p string) string {
	m := relaxedPathRE.FindStringSubmatch(p)
	if m == nil {
		return p
	}
	if !strings.HasPrefix(m[1], ".") {
		return "{." + m[1] + "}"
	}
	return "{" + m[1] + "}"
}

// Print writes the template output for the document -o json prints: head
// is that document but for its items, which go under "items" (nil when
// the document is the list of items itself); items yields them, the
// rows of a custom-columns table.
func (t *Template) Print(w io.Writer, head any, items iter.Seq[any], noHeaders bool) error {
	if t.jsonpath != nil {
		// The items are the document's "items" when it has a head.
		itemKeys := t.keys
		if head != nil && itemKeys != nil && itemKeys.whole["items"] {
			itemKeys = nil
		}
		list := []any{}
		for item := range items {
			v, err := generic(item, itemKeys)
			if err != nil {
				return err
			}
			list = append(list, v)
		}
		var doc any = list
		if head != nil {
			v, err := generic(head, t.keys)
			if err != nil {
				return err
			}
			m, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("-o jsonpath: the document is not an object")
			}
			m["items"] = list
			doc = m
		}
		// jsonpath writes each text and value on its own: buffered, not a
		// system call each.
		bw := bufio.NewWriter(w)
		jp := t.jsonpath
		if strings.Contains(t.raw, "range") {
			// client-go cuts the parsed template as it ranges: parsed
			// afresh, it can print again (get pods -w prints once per
			// change). It parsed once, so it parses again.
			jp, _ = compileJSONPath("jsonpath", t.raw)
		}
		if err := jp.Execute(bw, doc); err != nil {
			bw.Flush()
			return fmt.Errorf("-o jsonpath: %w", err)
		}
		return bw.Flush()
	}
	tab := &Table{Headers: t.headers, NoHeader: noHeaders, Flex: -1}
	var err error
	items(func(item any) bool {
		var v any
		if v, err = generic(item, t.keys); err != nil {
			return false
		}
		row := make([]string, len(t.columns))
		for i, jp := range t.columns {
			if strings.Contains(t.paths[i], "range") {
				// client-go's FindResults cuts the parsed template as it
				// ranges: such a column is parsed afresh for each row.
				jp, _ = compileJSONPath("custom-columns", t.paths[i])
			}
			if row[i], err = columnText(jp, v); err != nil {
				return false
			}
		}
		tab.Rows = append(tab.Rows, row)
		return true
	})
	if err != nil {
		return err
	}
	tab.Print(w, false)
	return nil
}

// columnText is one cell: every value path finds, comma-separated, or
// <none>.
func columnText(jp *jsonpath.JSONPath, v any) (string, error) {
	results, err := jp.FindResults(v)
	if err != nil {
		return "", fmt.Errorf("-o custom-columns: %w", err)
	}
	var vals []string
	for _, rs := range results {
		for _, r := range rs {
			var b bytes.Buffer
			if err := jp.PrintResults(&b, []reflect.Value{r}); err != nil {
				return "", fmt.Errorf("-o custom-columns: %w", err)
			}
			vals = append(vals, sanitize.OneLine(b.String()))
		}
	}
	if len(vals) == 0 {
		return "<none>", nil
	}
	return strings.Join(vals, ","), nil
}

// generic is v as encoding/json reads it back into interface values, the
// form JSONPath walks, with numbers as int64 where they are integers (as
// kubectl's unstructured objects hold them) so that 1000000 prints so and
// not as 1e+06, and strings cleaned of terminal controls: they are log
// text, printed raw by a template, and the terminal layer lets podflow's
// own colour sequences through.
func generic(v any, ks *keySet) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out any
	if err := d.Decode(&out); err != nil {
		return nil, err
	}
	return prepare(out, ks), nil
}

// prepare converts v's numbers and cleans its strings (see generic),
// dropping the keys ks cannot print; nil keeps all.
func prepare(v any, ks *keySet) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if ks != nil && !ks.named[k] {
				delete(x, k)
				continue
			}
			sub := ks
			if ks != nil && ks.whole[k] {
				sub = nil
			}
			x[k] = prepare(e, sub)
		}
	case []any:
		for i, e := range x {
			x[i] = prepare(e, ks)
		}
	case string:
		return sanitize.SanitizeLines(x)
	case json.Number:
		if n, err := x.Int64(); err == nil {
			return n
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	}
	return v
}

// UsageError is a bad -o value, or a template naming a key no document
// holds: the command exits as for any flag error.
type UsageError struct{ error }

func (e *UsageError) Unwrap() error { return e.error }

func usageErrorf(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// Unpruned is t printing from whole items, not only from the keys its
// templates name (for tests that compare the two).
func (t *Template) Unpruned() *Template {
	c := *t
	c.keys = nil
	return &c
}
