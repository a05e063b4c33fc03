package cmd

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// The flags that choose pods mean on every command that reads pods what
// they mean on get pods: each command, given the same selection, judges
// the same pods get pods lists.
func TestPodSelectionMeansTheSameEverywhere(t *testing.T) {
	dir := "../testdata/corpus/v1.36.3"
	// The pods each command kept, as namespace/name, from its JSON.
	flowNames := func(t *testing.T, out string) []string {
		var fl struct {
			Items []struct {
				Pod struct{ Namespace, Name string }
			}
		}
		if err := json.Unmarshal([]byte(out), &fl); err != nil {
			t.Fatalf("%v: %.300s", err, out)
		}
		var names []string
		for _, f := range fl.Items {
			names = append(names, f.Pod.Namespace+"/"+f.Pod.Name)
		}
		slices.Sort(names)
		return names
	}
	commands := []struct {
		name  string
		args  []string
		names func(t *testing.T, out string) []string
	}{
		{"check", []string{"check", "-o", "json", "--fail-on", "Incomplete"}, flowNames},
		{"stats", []string{"stats", "-o", "json"}, func(t *testing.T, out string) []string {
			var res struct{ Pods int }
			if err := json.Unmarshal([]byte(out), &res); err != nil {
				t.Fatal(err)
			}
			return make([]string, res.Pods) // a count: compared by length
		}},
		{"trace", []string{"trace", "-o", "otlp"}, func(t *testing.T, out string) []string {
			return make([]string, strings.Count(out, `"name":"syncPod"`)+strings.Count(out, `"name": "syncPod"`))
		}},
	}
	for _, sel := range [][]string{
		{"--node", "kb-node-crash"},
		{"--verdict", "Stalled,Failed"},
		{"-p", "default/web-7d9f8c6b5-x2kqp"},
		{"--since", "48m", "--until", "40m"},
	} {
		want, errOut, code := runPodflow(t, false, append([]string{"get", "pods", dir, "-o", "json"}, sel...)...)
		if code != 0 {
			t.Fatalf("get pods %v: exit %d: %s", sel, code, errOut)
		}
		wantNames := flowNames(t, want)
		if len(wantNames) == 0 {
			t.Fatalf("get pods %v: no pods; the selection tests nothing", sel)
		}
		for _, c := range commands {
			if c.name != "stats" && c.name != "trace" && slices.Contains(sel, "-p") {
				continue // check keeps its own --pod, tested below
			}
			out, errOut, code := runPodflow(t, false, append(append(slices.Clone(c.args), dir), sel...)...)
			if code != 0 && c.name != "check" {
				t.Errorf("%s %v: exit %d: %s", c.name, sel, code, errOut)
				continue
			}
			got := c.names(t, out)
			if len(got) != len(wantNames) || c.name == "check" && !slices.Equal(got, wantNames) {
				t.Errorf("%s %v: %d pods %v; get pods lists %d %v", c.name, sel, len(got), got, len(wantNames), wantNames)
			}
		}
	}
	// check's and report's --pod takes get pods' forms too: a
	// namespace/name and a UID.
	for _, p := range []string{"default/worker-5d8f7b9c4-m2v6n", "5c18c6f7-a0eb-41a1-8101-c7db6cf1e29f", "worker-5d8f7b9c4-m2v6n"} {
		out, _, _ := runPodflow(t, false, "check", dir, "-o", "json", "--fail-on", "Incomplete", "-p", p)
		if got := flowNames(t, out); !slices.Equal(got, []string{"default/worker-5d8f7b9c4-m2v6n"}) {
			t.Errorf("check -p %s: %v", p, got)
		}
	}
}

func TestPodSelectionFlagsOnEveryCommand(t *testing.T) {
	for _, c := range [][]string{{"get", "pods"}, {"get", "events"}, {"stats"}, {"check"}, {"report"}, {"trace"}} {
		out, _, _ := runPodflow(t, false, append(c, "--help")...)
		for _, f := range []string{"-p, --pod", "--node", "--verdict", "--since", "--until"} {
			if !strings.Contains(out, f) {
				t.Errorf("%v --help has no %s", c, f)
			}
		}
	}
}
