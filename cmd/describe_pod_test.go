package cmd

import (
	"regexp"
	"strings"
	"testing"
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
				`(?m)^  Warning\s+FailedCreatePodSandBox\s+\+732ms \(x4 over 45s\)`,
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
