package cmd

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestDescribePod(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // substrings, each a regexp
	}{
		{
			name: "sandbox retried four times",
			args: []string{"payments-7b4d9c8f6-q9zrt", corpus + "v1.36.3/04-sandbox-failure.log"},
			want: []string{
				`(?m)^Verdict:\s+Running$`,
				`(?m)^  sandbox\s+\+318ms \(06:08:07\.051\)\s+59\.4s\s+done\s+█+\s+4 failed attempts: Failed to create pod sandbox`,
				// The log ends at 06:09:23.1; the four events are 06:08:07.5 to 06:08:52.5.
				`(?m)^  Warning\s+FailedCreatePodSandBox\s+30s \(x4 over 75s\)`,
				`(?m)^  E2E \(podStartE2EDuration\)\s+1m2s\s+1m2s$`,
				`04-sandbox-failure\.log:2365  I1122 06:09:06\.438992 28117 kuberuntime_manager\.go:1622\] "Created PodSandbox for pod"`,
			},
		},
		{
			name: "prefix match and image stall",
			args: []string{"api", corpus + "v1.36.3/02-image-pull-failure.log"},
			want: []string{
				`(?m)^Name:\s+api-6f5b9d7c4-pl8wz$`,
				`(?m)^Verdict:\s+Stalled$`,
				`(?m)^Stalled At:\s+containers/api:image$`,
				`(?m)^Waited:\s+1m21s$`,
				`(?m)^    State:\s+waiting \(ImagePullBackOff\)$`,
				`(?m)^      image\s+\+747ms \(06:05:36\.247\)\s+1m21s\s+stalled`,
			},
		},
		{
			name: "namespace/name form, v1.28",
			args: []string{"shop/shop-api-84d7f9c6d-t5n2j", corpus + "v1.28.15/12-container-start-failure.log"},
			want: []string{`(?m)^Namespace:\s+shop$`, `(?m)^    Restarts:\s+3`, `(?m)^Stalled At:\s+containers/api:started$`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runPodflow(t, false, append([]string{"describe", "pod"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tt.want {
				if !regexp.MustCompile(w).MatchString(out) {
					t.Errorf("output lacks %s:\n%s", w, out)
				}
			}
		})
	}
}

func TestDescribePodErrors(t *testing.T) {
	twenty := corpus + "v1.36.3/07-twenty-pods.log"
	_, errOut, code := runPodflow(t, false, "describe", "pod", "batch-worker-6c8d5f1", twenty)
	if code != 2 {
		t.Errorf("ambiguous: exit %d", code)
	}
	if !strings.Contains(errOut, "10 pods match") || !strings.Contains(errOut, "batch-worker-6c8d5f19-36f6c") || !strings.Contains(errOut, "--uid") {
		t.Errorf("ambiguous: stderr %s", errOut)
	}
	_, errOut, code = runPodflow(t, false, "describe", "pod", "nosuchpod", twenty)
	if code != 2 || !strings.Contains(errOut, "not found") || !strings.Contains(errOut, "07-twenty-pods.log") {
		t.Errorf("missing: exit %d: %s", code, errOut)
	}
	_, _, code = runPodflow(t, false, "describe", "pod")
	if code != 2 {
		t.Errorf("no name: exit %d", code)
	}
}

func TestDescribePodGolden(t *testing.T) {
	for _, tt := range []struct {
		name string
		tty  bool
		args []string
	}{
		{"describe_pod_sandbox", false, []string{"payments", corpus + "v1.36.3/04-sandbox-failure.log"}},
		{"describe_pod_initfail", false, []string{"web-initfail-6d5c7-b8x4w", corpus + "v1.36.3/10-init-container-crashloop.log"}},
		{"describe_pod_tty", true, []string{"api", corpus + "v1.36.3/02-image-pull-failure.log"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runPodflow(t, tt.tty, append([]string{"describe", "pod"}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			golden(t, tt.name, out)
		})
	}
}

// An ambiguous name gets a hint naming only what tells its pods apart.
func TestDescribePodAmbiguityHints(t *testing.T) {
	kind := "../testdata/formats/kind-logs/"
	twenty := corpus + "v1.36.3/07-twenty-pods.log"
	for _, tt := range []struct {
		name string
		args []string
		want string // stderr's last line
		code int
	}{
		{"same pod on two nodes", []string{"describe", "pod", "web-7d9f8c6b5-x2kqp", kind},
			`podflow: "web-7d9f8c6b5-x2kqp" is ambiguous: pick one with --node NODE`, ExitUsage},
		{"lines: files pick the node", []string{"lines", "pod", "web-7d9f8c6b5-x2kqp", kind},
			`podflow: "web-7d9f8c6b5-x2kqp" is ambiguous: pick one with only that node's files as inputs`, ExitUsage},
		{"prefix of several pods", []string{"describe", "pod", "batch-worker-6c8d5f1", twenty},
			`podflow: "batch-worker-6c8d5f1" is ambiguous: pick one with the full name or --uid UID`, ExitUsage},
		{"no such node", []string{"describe", "pod", "web-7d9f8c6b5-x2kqp", kind, "--node", "kind-nope"},
			`on node "kind-nope" not found`, ExitUsage},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, errOut, code := runPodflow(t, false, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, errOut, tt.code, tt.want)
			}
		})
	}
	out, errOut, code := runPodflow(t, false, "describe", "pod", "web-7d9f8c6b5-x2kqp", kind, "--node", "kind-worker")
	if code != 0 || !strings.Contains(out, "Node:         kind-worker") {
		t.Errorf("--node kind-worker: exit %d: %s\n%s", code, errOut, out)
	}
}

// TestDescribeStagesFit80 describes every pod of every corpus log on an
// 80-column terminal: no line of the stage tables (the pod's and each
// container's) is wider.
func TestDescribeStagesFit80(t *testing.T) {
	files, err := filepath.Glob(corpus + "v*/*.log")
	if err != nil || len(files) < 100 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	pods := 0
	for _, file := range files {
		ioS, _, out, errOut := NewTestIO(false)
		if code := Main(ioS, []string{"podflow", "get", "pods", file, "--no-headers", "-o", "custom-columns=NS:.pod.namespace,NAME:.pod.name,UID:.pod.uid"}); code != 0 {
			t.Fatalf("%s: get pods exit %d: %s", file, code, errOut)
		}
		for _, row := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			fields := strings.Fields(row)
			if len(fields) != 3 {
				continue
			}
			pods++
			ioS, _, out, errOut := NewTestIO(true)
			ioS.Width = 80
			args := []string{"podflow", "describe", "pod", fields[0] + "/" + fields[1], file, "--color", "never"}
			if fields[2] != "<none>" {
				args = append(args, "--uid", fields[2])
			}
			if code := Main(ioS, args); code != 0 {
				t.Errorf("%s %s: exit %d: %s", file, fields[1], code, errOut)
				continue
			}
			in := false
			for _, l := range strings.Split(out.String(), "\n") {
				switch {
				case strings.HasPrefix(l, "Stages:"):
					in = true
				case strings.HasPrefix(l, "Events:"):
					in = false
				}
				if in && textWidth(l) > 80 {
					t.Errorf("%s %s: %d columns: %q", file, fields[1], textWidth(l), l)
				}
			}
		}
	}
	if pods < 150 {
		t.Errorf("described %d pods, want every corpus pod (150+)", pods)
	}
}

// TestDescribeEventAges: event ages are kubectl's (time before the end of
// the log, never an offset from the pod's start, never negative), and
// every repeated event says (xN over AGE-OF-FIRST). Expected values read
// from the log by hand: it ends at 06:11:09.336; the container was
// created 5 times, first at 06:09:35.5, last at 06:11:06.7; the back-off
// event 3 times, 06:09:42.7 to 06:10:26.9.
func TestDescribeEventAges(t *testing.T) {
	ioS, _, out, errOut := NewTestIO(false)
	if code := Main(ioS, []string{"podflow", "describe", "pod", "worker-5d8f7b9c4-m2v6n", corpus + "v1.36.3/05-crashloop-backoff.log"}); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	_, events, ok := strings.Cut(out.String(), "\nEvents:\n")
	if !ok {
		t.Fatal("no Events section")
	}
	events, _, _ = strings.Cut(events, "\nStartup:")
	age := regexp.MustCompile(`^(\d+[smhdy])+$`)
	rows := 0
	for _, l := range strings.Split(events, "\n")[1:] {
		f := strings.Fields(l)
		if len(f) < 4 {
			continue
		}
		rows++
		if !age.MatchString(f[2]) {
			t.Errorf("age %q is not kubectl's: %q", f[2], l)
		}
		repeated := strings.Contains(l, "Container created") || strings.Contains(l, "Back-off restarting")
		if repeated && !regexp.MustCompile(` \(x\d+ over (\d+[smhdy])+\) `).MatchString(l) {
			t.Errorf("repeated event without (xN over T): %q", l)
		}
	}
	if rows < 5 {
		t.Fatalf("%d event rows:\n%s", rows, events)
	}
	for _, want := range []string{"Created   2s (x5 over 93s)", "BackOff   42s (x3 over 86s)"} {
		if !strings.Contains(events, want) {
			t.Errorf("no %q in\n%s", want, events)
		}
	}
}

func TestKubectlAge(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{-500 * time.Millisecond, "0s"}, {0, "0s"}, {1999 * time.Millisecond, "1s"}, {119 * time.Second, "119s"},
		{2 * time.Minute, "2m"}, {185 * time.Second, "3m5s"}, {10 * time.Minute, "10m"}, {179 * time.Minute, "179m"},
		{3 * time.Hour, "3h"}, {3*time.Hour + 20*time.Minute, "3h20m"}, {8 * time.Hour, "8h"}, {47 * time.Hour, "47h"},
		{49 * time.Hour, "2d1h"}, {9 * 24 * time.Hour, "9d"}, {(2*365 + 3) * 24 * time.Hour, "2y3d"}, {9 * 365 * 24 * time.Hour, "9y"},
	} {
		if got := kubectlAge(tc.d); got != tc.want {
			t.Errorf("kubectlAge(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
