package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/podflow/podflow/internal/redact/redacttest"
	"github.com/podflow/podflow/tui"
)

// plantGroups are the texts planted: first every kind at once (longer
// than the 300 bytes a diagnosis keeps, so that the cut lands in a
// secret), then the kinds five at a time.
func plantGroups() []string {
	var all []string
	for _, p := range redacttest.Plants {
		all = append(all, p.Text)
	}
	groups := []string{strings.Join(all, "; ")}
	for i := 0; i < len(all); i += 5 {
		groups = append(groups, strings.Join(all[i:min(i+5, len(all))], "; "))
	}
	return groups
}

// plantIn writes src with the n-th line that holds old given
// old + ": " + a plant group, as its format quotes it.
func plantIn(t *testing.T, src, old, dst string, wrap func(string) string) string {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	groups := plantGroups()
	var out strings.Builder
	n := 0
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if strings.Contains(l, old) {
			l = newSubstituter([]string{old, old + ": " + groups[n%len(groups)]}).line(l)
			n++
		}
		if wrap != nil && l != "" {
			l = wrap(l)
		}
		out.WriteString(l)
	}
	if n == 0 {
		t.Fatalf("%s: no line holds %q", src, old)
	}
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.WriteFile(dst, []byte(out.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

var ansiSeq = regexp.MustCompile(`\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07`)

// TestRedactPlantedEverywhere plants every kind of secret and identifying
// value (redacttest.Plants) in real corpus lines of every log format, and
// holds every output kind, the TUI's screens and stderr to this: no 6-byte
// run of a planted secret, unless the input had it without the plants.
func TestRedactPlantedEverywhere(t *testing.T) {
	dir := t.TempDir()
	klog := corpus + "v1.36.3/02-image-pull-failure.log"
	inputs := map[string]string{
		"klog": plantIn(t, klog, "nginx:1.27.99: not found", filepath.Join(dir, "klog", "kubelet.log"), nil),
		"journald": plantIn(t, klog, "nginx:1.27.99: not found", filepath.Join(dir, "journald", "kubelet.log"), func(l string) string {
			return "2026-11-22T06:05:29+0000 wrkqz81vn kubelet[25019]: " + l
		}),
		"json":       plantIn(t, corpus+"v1.36.3/08-happy-path-json-v4.log", "not found", filepath.Join(dir, "json", "kubelet.log"), nil),
		"containerd": plantIn(t, "../testdata/formats/containerd.log", "not found", filepath.Join(dir, "containerd", "containerd.log"), nil),
		"crio": plantIn(t, "../testdata/formats/crio.log", "Pulling image", filepath.Join(dir, "crio", "crio.log"), func(l string) string {
			if strings.Contains(l, "Pulling image:") {
				return strings.Replace(l, "level=info", "level=error", 1)
			}
			return l
		}),
	}
	base := ""
	for _, src := range []string{klog, corpus + "v1.36.3/08-happy-path-json-v4.log", "../testdata/formats/containerd.log", "../testdata/formats/crio.log"} {
		b, _ := os.ReadFile(src)
		base += string(b)
	}
	// podflow's own words are no leak: the planted hosts are under the
	// reserved example.org/.com/.net, and the causes table's column and
	// JSON key are "Example"/"example".
	base += " example Example"
	// Without --redact the secrets are in the output: the test means something.
	plain := runHostileOut(t, "parse", "-o", "json", inputs["klog"]) + runHostileOut(t, "describe", "pod", "api", inputs["klog"], "--evidence", "100")
	for _, p := range redacttest.Plants {
		for _, s := range p.Secrets {
			if !strings.Contains(plain, s) && !strings.Contains(plain, strconv.Quote(s)[1:len(strconv.Quote(s))-1]) {
				t.Fatalf("%s: %q is not in the unredacted output: the plant did not take", p.Kind, s)
			}
		}
	}
	if !strings.Contains(runHostileOut(t, "describe", "pod", "api", inputs["klog"]), "…") {
		t.Error("describe shows no cut text: the cut diagnosis case is not exercised")
	}
	runs := [][]string{
		{"get", "pods"}, {"get", "pods", "-o", "wide"}, {"get", "pods", "-o", "json"}, {"get", "pods", "-o", "yaml"},
		{"get", "nodes", "-o", "json"},
		{"describe", "pod", "api", "--evidence", "100"}, {"describe", "pod", "web", "--evidence", "100"},
		{"lines", "pod", "api"}, {"lines", "pod", "web"},
		{"parse", "-o", "json"}, {"parse", "-o", "text"}, {"parse", "--stats"},
		{"stats", "-o", "json"}, {"stats"}, {"trace", "-o", "chrome"}, {"trace", "-o", "otlp"},
		{"check", "-o", "text"}, {"check", "-o", "json"}, {"check", "-o", "junit"}, {"check", "-o", "github"}, {"check", "-o", "markdown"},
		{"report", "-o", "-"},
	}
	for format, in := range inputs {
		for _, args := range runs {
			name := format + " " + strings.Join(args, " ")
			t.Run(name, func(t *testing.T) {
				_, stdout, stderr := runHostile(t, false, nil, append(append(args, in), "--redact")...)
				if l := redacttest.Leaks(stdout+stderr, base); len(l) > 0 {
					all := stdout + stderr
					i := strings.Index(all, l[0])
					t.Errorf("%d runs leak, the first %q: …%s…", len(l), l[0], all[max(i-80, 0):min(i+80, len(all))])
				}
			})
		}
	}

	t.Run("tui", func(t *testing.T) {
		r := testRedactor(t)
		m := tui.New(tui.Options{Load: tui.LoadOptions{Paths: []string{inputs["klog"]}, Location: time.UTC}, Redact: r})
		tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(200, 50))
		var seen strings.Builder
		wait := func(s string) {
			teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
				seen.Write(b)
				return strings.Contains(ansiSeq.ReplaceAllString(seen.String(), ""), s)
			}, teatest.WithDuration(30*time.Second), teatest.WithCheckInterval(50*time.Millisecond))
		}
		key := func(k string, code rune) { tm.Send(tea.KeyPressMsg{Code: code, Text: k}) }
		wait("api")
		key("", tea.KeyTab)
		key("", tea.KeyEnter)
		wait("raw lines")
		time.Sleep(300 * time.Millisecond)
		key("", tea.KeyEscape)
		key("n", 'n')
		time.Sleep(300 * time.Millisecond)
		key("q", 'q')
		tm.WaitFinished(t, teatest.WithFinalTimeout(15*time.Second))
		fm := tm.FinalModel(t).(tui.Model)
		screens := ansiSeq.ReplaceAllString(seen.String(), "") + fm.View().Content
		if l := redacttest.Leaks(screens, base); len(l) > 0 {
			t.Errorf("the TUI leaks %q", l)
		}
	})
}
