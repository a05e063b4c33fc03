package cmd

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// --sort-by takes kubectl's JSONPath form: the rows come in the order of
// the value the path finds in each item of -o json, absent ones first.
func TestSortByJSONPath(t *testing.T) {
	dir := "../testdata/corpus/v1.36.3"
	items := func(args ...string) []map[string]any {
		t.Helper()
		out, errOut, code := runPodflow(t, false, append([]string{"get", "pods", dir, "-o", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		var fl struct{ Items []map[string]any }
		if err := json.Unmarshal([]byte(out), &fl); err != nil {
			t.Fatal(err)
		}
		return fl.Items
	}
	for _, key := range []string{".startup.kubeletE2E", "{.startup.kubeletE2E}", "startup.kubeletE2E"} {
		var seen []time.Duration
		absent := 0
		for _, it := range items("--sort-by", key) {
			st, _ := it["startup"].(map[string]any)
			s, _ := st["kubeletE2E"].(string)
			if s == "" {
				if len(seen) > 0 {
					t.Errorf("%s: a pod without kubeletE2E after ones with it", key)
				}
				absent++
				continue
			}
			d, err := time.ParseDuration(s)
			if err != nil {
				t.Fatal(err)
			}
			seen = append(seen, d)
		}
		if len(seen) < 5 || absent == 0 || !slices.IsSorted(seen) {
			t.Errorf("%s: %d absent, then %v: want absent first, then ascending", key, absent, seen)
		}
	}
	var starts []string
	for _, it := range items("--sort-by", ".pod.name") {
		starts = append(starts, it["pod"].(map[string]any)["name"].(string))
	}
	if !slices.IsSorted(starts) {
		t.Errorf("--sort-by .pod.name: %v", starts)
	}
	for key, want := range map[string]string{
		".startup.bogus": "bogus",
		"bogus":          "allowed: start, duration, waited, name, verdict, or a JSONPath",
		"{.pod.name":     "--sort-by",
	} {
		_, errOut, code := runPodflow(t, false, "get", "pods", dir, "--sort-by", key)
		if code != ExitUsage || !strings.Contains(errOut, want) {
			t.Errorf("--sort-by %s: exit %d, %q; want %d and %q", key, code, errOut, ExitUsage, want)
		}
	}
}
