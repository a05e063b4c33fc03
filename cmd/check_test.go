package cmd

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/internal/check"
	"github.com/podflow/podflow/timeline"
)

const checkCorpus = "../testdata/corpus/v1.36.3/"

// runCheck runs `podflow check args…` through the real command.
func runCheck(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ioS, _, out, errOut := NewTestIO(false)
	ioS.InTTY = true
	if env != nil {
		ioS.Getenv = func(k string) string { return env[k] }
	}
	code = Main(ioS, append([]string{"podflow", "check"}, args...))
	return code, out.String(), errOut.String()
}

func TestNewCmdCheck(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "podflow-check.yaml")
	os.WriteFile(cfg, []byte("failOn: [Stalled]\nmaxStartup: 20s\nbudgets: {sandbox: 5s, image: 60s}\nslo: {p99: 5s}\nignore: ['^kube-system/']\n"), 0o644)
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("maxStartpu: 20s\n"), 0o644)
	tests := []struct {
		name     string
		args     []string
		wantCode int
		check    func(t *testing.T, o *CheckOptions)
	}{
		{"defaults", []string{"x.log"}, 0, func(t *testing.T, o *CheckOptions) {
			if len(o.rules.FailOrder) != 3 || o.rules.MaxStartup != 0 || len(o.outs) != 1 || o.outs[0].Format != "text" {
				t.Errorf("rules %+v outs %+v", o.rules, o.outs)
			}
		}},
		{"config", []string{"--config", cfg, "x.log"}, 0, func(t *testing.T, o *CheckOptions) {
			if o.rules.MaxStartup != 20*time.Second || o.rules.Budgets["sandbox"] != 5*time.Second || len(o.rules.SLO) != 1 || len(o.rules.Ignore) != 1 || len(o.rules.FailOrder) != 1 {
				t.Errorf("rules %+v", o.rules)
			}
		}},
		{"flags override config", []string{"--config", cfg, "--max-startup", "1m", "--budget", "sandbox=1s", "--fail-on", "Failed,Incomplete", "x.log"}, 0, func(t *testing.T, o *CheckOptions) {
			if o.rules.MaxStartup != time.Minute || o.rules.Budgets["sandbox"] != time.Second || o.rules.Budgets["image"] != time.Minute || len(o.rules.FailOrder) != 2 {
				t.Errorf("rules %+v", o.rules)
			}
		}},
		{"outputs", []string{"-o", "github", "-o", "junit=x.xml", "x.log"}, 0, func(t *testing.T, o *CheckOptions) {
			if len(o.outs) != 2 || o.outs[1].Path != "x.xml" {
				t.Errorf("outs %+v", o.outs)
			}
		}},
		{"two to stdout", []string{"-o", "github", "-o", "junit", "x.log"}, ExitUsage, nil},
		{"unknown format", []string{"-o", "yaml", "x.log"}, ExitUsage, nil},
		{"bad verdict", []string{"--fail-on", "Broken", "x.log"}, ExitUsage, nil},
		{"bad slo", []string{"--slo", "q99=5s", "x.log"}, ExitUsage, nil},
		{"bad regex", []string{"--ignore", "(", "x.log"}, ExitUsage, nil},
		{"unknown budget stage", []string{"--budget", "nope=1s", "x.log"}, ExitUsage, nil},
		{"config typo", []string{"--config", bad, "x.log"}, ExitUsage, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ioS, _, _, _ := NewTestIO(false)
			var got *CheckOptions
			c := NewCmdCheck(ioS, func(o *CheckOptions) error { got = o; return nil })
			c.SetArgs(tt.args)
			c.SetOut(&bytes.Buffer{})
			c.SetErr(&bytes.Buffer{})
			err := c.Execute()
			if code := exitCodeOrZero(err); code != tt.wantCode {
				t.Fatalf("exit %d, want %d (%v)", code, tt.wantCode, err)
			}
			if tt.check != nil {
				tt.check(t, got)
			}
		})
	}
}

func exitCodeOrZero(err error) int {
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return ExitUsage
}

func TestCheckRun(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string // substrings of stdout (text output)
		wantErr  string   // substring of stderr
	}{
		{"01 happy path passes", []string{checkCorpus + "01-happy-path.log"}, 0, []string{"PASS  1 pod", "PASS    fail-on"}, ""},
		{"07 twenty pods pass", []string{checkCorpus + "07-twenty-pods.log", "--max-startup", "30s", "--budget", "sandbox=5s", "--slo", "p99=10s"}, 0,
			[]string{"PASS  20 pods, 4 rules", "p99 startup (image pulls excluded)", "within 10s"}, ""},
		{"02 image pull stalls", []string{checkCorpus + "02-image-pull-failure.log"}, 1,
			[]string{"default/api-6f5b9d7c4-pl8wz  Stalled", "Stalled at containers (container api, image)", "Failed to pull image", "02-image-pull-failure.log:2816 Container start failed in pod: ImagePullBackOff"}, ""},
		{"10 init crash loop", []string{checkCorpus + "10-init-container-crashloop.log"}, 1,
			[]string{"web-initfail-6d5c7-b8x4w  Stalled", "Stalled at init-containers (container init-config", "Back-off restarting failed container init-config"}, ""},
		{"12 start failure", []string{checkCorpus + "12-container-start-failure.log"}, 1,
			[]string{"shop-api-84d7f9c6d-t5n2j  Stalled", "RunContainerError", "no such file or directory"}, ""},
		{"02 passes when Stalled is not a failure", []string{checkCorpus + "02-image-pull-failure.log", "--fail-on", "Failed"}, 0, []string{"PASS"}, ""},
		{"max-startup broken", []string{checkCorpus + "01-happy-path.log", "--max-startup", "5s"}, 1,
			[]string{"[max-startup 5s] started in 8.26s, over the 5s maximum", "01-happy-path.log:1324 Observed pod startup duration"}, ""},
		{"max-startup kept", []string{checkCorpus + "01-happy-path.log", "--max-startup", "9s"}, 0, []string{"every pod started within 9s"}, ""},
		{"max-startup on a pod that never ran", []string{checkCorpus + "02-image-pull-failure.log", "--fail-on", "none", "--max-startup", "30s"}, 1, []string{"not running after"}, ""},
		{"budget broken", []string{checkCorpus + "01-happy-path.log", "--budget", "sandbox=100ms"}, 1,
			[]string{"[budget sandbox=100ms] stage sandbox took 416ms, over its 100ms budget", "01-happy-path.log:803 Created PodSandbox for pod"}, ""},
		{"container budget broken", []string{checkCorpus + "01-happy-path.log", "--budget", "image=1s"}, 1,
			[]string{"container init-config stage image took 1.22s", "container nginx stage image"}, ""},
		{"budget kept", []string{checkCorpus + "01-happy-path.log", "--budget", "sandbox=1s", "--budget", "image=5s"}, 0, []string{"stage sandbox stayed within 1s"}, ""},
		// The kubelet's own podStartSLOduration on 07's 19 startup lines:
		// p50 5.445s, p90 6.116s, max 6.531s; podflow's figures agree
		// within 150 ms (timeline.TestPodflowSLOAgainstKubelet).
		{"slo broken", []string{checkCorpus + "07-twenty-pods.log", "--slo", "p99=5s"}, 1, []string{"FAIL    slo p99=5s: p99 startup (image pulls excluded) is 6.52s over 20 pods"}, ""},
		{"slo p50", []string{checkCorpus + "07-twenty-pods.log", "--slo", "p50=5.5s", "--slo", "p90=6.5s"}, 0, []string{"PASS    slo p50=5.5s", "PASS    slo p90=6.5s"}, ""},
		{"ignore known noise", []string{checkCorpus + "02-image-pull-failure.log", "--ignore", "^default/api-"}, 3, []string{"Ignored: default/api-6f5b9d7c4-pl8wz"}, "nothing to judge: no pods left to judge: 1 of 1 matched --ignore"},
		{"ignore one of several inputs", []string{checkCorpus + "01-happy-path.log", checkCorpus + "12-container-start-failure.log", "--ignore", "shop-api"}, 0, []string{"PASS  1 pod"}, ""},
		{"pod selector", []string{checkCorpus + "07-twenty-pods.log", "--pod", "^batch-worker-6c8d5f0[1-3]-"}, 0, []string{"PASS  3 pods"}, ""},
		{"namespace selector matches nothing", []string{checkCorpus + "01-happy-path.log", "-n", "prod"}, 3, nil, "no pods match --pod/-n"},
		{"hidden stage at -v=2", []string{checkCorpus + "09-happy-path-v2.log", "--budget", "volumes=1s"}, 3,
			[]string{"UNKNOWN budget volumes=1s"}, "hides stage volumes for 1 pod; run the kubelet with -v=3 or higher"},
		{"hidden container stage at -v=2", []string{checkCorpus + "09-happy-path-v2.log", "--budget", "image=1s"}, 3, nil, "run the kubelet with -v=3 or higher"},
		{"broken rule beats hidden stage", []string{checkCorpus + "09-happy-path-v2.log", "--budget", "volumes=1s", "--max-startup", "1s"}, 1, nil, ""},
		{"slo at -v=2 uses the kubelet's figure", []string{checkCorpus + "09-happy-path-v2.log", "--slo", "p99=5s"}, 0, []string{"is 1.81s over 1 pod"}, ""},
		{"unreadable input", []string{"/nonexistent/kubelet.log"}, 2, nil, "podflow:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCheck(t, nil, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tt.wantCode, out, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if tt.wantErr != "" && !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantErr, errOut)
			}
		})
	}
}

func TestCheckJSONAndBaseline(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "base.json")
	code, _, errOut := runCheck(t, nil, checkCorpus+"07-twenty-pods.log", "-o", "json="+base)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		timeline.FlowList
		Result string             `json:"result"`
		Rules  []check.RuleResult `json:"rules"`
		Pods   []check.PodResult  `json:"pods"`
	}
	b, _ := os.ReadFile(base)
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Kind != "FlowList" || len(res.Items) != 20 || res.Result != "pass" || len(res.Rules) != 1 || res.Rules[0].Rule != "fail-on" || len(res.Pods) != 20 {
		t.Fatalf("json: kind %q items %d result %q rules %+v", res.Kind, len(res.Items), res.Result, res.Rules)
	}
	// Same run: no regression.
	code, out, _ := runCheck(t, nil, checkCorpus+"07-twenty-pods.log", "--baseline", base)
	if code != 0 || !strings.Contains(out, "Stage latency vs baseline:") || !strings.Contains(out, "PASS    regression 20%") {
		t.Fatalf("same baseline: exit %d\n%s", code, out)
	}
	// A faster baseline: every stage took half as long, so this run regressed.
	var fl map[string]any
	json.Unmarshal(b, &fl)
	var halve func(v any)
	halve = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if d, ok := x["duration"].(string); ok {
				if dd, err := time.ParseDuration(d); err == nil {
					x["duration"] = (dd / 2).String()
				}
			}
			for _, e := range x {
				halve(e)
			}
		case []any:
			for _, e := range x {
				halve(e)
			}
		}
	}
	halve(fl["items"])
	fast := filepath.Join(dir, "fast.json")
	nb, _ := json.Marshal(fl)
	os.WriteFile(fast, nb, 0o644)
	code, out, _ = runCheck(t, nil, checkCorpus+"07-twenty-pods.log", "--baseline", fast, "--regression", "20%")
	if code != 1 || !strings.Contains(out, "FAIL    regression 20%") || !strings.Contains(out, "REGRESSION") || !strings.Contains(out, "+100%") {
		t.Fatalf("regression: exit %d\n%s", code, out)
	}
	// A generous threshold passes.
	if code, out, _ = runCheck(t, nil, checkCorpus+"07-twenty-pods.log", "--baseline", fast, "--regression", "150%"); code != 0 {
		t.Fatalf("150%%: exit %d\n%s", code, out)
	}
	if code, _, _ = runCheck(t, nil, checkCorpus+"01-happy-path.log", "--baseline", filepath.Join(dir, "missing.json")); code != 2 {
		t.Fatalf("missing baseline: exit %d", code)
	}
}

// stats -o json is a baseline too: its p50/p90 per stage are compared
// as they are.
func TestCheckBaselineFromStats(t *testing.T) {
	dir := t.TempDir()
	log := checkCorpus + "07-twenty-pods.log"
	out, errOut, code := runPodflow(t, false, "stats", "-o", "json", log)
	if code != 0 {
		t.Fatalf("stats: exit %d: %s", code, errOut)
	}
	same := filepath.Join(dir, "stats.json")
	if err := os.WriteFile(same, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, text, _ := runCheck(t, nil, log, "--baseline", same)
	if code != 0 || !strings.Contains(text, "PASS    regression 20%") {
		t.Fatalf("same stats baseline: exit %d\n%s", code, text)
	}
	// Every stage's p50 and p90 halved: this run regressed.
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, st := range doc["stages"].([]any) {
		m := st.(map[string]any)
		for _, k := range []string{"p50", "p90"} {
			d, err := time.ParseDuration(m[k].(string))
			if err != nil {
				t.Fatal(err)
			}
			m[k] = (d / 2).String()
		}
	}
	fast := filepath.Join(dir, "fast-stats.json")
	b, _ := json.Marshal(doc)
	if err := os.WriteFile(fast, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, text, _ = runCheck(t, nil, log, "--baseline", fast)
	if code != 1 || !strings.Contains(text, "FAIL    regression 20%") || !strings.Contains(text, "+100%") {
		t.Fatalf("halved stats baseline: exit %d\n%s", code, text)
	}
	// Neither a FlowList nor stats: refused, naming both.
	other := filepath.Join(dir, "other.json")
	os.WriteFile(other, []byte(`{"kind":"Pod"}`), 0o644)
	code, _, errText := runCheck(t, nil, log, "--baseline", other)
	if code != 2 || !strings.Contains(errText, "podflow stats") {
		t.Fatalf("other JSON: exit %d: %s", code, errText)
	}
}

func TestCheckJUnit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "podflow.xml")
	code, _, errOut := runCheck(t, nil, checkCorpus+"01-happy-path.log", checkCorpus+"12-container-start-failure.log", "--max-startup", "30s", "-o", "junit="+p)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(p)
	var suites check.JUnitSuites
	if err := xml.Unmarshal(b, &suites); err != nil {
		t.Fatalf("junit does not parse: %v\n%s", err, b)
	}
	if len(suites.Suites) != 2 || suites.Suites[0].Tests != 2 || suites.Suites[0].Failures != 1 {
		t.Fatalf("suites: %+v", suites)
	}
	var pass, fail *check.JUnitCase
	for i, c := range suites.Suites[0].Cases {
		if c.Failure != nil {
			fail = &suites.Suites[0].Cases[i]
		} else {
			pass = &suites.Suites[0].Cases[i]
		}
	}
	if pass == nil || pass.Name != "default/web-7d9f8c6b5-x2kqp" || pass.Time != "8.259" {
		t.Errorf("passing case: %+v", pass)
	}
	if fail == nil || fail.Name != "default/shop-api-84d7f9c6d-t5n2j" || fail.Failure.Type != "Stalled" ||
		!strings.Contains(fail.Failure.Message, "RunContainerError") ||
		!strings.Contains(fail.Failure.Text, "12-container-start-failure.log:801 Unhandled Error: container api start failed in pod") {
		t.Errorf("failing case: %+v", fail)
	}

}

func TestCheckGitHub(t *testing.T) {
	// At most ten annotations, worst first, and the step summary.
	dir := t.TempDir()
	sum := filepath.Join(dir, "summary.md")
	os.WriteFile(sum, []byte("earlier step\n"), 0o644)
	code, out, _ := runCheck(t, map[string]string{"GITHUB_STEP_SUMMARY": sum}, checkCorpus+"07-twenty-pods.log", checkCorpus+"02-image-pull-failure.log", "--max-startup", "1s", "-o", "github")
	if code != 1 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 10 || !strings.HasPrefix(lines[0], "::error file=") || !strings.Contains(lines[0], "api-6f5b9d7c4-pl8wz Stalled") || !strings.Contains(lines[9], "more annotations not shown") {
		t.Errorf("annotations:\n%s", out)
	}
	md, _ := os.ReadFile(sum)
	if !strings.HasPrefix(string(md), "earlier step\n### podflow check: ❌ fail") || !strings.Contains(string(md), "| Pod | Verdict | Startup | Result |") {
		t.Errorf("step summary:\n%s", md)
	}
}

// TestCheckPointsAtCause: every output says why a pod broke a rule and
// points at the line that shows the cause (the ConfigMap error, the
// sandbox or BackOff failure), not at the line that measured the startup.
func TestCheckPointsAtCause(t *testing.T) {
	tests := []struct {
		name string
		log  string
		args []string
		line string // input:line of the cause
		why  string // in the message
	}{
		{"configmap missing", "11-volume-mount-failure.log", []string{"--max-startup", "20s"}, "11-volume-mount-failure.log:761", `stage volumes failed 9 times: MountVolume.SetUp failed for volume "config" : configmap "web-config-v3" not found`},
		{"sandbox retried", "04-sandbox-failure.log", []string{"--max-startup", "20s"}, "04-sandbox-failure.log:769", "stage sandbox failed 4 times: Failed to create pod sandbox"},
		{"create error", "13-container-create-error.log", []string{"--max-startup", "20s"}, "13-container-create-error.log:797", "container cache stage created failed 3 times: CreateContainerError"},
		{"slow pull", "03-slow-image-pull.log", []string{"--max-startup", "20s"}, "03-slow-image-pull.log:1649", "the slowest was container nginx stage image (20s)"},
		{"crash loop back-off", "05-crashloop-backoff.log", nil, "05-crashloop-backoff.log:1466", "Back-off restarting failed container worker"},
		{"image pull back-off", "02-image-pull-failure.log", nil, "02-image-pull-failure.log:804", "ImagePullBackOff: Failed to pull image"},
		{"budget", "04-sandbox-failure.log", []string{"--budget", "sandbox=5s"}, "04-sandbox-failure.log:769", "stage sandbox took"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := checkCorpus + tt.log
			dir := t.TempDir()
			sum := filepath.Join(dir, "summary.md")
			xmlPath := filepath.Join(dir, "podflow.xml")
			args := append([]string{in, "-o", "github", "-o", "junit=" + xmlPath, "-o", "text=" + filepath.Join(dir, "out.txt")}, tt.args...)
			code, out, errOut := runCheck(t, map[string]string{"GITHUB_STEP_SUMMARY": sum}, args...)
			if code != ExitRule {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			cause := checkCorpus + tt.line // input:line as every output names it
			file, line, _ := strings.Cut(cause, ":")
			first := strings.SplitN(out, "\n", 2)[0]
			if !strings.HasPrefix(first, "::error file="+file+",line="+line+",") || !strings.Contains(first, ghEscape(tt.why)) {
				t.Errorf("annotation does not point at %s or say %q:\n%s", tt.line, tt.why, first)
			}
			x, _ := os.ReadFile(xmlPath)
			var suites check.JUnitSuites
			if err := xml.Unmarshal(x, &suites); err != nil {
				t.Fatal(err)
			}
			f := suites.Suites[0].Cases[0].Failure
			if f == nil || !strings.Contains(f.Text, "cause: "+cause+" ") || !strings.Contains(f.Text, tt.why) {
				t.Errorf("junit failure does not give the cause %s and %q:\n%+v", tt.line, tt.why, f)
			}
			md, _ := os.ReadFile(sum)
			if !strings.Contains(string(md), "<br>"+cause+" ") {
				t.Errorf("step summary does not show the cause %s:\n%s", tt.line, md)
			}
			txt, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
			if !strings.Contains(string(txt), "cause: "+cause+" ") {
				t.Errorf("text does not show the cause %s:\n%s", tt.line, txt)
			}
		})
	}
}

// ghEscape escapes a message as a workflow command's data.
func ghEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// TestCheckJUnitTimeIsTheAnalysis: the suites' time is how long the
// analysis took (a clock that moves a minute at each reading), not the sum
// of the pods' startups (the 20 pods of 07-twenty-pods overlap: their sum is
// not a duration of anything).
func TestCheckJUnitTimeIsTheAnalysis(t *testing.T) {
	p := filepath.Join(t.TempDir(), "podflow.xml")
	ioS, _, _, errOut := NewTestIO(false)
	ioS.InTTY = true
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	ioS.Now = func() time.Time { now = now.Add(time.Minute); return now }
	if code := Main(ioS, []string{"podflow", "check", checkCorpus + "07-twenty-pods.log", "-o", "junit=" + p}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, _ := os.ReadFile(p)
	var suites check.JUnitSuites
	if err := xml.Unmarshal(b, &suites); err != nil {
		t.Fatal(err)
	}
	var sum float64
	for _, c := range suites.Suites[0].Cases {
		v, _ := strconv.ParseFloat(c.Time, 64)
		sum += v
	}
	total, _ := strconv.ParseFloat(suites.Time, 64)
	if total < 60 || math.Mod(total, 60) != 0 || suites.Suites[0].Time != suites.Time || suites.Suites[1].Time != "0.000" {
		t.Errorf("suite times %s (pods %s, rules %s): want the analysis's whole minutes (the sum of startups is %.3f)",
			suites.Time, suites.Suites[0].Time, suites.Suites[1].Time, sum)
	}
}
