package cmd

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCausesViews: the failed pods of the corpus grouped by cause in
// every view that shows them — stats --by cause (text and JSON), get pods
// on a terminal (not in a pipe), check's summary and the report's first
// table — with the same count: 8 failed pods of 44, 5 causes (two image
// pull wordings, the start error, the init and the main crash loop) in
// the hand-made corpus the counts were written for (the harness-made
// versions add pods of their own).
func TestCausesViews(t *testing.T) {
	// (v1.33.13's four hand-made files; the harness made the rest of it.)
	dirs := []string{corpus + "v1.28.15", corpus + "v1.36.3"}
	for _, f := range []string{"01-happy-path", "02-image-pull-failure", "04-sandbox-failure", "06-pod-deletion-api"} {
		dirs = append(dirs, corpus+"v1.33.13/"+f+".log")
	}
	run := func(tty bool, args ...string) (string, int) {
		t.Helper()
		ioS, _, out, errOut := NewTestIO(tty)
		ioS.Width = 160
		code := Main(ioS, append([]string{"podflow"}, args...))
		if code != 0 && code != 1 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		return out.String(), code
	}
	// The verdicts of the pods in trouble, as get pods gives them: the
	// title counts them in the same words.
	js0, _ := run(false, append([]string{"get", "pods", "-o", "json", "--verdict", "Failed,Stalled,Rejected"}, dirs...)...)
	var listed struct{ Items []struct{ Verdict string } }
	if err := json.Unmarshal([]byte(js0), &listed); err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, it := range listed.Items {
		count[it.Verdict]++
	}
	var parts []string
	for _, v := range []string{"Failed", "Stalled", "Rejected"} {
		if count[v] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", count[v], v))
		}
	}
	head := "PODS IN TROUBLE BY CAUSE (8 of 44 pods: " + strings.Join(parts, ", ") + "; 5 causes)"
	if len(listed.Items) != 8 {
		t.Errorf("get pods lists %d pods in trouble, want 8", len(listed.Items))
	}
	out, _ := run(false, append([]string{"stats", "--by", "cause"}, dirs...)...)
	if !strings.HasPrefix(out, head+"\n") || strings.Count(out, "\n") != 7 {
		t.Errorf("stats --by cause:\n%s", out)
	}
	for _, want := range []string{"containers/*:image", "running/*:started", "init-containers/*:completed", "Back-off restarting failed container * in pod *(*) (last exit code N)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats --by cause lacks %q:\n%s", want, out)
		}
	}
	js, _ := run(false, append([]string{"stats", "--by", "cause", "-o", "json"}, dirs...)...)
	var res StatsResult
	if err := json.Unmarshal([]byte(js), &res); err != nil || res.Failed != 8 || len(res.Causes) != 5 || res.Causes[0].Pods != 2 {
		t.Errorf("stats --by cause -o json: %v %+v", err, res)
	}
	if out, _ := run(true, append([]string{"get", "pods", "--color", "never"}, dirs...)...); !strings.Contains(out, head) {
		t.Errorf("get pods on a terminal has no causes:\n%s", out)
	}
	if out, _ := run(false, append([]string{"get", "pods"}, dirs...)...); strings.Contains(out, "BY CAUSE") {
		t.Errorf("get pods in a pipe prints the causes:\n%s", out)
	}
	if out, code := run(false, append([]string{"check"}, dirs...)...); code != 1 || !strings.Contains(out, "by cause") || !strings.Contains(out, "      2  containers/*:image  ImagePullBackOff: ") {
		t.Errorf("check (exit %d) summary:\n%s", code, out)
	}
	html := filepath.Join(t.TempDir(), "r.html")
	run(false, append(append([]string{"report"}, dirs...), "-o", html)...)
	page, err := os.ReadFile(html)
	if err != nil {
		t.Fatal(err)
	}
	p := string(page)
	if c, a := strings.Index(p, `id="causes"`), strings.Index(p, `id="attention"`); c < 0 || a < c || strings.Count(p[c:a], `<tr class="h-failed">`) != 5 {
		t.Errorf("the report does not lead with the 5 causes (causes at %d, attention at %d)", c, a)
	}
}

// stats leaves out stages no pod spent time in (every figure 0s).
func TestStatsLeavesOutZeroStages(t *testing.T) {
	ioS, _, out, errOut := NewTestIO(false)
	if code := Main(ioS, []string{"podflow", "stats", corpus + "v1.36.3"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n")[1:] {
		f := strings.Fields(l)
		if len(f) > 6 && f[3] == "0s" && f[4] == "0s" && f[5] == "0s" && f[6] == "0s" {
			t.Errorf("a stage always 0s: %q", l)
		}
	}
	if !strings.Contains(out.String(), "sandbox") || strings.Contains(out.String(), "\nobserved ") {
		t.Errorf("stats:\n%s", out)
	}
}
