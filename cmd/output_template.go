package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strings"

	"github.com/podflow/podflow/internal/sanitize"
	"k8s.io/client-go/util/jsonpath"
)

// kubectl's template outputs, with its syntax (client-go's JSONPath):
// -o jsonpath=TEMPLATE runs on the document -o json prints; -o
// custom-columns=HEADER:PATH,… runs each PATH on every item of it and
// prints a table. The -file forms read the template from a file.
const templateOutputsHelp = `-o jsonpath=TEMPLATE (or jsonpath-file=FILE) prints TEMPLATE, kubectl's
JSONPath, evaluated on the document -o json prints; -o
custom-columns=HEADER:PATH,... (or custom-columns-file=FILE: headers on the
first line, paths on the second) prints a table with one row per item,
<none> where a PATH finds nothing.`

var templateOutputs = []string{"jsonpath=", "jsonpath-file=", "custom-columns=", "custom-columns-file="}

// templateOutput is a parsed -o jsonpath or -o custom-columns.
type templateOutput struct {
	jsonpath *jsonpath.JSONPath // -o jsonpath
	headers  []string           // -o custom-columns
	columns  []*jsonpath.JSONPath
}

// parseTemplateOutput reads an -o value. ok is false when it names no
// template output; err says what is wrong with one that does.
func parseTemplateOutput(output string) (t *templateOutput, ok bool, err error) {
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
		b, err := os.ReadFile(arg)
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
		return &templateOutput{jsonpath: jp}, true, nil
	}
	t = &templateOutput{}
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
	}
	return t, true, nil
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

// print writes doc, the value -o json would print; items are its
// elements a custom-columns table has rows for.
func (t *templateOutput) print(w io.Writer, doc any, items func(yield func(any) bool), noHeaders bool) error {
	if t.jsonpath != nil {
		v, err := generic(doc)
		if err != nil {
			return err
		}
		if err := t.jsonpath.Execute(w, v); err != nil {
			return fmt.Errorf("-o jsonpath: %w", err)
		}
		return nil
	}
	tab := &Table{Headers: t.headers, NoHeader: noHeaders, Flex: -1}
	var err error
	items(func(item any) bool {
		var v any
		if v, err = generic(item); err != nil {
			return false
		}
		row := make([]string, len(t.columns))
		for i, jp := range t.columns {
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
			vals = append(vals, oneLine(b.String()))
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
func generic(v any) (any, error) {
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
	return prepare(out), nil
}

func prepare(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = prepare(e)
		}
	case []any:
		for i, e := range x {
			x[i] = prepare(e)
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
