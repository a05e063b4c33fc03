package cmd

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/podflow/podflow/timeline"
)

// TestRowOnlyKeepsWhatTheTableReads: get pods and get nodes have each
// flow judged only as far as its row needs (LoadOptions.rows); every table
// they print, with every sort and the filters, must be what the full flows
// give.
func TestRowOnlyKeepsWhatTheTableReads(t *testing.T) {
	files, err := filepath.Glob(corpus + "v*/*.log")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus logs: %v", err)
	}
	inputs := append([][]string{{corpus}}, make([][]string, 0, len(files))...)
	for _, f := range files {
		inputs = append(inputs, []string{f})
	}
	for _, in := range inputs {
		ioS, _, _, _ := NewTestIO(false)
		full, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000})
		if err != nil {
			t.Fatal(err)
		}
		trimmed, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000, rows: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(full.Flows.Items) == 0 {
			t.Fatalf("%v: no pods", in)
		}
		for _, sort := range getPodsSorts {
			for _, wide := range []bool{false, true} {
				o := &GetPodsOptions{IO: ioS, SortBy: sort, Since: "30s", Verdicts: nil}
				if sort == "verdict" {
					o.Since = "" // a filter and a sort each on their own
				}
				want, got := tableOf(t, o, full, wide), tableOf(t, o, trimmed, wide)
				if got != want {
					t.Errorf("%v --sort-by %s wide=%v: trimmed flows print\n%s\nfull flows print\n%s", in, sort, wide, got, want)
				}
			}
		}
		if len(full.Flows.Nodes) != len(trimmed.Flows.Nodes) {
			t.Fatalf("%v: %d nodes trimmed, %d full", in, len(trimmed.Flows.Nodes), len(full.Flows.Nodes))
		}
		for i, n := range full.Flows.Nodes {
			if m := trimmed.Flows.Nodes[i]; m.Name != n.Name || podCounts(m.Pods, false) != podCounts(n.Pods, false) {
				t.Errorf("%v: node %d trimmed %+v, full %+v", in, i, m, n)
			}
		}
	}
}

func tableOf(t *testing.T, o *GetPodsOptions, a *Analysis, wide bool) string {
	t.Helper()
	fl, err := o.selectFlows(a.Flows)
	if err != nil {
		t.Fatal(err)
	}
	ioS, _, out, _ := NewTestIO(false)
	printPodTable(ioS, fl.Items, wide, false, false)
	return out.String()
}

// TestDescribeTrimKeepsThePod: describe drops the detail of flows the name
// cannot resolve to; every pod of the corpus must describe as with the
// full flows, and an ambiguous prefix must list the same pods.
func TestDescribeTrimKeepsThePod(t *testing.T) {
	in := []string{corpus + "v1.36.3/"}
	ioS, _, _, _ := NewTestIO(false)
	full, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000})
	if err != nil {
		t.Fatal(err)
	}
	describeWith := func(a *Analysis, name string) (string, string) {
		ioS, _, _, errOut := NewTestIO(false)
		f, err := resolvePod(ioS, a.Flows, podQuery{name: name})
		if err != nil {
			return "", errOut.String() + err.Error()
		}
		var buf bytes.Buffer
		d := &describer{w: &buf, a: a, f: f, maxEvidence: 3, wrapAt: 100}
		d.describe()
		return buf.String(), ""
	}
	names := []string{"batch-worker-", "web"} // prefixes several pods share
	for i, f := range full.Flows.Items {
		names = append(names, f.Pod.Name)
		if i%10 == 0 {
			names = append(names, f.Pod.Namespace+"/"+f.Pod.Name, "pod/"+f.Pod.Name)
		}
	}
	described := 0
	for _, name := range names {
		trimmed, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000, trim: describeTrim(ioS, name, "")})
		if err != nil {
			t.Fatal(err)
		}
		wantOut, wantErr := describeWith(full, name)
		gotOut, gotErr := describeWith(trimmed, name)
		if gotOut != wantOut || gotErr != wantErr {
			t.Errorf("describe %q: trimmed flows give\n%s%s\nfull flows give\n%s%s", name, gotOut, gotErr, wantOut, wantErr)
		}
		if wantOut != "" {
			described++
		}
	}
	if described < len(full.Flows.Items) {
		t.Errorf("only %d of %d pods described", described, len(full.Flows.Items))
	}
}

// TestTimingOnlyKeepsStatsAndTrace: stats and trace drop each flow's
// evidence as it is judged (timingOnly, traceTrim); the stage table, the
// over-time buckets and both trace formats must be what the full flows
// give, for all pods and for a few picked by name.
func TestTimingOnlyKeepsStatsAndTrace(t *testing.T) {
	files, err := filepath.Glob(corpus + "v*/*.log")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus logs: %v", err)
	}
	inputs := [][]string{{corpus}}
	for _, f := range files {
		inputs = append(inputs, []string{f})
	}
	export := func(a *Analysis, names *PodFilter, output string) string {
		var flows []timeline.Flow
		for i := range a.Flows.Items {
			if names.Match(&a.Flows.Items[i]) {
				flows = append(flows, a.Flows.Items[i])
			}
		}
		v := []any{buildChrome(flows)}
		if output == "otlp" {
			v = []any{buildOTLP(flows)}
		}
		if names.Empty() { // stats reads every pod
			b, over := overTime(a.Flows, 0)
			v = append(v, stageStats(a.Flows), b, over)
		}
		j, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(j)
	}
	for _, in := range inputs {
		ioS, _, _, _ := NewTestIO(false)
		full, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if len(full.Flows.Items) == 0 {
			t.Fatalf("%v: no pods", in)
		}
		evidence := 0
		for _, f := range full.Flows.Items {
			for _, s := range f.Stages {
				evidence += len(s.Evidence)
			}
		}
		if evidence == 0 {
			t.Fatalf("%v: no stage evidence to drop; the test proves nothing", in)
		}
		picks := [][]string{nil, {full.Flows.Items[0].Pod.Name}, {full.Flows.Items[len(full.Flows.Items)/2].Pod.Key(), "^web"}}
		for _, pick := range picks {
			names, err := NewPodFilter(pick)
			if err != nil {
				t.Fatal(err)
			}
			// Each format from the flows trimmed for it (the OTLP
			// spans keep no failure lines).
			for _, output := range traceOutputs {
				trimmed, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000, trim: traceTrim(ioS, names, output)})
				if err != nil {
					t.Fatal(err)
				}
				if got, want := export(trimmed, names, output), export(full, names, output); got != want {
					t.Errorf("%v pods %q -o %s: trimmed flows give\n%.2000s\nfull flows give\n%.2000s", in, pick, output, got, want)
				}
			}
		}
	}
}
