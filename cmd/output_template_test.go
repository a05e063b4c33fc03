package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podflow/podflow/timeline"
)

func TestTemplateOutputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jpFile := write("names.jsonpath", `{range .items[*]}{.pod.name}={.verdict}{"\n"}{end}`)
	colsFile := write("cols.txt", "POD   VERDICT\n.pod.name   {.verdict}\n")
	badCols := write("bad.txt", "POD VERDICT\n.pod.name\n")
	dirV136 := corpus + "v1.36.3/"
	happy := dirV136 + "01-happy-path.log"
	pull := dirV136 + "02-image-pull-failure.log"
	sandbox := dirV136 + "04-sandbox-failure.log"

	for _, tt := range []struct {
		name string
		args []string
		want string // the whole stdout
	}{
		{"jsonpath range",
			[]string{"get", "pods", happy, pull, "-o", `jsonpath={range .items[*]}{.pod.namespace}/{.pod.name} {.verdict} {.stage}{"\n"}{end}`},
			"default/web-7d9f8c6b5-x2kqp Running ready\ndefault/api-6f5b9d7c4-pl8wz Stalled sandbox\n"},
		{"jsonpath list of values",
			[]string{"get", "pods", happy, pull, "-o", "jsonpath={.items[*].pod.name}"},
			"web-7d9f8c6b5-x2kqp api-6f5b9d7c4-pl8wz"},
		{"jsonpath filter and integers stay integers",
			[]string{"get", "pods", happy, "-o", `jsonpath={.items[0].stages[?(@.id=="observed")].evidence[0].line} {.items[0].stages[0].evidence[0].offset}`},
			"726 90647"}, // "Receiving a new pod" (config.go), the observed stage's first line since the fallback reads classes.tsv
		{"jsonpath key absent from this document prints nothing",
			[]string{"get", "pods", happy, "-o", "jsonpath={.items[0].mirrorUID}"},
			""},
		{"jsonpath-file",
			[]string{"get", "pods", happy, pull, "-o", "jsonpath-file=" + jpFile},
			"web-7d9f8c6b5-x2kqp=Running\napi-6f5b9d7c4-pl8wz=Stalled\n"},
		{"custom-columns",
			[]string{"get", "pods", happy, sandbox, "-o", "custom-columns=POD:.pod.name,E2E:startup.kubeletE2E,MIRROR:{.mirrorUID},IMAGES:.containers[*].image"},
			"POD                        E2E              MIRROR   IMAGES\n" +
				"web-7d9f8c6b5-x2kqp        8.259209675s     <none>   docker.io/library/busybox:1.36,docker.io/fluent/fluent-bit:3.1.9,docker.io/library/nginx:1.27.3\n" +
				"payments-7b4d9c8f6-q9zrt   1m1.931118796s   <none>   registry.example.com/payments/api:v2.14.0\n"},
		{"custom-columns no headers",
			[]string{"get", "pods", happy, "--no-headers", "-o", "custom-columns=POD:.pod.name,NODE:.node"},
			"web-7d9f8c6b5-x2kqp   kb-node-happy\n"},
		{"custom-columns-file",
			[]string{"get", "pods", happy, pull, "-o", "custom-columns-file=" + colsFile},
			"POD                   VERDICT\nweb-7d9f8c6b5-x2kqp   Running\napi-6f5b9d7c4-pl8wz   Stalled\n"},
		{"nodes jsonpath",
			[]string{"get", "nodes", happy, pull, "-o", "jsonpath={.items[*].name}"},
			"kb-node-happy kb-node-pullfail"},
		{"nodes custom-columns",
			[]string{"get", "nodes", happy, "-o", "custom-columns=NODE:.name,KUBELET:.kubeletVersion"},
			"NODE            KUBELET\nkb-node-happy   v1.36.3\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runPodflow(t, false, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if stdout != tt.want {
				t.Errorf("stdout:\n%q\nwant:\n%q", stdout, tt.want)
			}
		})
	}

	for _, tt := range []struct {
		name, output, want string
	}{
		{"no template", "jsonpath=", "-o jsonpath= needs a template after ="},
		{"no file", "custom-columns-file", "needs a file name"},
		{"bad jsonpath", "jsonpath={.items[", "-o jsonpath:"},
		{"bad column", "custom-columns=NAME", `"NAME" is not HEADER:PATH`},
		{"missing file", "jsonpath-file=" + filepath.Join(dir, "nope"), "no such file"},
		{"column file shape", "custom-columns-file=" + badCols, "2 headers but 1 paths"},
		{"unknown lists templates", "go-template={{.}}", "custom-columns="},
		// A key no FlowList holds fails as kubectl fails on a missing key.
		{"jsonpath key no document holds", "jsonpath={.items[0].nosuchfield}",
			`error executing jsonpath "{.items[0].nosuchfield}": Error executing template: nosuchfield is not found`},
		{"jsonpath mistyped key", "jsonpath={range .items[*]}{.pod.nmae}{end}", "nmae is not found (no nmae key in any FlowList)\n\nDid you mean this?\n\tname\n"},
		{"jsonpath mistyped key in a filter", `jsonpath={.items[?(@.verdikt=="Stalled")].pod.name}`, "verdikt is not found"},
		{"custom-columns mistyped key", "custom-columns=POD:.pod.name,V:.verdik", "-o custom-columns: V:{.verdik}: verdik is not found"},
	} {
		t.Run("usage "+tt.name, func(t *testing.T) {
			stdout, stderr, code := runPodflow(t, false, "get", "pods", happy, "-o", tt.output)
			if code != ExitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout, stderr, ExitUsage, tt.want)
			}
		})
	}
}

// The keys a template cannot print are dropped as flows are read; what it
// prints must be what it prints on the whole document.
func TestTemplateKeysDropNothingPrinted(t *testing.T) {
	stdout, stderr, code := runPodflow(t, false, "get", "pods", corpus+"v1.36.3/", "-o", "json")
	if code != 0 {
		t.Fatalf("get pods -o json: exit %d: %s", code, stderr)
	}
	var fl timeline.FlowList
	if err := json.Unmarshal([]byte(stdout), &fl); err != nil {
		t.Fatal(err)
	}
	head := fl
	head.Items = nil
	items := each(fl.Items)
	for _, output := range []string{
		"jsonpath={.items[0].pod}",
		"jsonpath={.items[0].containers[0]}",
		"jsonpath={.apiVersion} {range .items[*]}{.pod.name} {.stages[1].evidence}{\"\\n\"}{end}",
		`jsonpath={.items[?(@.verdict=="Stalled")].stages[?(@.status=="stalled")]}`,
		`jsonpath={range .items[*]}{range .containers[*]}{.name}={.stages}{"\n"}{end}{end}`,
		"jsonpath={.items[0].stages[*]['id','status']}",
		`jsonpath={.items[?(@.pod.name=="web-7d9f8c6b5-x2kqp")].stages[?(@.evidence[0].line>700)].id}`,
		"jsonpath={.items[0].containers[?(@.ready)]}",
		"jsonpath={.items[0].stages[0].evidence[0]} {.}",
		"jsonpath={.items[0]}",
		"jsonpath={@}",
		"jsonpath={.items[1:3]}",
		"jsonpath={.items[2].stages[0:2]}",
		"custom-columns=POD:.pod,C:.containers[*].stages[0],E:.startup.evidence",
		"custom-columns=ALL:{@}",
		"custom-columns=S:.stages[0],N:.pod.name",
	} {
		tmpl, ok, err := parseTemplateOutput(output)
		if !ok || err != nil {
			t.Fatalf("%s: ok %v, %v", output, ok, err)
		}
		var pruned, whole bytes.Buffer
		if err := tmpl.print(&pruned, &head, items, false); err != nil {
			t.Fatalf("%s: %v", output, err)
		}
		// (A JSONPath with a range cannot run twice: client-go's
		// FindResults cuts the parsed template as it ranges.)
		tmpl, _, _ = parseTemplateOutput(output)
		if err := (&templateOutput{tmpl.t.Unpruned()}).print(&whole, &head, items, false); err != nil {
			t.Fatalf("%s: %v", output, err)
		}
		if pruned.String() != whole.String() {
			t.Errorf("%s: prints\n%.600s\nwith keys dropped, but\n%.600s\non the whole document", output, pruned.String(), whole.String())
		}
		if whole.Len() < 10 {
			t.Errorf("%s prints %q: the case tests nothing", output, whole.String())
		}
	}
}

// A template that prints only what a table row holds runs on flows judged
// for rows; it must print what it prints on fully judged flows, and one
// that prints more must not run on rows.
func TestTemplateRowsMatchFull(t *testing.T) {
	ioS := &IO{Out: io.Discard, ErrOut: io.Discard}
	paths := []string{corpus + "v1.36.3/", corpus + "v1.28.15/", corpus + "v1.33.13/"}
	full, err := Analyze(ioS, paths, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := Analyze(ioS, paths, LoadOptions{rows: true})
	if err != nil {
		t.Fatal(err)
	}
	run := func(output string, fl *timeline.FlowList) string {
		tmpl, ok, err := parseTemplateOutput(output)
		if !ok || err != nil {
			t.Fatalf("%s: ok %v, %v", output, ok, err)
		}
		head := *fl
		head.Items = nil
		var b bytes.Buffer
		if err := tmpl.print(&b, &head, each(fl.Items), false); err != nil {
			t.Fatalf("%s: %v", output, err)
		}
		return b.String()
	}
	for _, tt := range []struct {
		output   string
		rowsOnly bool
	}{
		{`jsonpath={.apiVersion} {.kind}{range .items[*]}{.pod.namespace}/{.pod.name} {.pod.uid} {.node} {.source} {.static} {.mirrorUID} {.incarnation} {.verdict} {.stage} {.stalledAt} {.container} {.containerStage} {.reason} {.waited} {.start} {.end} {.duration}{"\n"}{end}`, true},
		{`jsonpath={range .items[*]}{.pod}{range .containers[*]} {.name}:{.type}:{.restarts}{end}{"\n"}{end}`, true},
		{`jsonpath={.items[?(@.verdict=="Stalled")].pod.name}`, true},
		{"custom-columns=POD:.pod.name,NODE:.node,VERDICT:.verdict,AT:.stalledAt,C:.container,CS:.containerStage,WAITED:.waited,RESTARTS:.containers[*].restarts", true},
		{"custom-columns=POD:.pod.name,REASON:.reason", true},
		{"custom-columns=REASON:.reason,RESTARTS:.containers[*].restarts", false}, // a container's reason is not kept: which one is meant is not known
		{"custom-columns=POD:.pod.name,REASONS:.containers[*].reason", false},
		{"custom-columns=POD:.pod.name,C:.containers", false},
		{"custom-columns=POD:.pod.name,S:.stages[*].id", false},
		{"custom-columns=POD:.pod.name,D:.diagnosis", false},
		{"custom-columns=POD:.pod.name,E2E:.startup.kubeletE2E", false},
		{"jsonpath={.items[0]}", false},
		{"jsonpath={.items[*].containers[0].image}", false},
		{"jsonpath={.summary}", false},
		{"jsonpath={@}", false},
	} {
		tmpl, _, _ := parseTemplateOutput(tt.output)
		if got := tmpl.rowsOnly(); got != tt.rowsOnly {
			t.Errorf("%s: rowsOnly %v, want %v", tt.output, got, tt.rowsOnly)
		}
		if !tt.rowsOnly {
			continue
		}
		want := run(tt.output, full.Flows)
		if got := run(tt.output, rows.Flows); got != want {
			t.Errorf("%s on rows prints\n%.800s\nbut on full flows\n%.800s", tt.output, got, want)
		}
		if strings.Count(want, "\n") < 3 && len(want) < 100 {
			t.Errorf("%s prints %q: the case tests nothing", tt.output, want)
		}
	}
}

// get nodes prints a NodeList, as get pods a FlowList; a key no node holds
// fails.
func TestGetNodesList(t *testing.T) {
	happy := corpus + "v1.36.3/01-happy-path.log"
	out, errOut, code := runPodflow(t, false, "get", "nodes", "-o", "json", happy)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var list NodeList
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	if list.APIVersion != "podflow/v1" || list.Kind != "NodeList" || len(list.Items) != 1 || list.Items[0].Name != "kb-node-happy" {
		t.Errorf("get nodes -o json = %+v", list)
	}
	out, _, _ = runPodflow(t, false, "get", "nodes", "-o", "yaml", happy)
	if !strings.HasPrefix(out, "apiVersion: podflow/v1\nkind: NodeList\nitems:\n  - name: kb-node-happy\n") {
		t.Errorf("get nodes -o yaml:\n%s", out)
	}
	out, _, code = runPodflow(t, false, "get", "nodes", "-o", "wide", happy)
	if code != 0 || !strings.Contains(out, "START                      END                        FINDINGS") ||
		!strings.Contains(out, "2026-11-22T06:03:19.519Z   2026-11-22T06:04:06.964Z   -") { // start-up sync skips are no finding
		t.Errorf("get nodes -o wide: exit %d\n%s", code, out)
	}
	out, _, code = runPodflow(t, false, "get", "nodes", "-o", "jsonpath={.items[*].pods.Running}", happy)
	if code != 0 || out != "1" {
		t.Errorf("a verdict's key: exit %d, %q", code, out)
	}
	_, errOut, code = runPodflow(t, false, "get", "nodes", "-o", "jsonpath={.items[*].nmae}", happy)
	if code != ExitUsage || !strings.Contains(errOut, "nmae is not found (no nmae key in any NodeList)") {
		t.Errorf("mistyped key: exit %d, %s", code, errOut)
	}
}
