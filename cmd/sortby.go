package cmd

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/printers"
	"github.com/podflow/podflow/timeline"
	"k8s.io/client-go/util/jsonpath"
)

// --sort-by takes, besides podflow's keywords, kubectl's form: a JSONPath
// into each item of -o json (.startup.kubeletE2E, '{.pod.name}'), as
// kubectl get --sort-by reads one into each object.

// sortPath is the JSONPath template of a --sort-by value that is no
// keyword, in kubectl's relaxed forms: {.a.b}, .a.b or a.b.
func sortPath(key string) string {
	switch {
	case strings.HasPrefix(key, "{"):
		return key // (a brace left open is the parser's to report)
	case strings.HasPrefix(key, "."):
		return "{" + key + "}"
	}
	return "{." + key + "}"
}

// checkSortBy reports a --sort-by that is neither a keyword nor a JSONPath
// whose fields a flow has.
func checkSortBy(key string) error {
	if contains(getPodsSorts, key) {
		return nil
	}
	allowed := "allowed: " + strings.Join(getPodsSorts, ", ") + ", or a JSONPath into -o json's items as kubectl takes one (.startup.kubeletE2E)"
	if !strings.Contains(key, ".") {
		return usageErrorf("--sort-by %q: %s", key, allowed)
	}
	t, _, err := printers.ParseTemplateOutput("jsonpath="+sortPath(key), nil)
	if err != nil {
		return usageErrorf("--sort-by %q: %s; %s", key, strings.TrimPrefix(err.Error(), "-o jsonpath: "), allowed)
	}
	if err := t.CheckKeys(reflect.TypeFor[timeline.Flow]()); err != nil {
		return usageErrorf("--sort-by %q: %v", key, err)
	}
	return nil
}

// sortFlowsByPath sorts items ascending by what the JSONPath key finds in
// each; items where it finds nothing come first; ties keep their order.
func sortFlowsByPath(items []*timeline.Flow, key string) {
	jp := jsonpath.New("sort-by").AllowMissingKeys(true)
	if err := jp.Parse(sortPath(key)); err != nil {
		return // (checkSortBy refused it)
	}
	vals := make(map[*timeline.Flow]reflect.Value, len(items))
	for _, f := range items {
		rs, err := jp.FindResults(f)
		if err == nil && len(rs) > 0 && len(rs[0]) > 0 {
			vals[f] = rs[0][0]
		}
	}
	slices.SortStableFunc(items, func(a, b *timeline.Flow) int { return compareValues(vals[a], vals[b]) })
}

// compareValues orders two values a JSONPath found by their kind (times
// by time, durations and numbers by value, strings by text); an absent
// value first.
func compareValues(a, b reflect.Value) int {
	a, b = deref(a), deref(b)
	switch {
	case !a.IsValid() || !b.IsValid():
		return cmp.Compare(boolInt(a.IsValid()), boolInt(b.IsValid()))
	case a.Type() == reflect.TypeFor[time.Time]() && b.Type() == a.Type():
		return a.Interface().(time.Time).Compare(b.Interface().(time.Time))
	case a.CanInt() && b.CanInt():
		return cmp.Compare(a.Int(), b.Int())
	case a.CanUint() && b.CanUint():
		return cmp.Compare(a.Uint(), b.Uint())
	case a.CanFloat() && b.CanFloat():
		return cmp.Compare(a.Float(), b.Float())
	case a.Kind() == reflect.Bool && b.Kind() == reflect.Bool:
		return cmp.Compare(boolInt(a.Bool()), boolInt(b.Bool()))
	case a.Kind() == reflect.String && b.Kind() == reflect.String:
		return cmp.Compare(a.String(), b.String())
	}
	return cmp.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
}

func deref(v reflect.Value) reflect.Value {
	for v.IsValid() && (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	return v
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
