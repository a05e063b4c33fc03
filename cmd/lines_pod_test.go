package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/podflow/podflow/internal/anystr"
)

func TestLinesPod(t *testing.T) {
	happy := corpus + "v1.36.3/01-happy-path.log"
	tests := []struct {
		name      string
		args      []string
		stdin     string
		wantLines int
		first     string
		noPrefix  bool
	}{
		// Counted independently: grep -c -F with "default/web-7d9f8c6b5-x2kqp" (quoted), the
		// UID d003917a-…, the sandbox ID 9e150547… and the three container IDs: 258; and
		// -e 'podName="web-7d9f8c6b5-x2kqp"' -e 'pod default/web-7d9f8c6b5-x2kqp ' 20 more, 2
		// of them among those: 276.
		{name: "happy path", args: []string{"web-7d9f8c6b5-x2kqp", happy}, wantLines: 276,
			first: happy + `:726:I1122 06:03:25.671184   21321 config.go:326] "Receiving a new pod" pod="default/web-7d9f8c6b5-x2kqp"`},
		{name: "sandbox window", args: []string{"web", happy, "--stage", "sandbox"}, wantLines: 9},
		{name: "container stage, no prefix", args: []string{"web", happy, "--stage", "init-config:image", "--no-prefix"}, noPrefix: true,
			first: `I1122 06:03:26.430657   21321 event.go:389] "Event occurred" object="default/web-7d9f8c6b5-x2kqp" fieldPath="spec.initContainers{init-config}"`},
		{name: "stdin", args: []string{"web", "-"}, stdin: happy, wantLines: 276, first: `-:726:I1122 06:03:25.671184`},
		// 04: grep -c -F -e '"default/payments-7b4d9c8f6-q9zrt"' -e 7563aa78-9056-4c20-bc78-4d80b9e8715e
		// -e 85af0c47… -e 3f80dd0e… and the four failed sandboxes' IDs (4b0dc883…, 85870488…,
		// 95a645d3…, f25ce853…) gives 198: the 4 "RunPodSandbox from runtime service failed"
		// lines name only the sandbox. The podName="…" and "pod default/payments-… " forms
		// add 14 (15, one of them naming the UID too): 212.
		{name: "sandbox failure", args: []string{"payments", corpus + "v1.36.3/04-sandbox-failure.log"}, wantLines: 212},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ioS, in, out, errOut := NewTestIO(false)
			if tt.stdin != "" {
				b, err := os.ReadFile(tt.stdin)
				if err != nil {
					t.Fatal(err)
				}
				in.Write(b)
			}
			code := Main(ioS, append([]string{"podflow", "lines", "pod"}, tt.args...))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
			if tt.wantLines > 0 && len(lines) != tt.wantLines {
				t.Errorf("%d lines, want %d", len(lines), tt.wantLines)
			}
			if tt.first != "" && !strings.HasPrefix(lines[0], tt.first) {
				t.Errorf("first line %q, want prefix %q", lines[0], tt.first)
			}
			if tt.noPrefix && strings.Contains(lines[0], ".log:") {
				t.Errorf("prefix printed: %q", lines[0])
			}
		})
	}
}

func TestLinesPodTwentyPodsDoNotLeak(t *testing.T) {
	out, errOut, code := runPodflow(t, false, "lines", "pod", "batch-worker-6c8d5f07-2e447", corpus+"v1.36.3/07-twenty-pods.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "batch-worker-6c8d5f08") || !strings.Contains(out, `pod="default/batch-worker-6c8d5f07-2e447"`) {
		t.Errorf("wrong lines:\n%s", out)
	}
	_, _, code = runPodflow(t, false, "lines", "pod", "web", corpus+"v1.36.3/01-happy-path.log", "--stage", "warp")
	if code != 2 {
		t.Errorf("bad --stage: exit %d", code)
	}
}

// With the node's containerd log beside the real kubelet log, the runtime's
// lines for the pod come too, in time order: they name only the sandbox ID
// (CreateContainer within sandbox) or a container ID (StartContainer) that
// the kubelet log tied to the pod, or the pod's sandbox metadata. (The
// corpus kubelets ran on a fake CRI, so no real containerd log exists: the
// fixture is written in containerd's message shapes with that run's real
// sandbox and container IDs.)
func TestLinesPodWithRuntimeLog(t *testing.T) {
	happy := corpus + "v1.36.3/01-happy-path.log"
	runtime := "../testdata/formats/containerd.log"
	out, errOut, code := runPodflow(t, false, "lines", "pod", "web-7d9f8c6b5-x2kqp", happy, runtime)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var fromRuntime []string
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for _, l := range lines {
		if strings.HasPrefix(l, runtime+":") {
			fromRuntime = append(fromRuntime, strings.TrimPrefix(l, runtime+":"))
		}
	}
	// Lines 1, 2, 6, 7 and 8 of the containerd log; 3–5 name only an image
	// and 9–10 belong to another pod's pull and to no pod.
	want := []string{"1:", "2:", "6:", "7:", "8:"}
	if len(fromRuntime) != len(want) {
		t.Fatalf("runtime lines %q, want lines %v", fromRuntime, want)
	}
	for i, w := range want {
		if !strings.HasPrefix(fromRuntime[i], w) {
			t.Errorf("runtime line %d is %q, want line %s", i, fromRuntime[i], w)
		}
	}
	if !strings.Contains(fromRuntime[3], `StartContainer for \"12470fbbe8fbd02a`) {
		t.Errorf("StartContainer line missing: %q", fromRuntime[3])
	}
	if len(lines) != 276+5 {
		t.Errorf("%d lines, want the kubelet's 276 and the runtime's 5", len(lines))
	}
	// Time order across inputs: where the output switches from one file to
	// the other, time does not go back (each file keeps its own order; the
	// kubelet's own lines are not strictly ordered).
	clock := regexp.MustCompile(`(\d\d:\d\d:\d\d\.\d{6})`)
	prevTime, prevRuntime := "", false
	for _, l := range lines {
		m := clock.FindString(l)
		if m == "" {
			t.Fatalf("no time in %q", l)
		}
		isRuntime := strings.HasPrefix(l, runtime+":")
		if prevTime != "" && isRuntime != prevRuntime && m < prevTime {
			t.Errorf("out of time order across inputs: %s after %s: %q", m, prevTime, l)
		}
		prevTime, prevRuntime = m, isRuntime
	}
}

// matchAny is what a line of a pod is: one that holds any of its needles.
func matchAny(b []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

// FuzzPodMatcher holds the matcher lines pod uses (anystr) to matchAny
// for the pods of the corpus and lines made of pieces of their needles.
func FuzzPodMatcher(f *testing.F) {
	ioS, _, _, _ := NewTestIO(false)
	a, err := Analyze(ioS, []string{corpus + "v1.36.3/"}, LoadOptions{MaxPods: 1000})
	if err != nil {
		f.Fatal(err)
	}
	flows := a.Flows.Items
	for i := range flows {
		for _, n := range podNeedles(&flows[i], func(s string) string { return s }) {
			f.Add(uint8(i), string(n[:len(n)/2]), string(n[len(n)/2:]))
		}
	}
	f.Add(uint8(0), `pod="default/web-7d9f8c6b5-x2kqp"`, "")
	f.Fuzz(func(t *testing.T, pod uint8, a, b string) {
		fl := &flows[int(pod)%len(flows)]
		line := []byte(a + b)
		if got, want := anystr.New(podNeedles(fl, func(s string) string { return s })).Match(line), matchAny(line, podNeedles(fl, func(s string) string { return s })); got != want {
			t.Errorf("pod %s, line %q: match %v, matchAny %v", fl.Pod.Key(), line, got, want)
		}
	})
}

// Standard input that is no log is named as the user gave it, not by the
// file lines pod spools it to.
func TestLinesPodBadStdin(t *testing.T) {
	for _, in := range []string{"garbage\n\x1b[31mred\n", ""} {
		ioS, stdin, _, errOut := NewTestIO(false)
		stdin.WriteString(in)
		code := Main(ioS, []string{"podflow", "lines", "pod", "web", "-"})
		if code != ExitUsage || !strings.Contains(errOut.String(), "standard input: ") || strings.Contains(errOut.String(), "podflow-stdin") {
			t.Errorf("stdin %q: exit %d, %q", in, code, errOut)
		}
	}
}

// TestLinesPodEveryNamingLine counts the lines that name the crash-looping
// pod independently of podflow (its name, or its UID read from the log,
// as substrings) and checks that lines pod prints each of them: the
// podName="…" (CPU/memory manager) and "pod ns/name volume …"
// (atomic_writer) forms were missed.
func TestLinesPodEveryNamingLine(t *testing.T) {
	const name = "worker-5d8f7b9c4-m2v6n"
	files, err := filepath.Glob(corpus + "v*/05-crashloop-backoff.log")
	if err != nil || len(files) < 5 {
		t.Fatalf("corpus: %v %v", files, err)
	}
	uidRe := regexp.MustCompile(`pod="[^"/]+/` + name + `" podUID="([0-9a-f-]{36})"`)
	for _, file := range files {
		t.Run(filepath.Base(filepath.Dir(file)), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			m := uidRe.FindSubmatch(data)
			if m == nil {
				t.Fatal("no podUID of the pod in the log")
			}
			uid := string(m[1])
			want := map[string]bool{}
			for _, l := range strings.Split(string(data), "\n") {
				if strings.Contains(l, name) || strings.Contains(l, uid) {
					want[strings.TrimRight(l, "\r")] = true
				}
			}
			ioS, _, out, errOut := NewTestIO(false)
			if code := Main(ioS, []string{"podflow", "lines", "pod", name, file, "--no-prefix"}); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			got := map[string]bool{}
			for _, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
				got[l] = true
			}
			missed := 0
			for l := range want {
				if !got[l] {
					missed++
					if missed <= 3 {
						t.Errorf("missed: %.160s", l)
					}
				}
			}
			if missed > 0 {
				t.Errorf("%d of %d lines naming the pod missed", missed, len(want))
			}
			named := 0
			for l := range got {
				if want[l] {
					named++
				}
			}
			if named != len(want) {
				t.Errorf("%d printed lines name the pod, %d lines of the log do", named, len(want))
			}
		})
	}
}

// TestLinesPodFilters checks --tail, --since and --level against the
// unfiltered output, on a file and on standard input.
func TestLinesPodFilters(t *testing.T) {
	file := corpus + "v1.36.3/05-crashloop-backoff.log"
	run := func(t *testing.T, stdin bool, args ...string) []string {
		t.Helper()
		ioS, in, out, errOut := NewTestIO(false)
		input := file
		if stdin {
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			in.Write(b)
			input = "-"
		}
		if code := Main(ioS, append([]string{"podflow", "lines", "pod", "worker-5d8f7b9c4-m2v6n", input, "--no-prefix"}, args...)); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		s := strings.TrimSuffix(out.String(), "\n")
		if s == "" {
			return nil
		}
		return strings.Split(s, "\n")
	}
	for _, stdin := range []bool{false, true} {
		t.Run(map[bool]string{false: "file", true: "stdin"}[stdin], func(t *testing.T) {
			all := run(t, stdin)
			if len(all) < 100 {
				t.Fatalf("%d lines", len(all))
			}
			if got := run(t, stdin, "--tail", "3"); strings.Join(got, "\n") != strings.Join(all[len(all)-3:], "\n") {
				t.Errorf("--tail 3: %q, want the last 3 of %d", got, len(all))
			}
			var errs, warnOrErr []string
			for _, l := range all {
				switch l[0] {
				case 'E':
					errs = append(errs, l)
					warnOrErr = append(warnOrErr, l)
				case 'W':
					warnOrErr = append(warnOrErr, l)
				}
			}
			if len(errs) == 0 {
				t.Fatal("no error line in the crash loop's lines")
			}
			if got := run(t, stdin, "--level", "E"); strings.Join(got, "\n") != strings.Join(errs, "\n") {
				t.Errorf("--level E: %d lines, want the %d E lines", len(got), len(errs))
			}
			if got := run(t, stdin, "--level", "W,E"); len(got) != len(warnOrErr) {
				t.Errorf("--level W,E: %d lines, want %d", len(got), len(warnOrErr))
			}
			// The log ends at 06:11:09.336: --since 5s keeps 06:11:04.336 on.
			got := run(t, stdin, "--since", "5s")
			if len(got) == 0 || len(got) >= len(all) {
				t.Fatalf("--since 5s: %d of %d lines", len(got), len(all))
			}
			for _, l := range got {
				if l[9:17] < "06:11:04" {
					t.Errorf("--since 5s printed %.40s", l)
				}
			}
			if got := run(t, stdin, "--since", "2026-11-22T06:11:04.336Z", "--until", "2026-11-22T06:11:08Z"); len(got) == 0 || len(got) > len(all) {
				t.Errorf("--since/--until RFC3339: %d lines", len(got))
			}
		})
	}
	ioS, _, _, errOut := NewTestIO(false)
	if code := Main(ioS, []string{"podflow", "lines", "pod", "worker", file, "--level", "X"}); code != 2 || !strings.Contains(errOut.String(), "--level") {
		t.Errorf("--level X: exit %d, %s", code, errOut)
	}
}
