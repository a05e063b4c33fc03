package cmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podflow/podflow/timeline"
)

func TestStats(t *testing.T) {
	out, errOut, code := runPodflow(t, false, "stats", "-o", "json", "--over-time", "--bucket", "1s", corpus+"v1.36.3/07-twenty-pods.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res StatsResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Pods != 20 {
		t.Errorf("pods %d", res.Pods)
	}
	got := map[string]StageStat{}
	for _, s := range res.Stages {
		got[s.Stage] = s
		if !(s.P50 <= s.P90 && s.P90 <= s.P99 && s.P99 <= s.Max) {
			t.Errorf("%s: percentiles out of order %+v", s.Stage, s)
		}
	}
	if got["sandbox"].Count != 20 || got["image"].Count != 60 || got["image"].Scope != "container" {
		t.Errorf("sandbox %+v image %+v", got["sandbox"], got["image"])
	}
	if len(res.OverTime) == 0 || time0(res.Bucket) != "1s" {
		t.Fatalf("over time: bucket %s, %d buckets", res.Bucket, len(res.OverTime))
	}
	peak := 0
	for _, b := range res.OverTime {
		peak = max(peak, b.InFlight)
	}
	if peak != 20 {
		t.Errorf("peak in flight %d, want 20", peak)
	}
	// A pod waiting between two stages is still in flight: once all 20
	// have begun (06:25:29) none leaves before the last second.
	for _, b := range res.OverTime[3 : len(res.OverTime)-1] {
		if b.InFlight != 20 {
			t.Errorf("%s: %d in flight, want 20", b.Start.Format("15:04:05"), b.InFlight)
		}
	}

	text, _, _ := runPodflow(t, false, "stats", corpus+"v1.36.3/04-sandbox-failure.log")
	if got := cell(t, text, "sandbox ", "MAX"); got != "59.4s" {
		t.Errorf("sandbox max %q:\n%s", got, text)
	}
}

func time0(d timeline.Duration) string { return d.String() }

func TestPipelineAndNodes(t *testing.T) {
	out, _, code := runPodflow(t, false, "pipeline", "-o", "json")
	if code != 0 {
		t.Fatal(code)
	}
	var p timeline.Pipeline
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Stages) != len(timeline.Reference.Stages) || len(p.Markers) != len(timeline.Reference.Markers) {
		t.Errorf("%d stages %d markers", len(p.Stages), len(p.Markers))
	}
	text, _, _ := runPodflow(t, false, "pipeline")
	stages := strings.SplitN(text, "\n", 2)[1]
	if cell(t, stages, "sandbox ", "BUDGET") != "30s" || !strings.Contains(text, `msg "Created PodSandbox for pod"`) {
		t.Errorf("pipeline text:\n%s", text)
	}

	nodes, errOut, code := runPodflow(t, false, "get", "nodes", corpus+"v1.36.3/02-image-pull-failure.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if cell(t, nodes, "kb-node-pullfail", "KUBELET") != "v1.36.3" || !strings.Contains(nodes, "1 Stalled") {
		t.Errorf("nodes:\n%s", nodes)
	}
}

func TestCompletionAndHelp(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		out, errOut, code := runPodflow(t, false, "completion", sh)
		if code != 0 || !strings.Contains(out, "podflow") {
			t.Errorf("completion %s: exit %d %s", sh, code, errOut)
		}
	}
	out, _, _ := runPodflow(t, false, "__complete", "get", "pods", "--sort-by", "")
	if !strings.Contains(out, "duration") || !strings.Contains(out, "waited") {
		t.Errorf("--sort-by completion: %q", out)
	}
	// A template format is completed without a space: its template follows.
	for _, tt := range []struct{ cmd, typed, want string }{
		{"pods", "jsonp", "jsonpath=\njsonpath-file=\n:6\n"},
		{"nodes", "custom", "custom-columns=\ncustom-columns-file=\n:6\n"},
		{"pods", "j", "json\njsonpath=\njsonpath-file=\n:4\n"},
		{"pods", "w", "wide\n:4\n"},
	} {
		out, _, _ := runPodflow(t, false, "__complete", "get", tt.cmd, "-o", tt.typed)
		if out != tt.want {
			t.Errorf("get %s -o %s<TAB>: %q, want %q", tt.cmd, tt.typed, out, tt.want)
		}
	}
	for _, c := range [][]string{{"get", "pods"}, {"get", "nodes"}, {"describe", "pod"}, {"lines", "pod"}, {"stats"}, {"trace"}, {"pipeline"}} {
		out, _, code := runPodflow(t, false, append(c, "--help")...)
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "podflow "+c[0]) {
			t.Errorf("%v --help: exit %d", c, code)
		}
	}
}

// TestStatsNoZeroStages: a stage no pod spent any time in (observed:
// markers of one instant) is not a row of 0s on any corpus version.
func TestStatsNoZeroStages(t *testing.T) {
	dirs, _ := filepath.Glob(corpus + "v*")
	if len(dirs) < 5 {
		t.Fatalf("corpus: %v", dirs)
	}
	for _, dir := range dirs {
		ioS, _, out, errOut := NewTestIO(false)
		if code := Main(ioS, []string{"podflow", "stats", dir}); code != 0 {
			t.Fatalf("%s: exit %d: %s", dir, code, errOut)
		}
		rows := strings.Split(strings.TrimSpace(out.String()), "\n")
		if len(rows) < 4 {
			t.Fatalf("%s: %d rows", dir, len(rows))
		}
		for _, r := range rows[1:] {
			f := strings.Fields(r)
			if len(f) >= 7 && f[6] == "0s" {
				t.Errorf("%s: a stage always 0s: %q", dir, r)
			}
		}
	}
}
