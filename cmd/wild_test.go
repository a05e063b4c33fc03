package cmd

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
	"go.yaml.in/yaml/v3"
)

// The wild corpus (testdata/wild) is kubelet logs as people paste them in
// issue threads, with what the people in the thread concluded written in
// expect.yaml. It is the measure of the parser and the engine on the
// inputs users bring: the test prints a score and fails below wildPass.
const (
	wildDir  = "../testdata/wild"
	wildPass = 0.90
)

// wildExpect is one excerpt's entry in testdata/wild/expect.yaml, written
// from the thread, not from podflow's output.
type wildExpect struct {
	File        string         `yaml:"file"`
	Source      string         `yaml:"source"`
	Version     string         `yaml:"version"`
	Era         string         `yaml:"era"`
	Format      string         `yaml:"format"`
	Decorations []string       `yaml:"decorations"`
	Topics      []string       `yaml:"topics"`
	Concluded   string         `yaml:"concluded"`
	Confidence  string         `yaml:"confidence"`
	Findings    []string       `yaml:"findings"`
	Pods        []wildPod      `yaml:"pods"`
	Known       string         `yaml:"known"` // why a miss of this excerpt is not fixed yet
	Extra       map[string]any `yaml:",inline"`
}

type wildPod struct {
	Name           string     `yaml:"name"`
	Namespace      string     `yaml:"namespace"`
	Verdict        stringList `yaml:"verdict"` // any of these
	StalledAt      *string    `yaml:"stalledAt"`
	Container      *string    `yaml:"container"`
	ContainerStage *string    `yaml:"containerStage"`
	Reason         []string   `yaml:"reason"` // words the reason holds (any case)
	Known          string     `yaml:"known"`  // why a miss of this pod is not fixed yet
}

// stringList reads a YAML scalar or a list of scalars.
type stringList []string

func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = stringList{n.Value}
		return nil
	}
	var s []string
	if err := n.Decode(&s); err != nil {
		return err
	}
	*l = s
	return nil
}

func loadWild(t *testing.T) []wildExpect {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(wildDir, "expect.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var all []wildExpect
	if err := yaml.Unmarshal(data, &all); err != nil {
		t.Fatalf("expect.yaml: %v", err)
	}
	return all
}

// kubeletLine is a line that holds a kubelet record: a klog header with
// its source file, or a record of the JSON logging format. Such a line
// must never be left unrecognized, whatever decorates it.
var kubeletLine = regexp.MustCompile(`[IWEF]\d{4} +\d{1,2}:\d{2}:\d{2}\.\d+ +\d+ [\w.-]+\.go:\d+\]|"ts":\s*[0-9.e+]+,\s*"(caller|v|msg)"`)

// unreadKubeletLines returns the lines of path that look like kubelet
// records but are covered by no record the parser returned.
func unreadKubeletLines(t *testing.T, path string) []string {
	t.Helper()
	srcs, errs := parser.Discover([]string{path}, nil)
	if len(errs) > 0 || len(srcs) == 0 {
		return []string{fmt.Sprintf("cannot discover: %v", errs)}
	}
	mr := parser.NewMultiReader(srcs, parser.Options{})
	defer mr.Close()
	covered := map[int64]bool{}
	for {
		rec, err := mr.Next()
		if err != nil {
			break
		}
		for i := int64(0); i < int64(max(rec.Pos.Lines, 1)); i++ {
			covered[rec.Pos.Line+i] = true
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var miss []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for n := int64(1); sc.Scan(); n++ {
		if !covered[n] && kubeletLine.Match(sc.Bytes()) {
			miss = append(miss, fmt.Sprintf("line %d: %.100s", n, bytes.TrimSpace(sc.Bytes())))
		}
	}
	return miss
}

// wildResult is the score of one excerpt: checks passed of checks made,
// and a line for each miss.
type wildResult struct {
	file         string
	pass, checks int
	misses       []string
}

func (r *wildResult) check(ok bool, known, format string, args ...any) {
	r.checks++
	if ok {
		r.pass++
		return
	}
	msg := fmt.Sprintf(format, args...)
	if known != "" {
		msg += " — not fixed yet: " + known
	}
	r.misses = append(r.misses, msg)
}

func judgeWild(t *testing.T, e wildExpect) wildResult {
	r := wildResult{file: e.File}
	path := filepath.Join(wildDir, e.File)
	unread := unreadKubeletLines(t, path)
	r.check(len(unread) == 0, e.Known, "%d kubelet lines not read: %s", len(unread), strings.Join(first(unread, 3), "; "))

	a, err := Analyze(&IO{Out: io.Discard, ErrOut: io.Discard}, []string{path}, LoadOptions{})
	r.check(err == nil, e.Known, "refused: %v", err)
	if err != nil {
		for _, p := range e.Pods {
			r.check(false, p.Known, "pod %s: no analysis", p.Name)
		}
		for _, k := range e.Findings {
			r.check(false, e.Known, "finding %s: no analysis", k)
		}
		return r
	}
	for _, p := range e.Pods {
		fl, ok := wildFlow(a.Flows, p)
		if !ok {
			r.check(false, p.Known, "pod %s: not found (pods: %s)", p.Name, strings.Join(first(flowNames(a.Flows), 8), ", "))
			continue
		}
		var bad []string
		if len(p.Verdict) > 0 && !slices.Contains(p.Verdict, string(fl.Verdict)) {
			bad = append(bad, fmt.Sprintf("verdict %s, want %s", fl.Verdict, strings.Join(p.Verdict, "|")))
		}
		if p.StalledAt != nil && fl.StalledAt != *p.StalledAt {
			bad = append(bad, fmt.Sprintf("stalledAt %q, want %q", fl.StalledAt, *p.StalledAt))
		}
		if p.Container != nil && fl.Container != *p.Container {
			bad = append(bad, fmt.Sprintf("container %q, want %q", fl.Container, *p.Container))
		}
		if p.ContainerStage != nil && fl.ContainerStage != *p.ContainerStage {
			bad = append(bad, fmt.Sprintf("containerStage %q, want %q", fl.ContainerStage, *p.ContainerStage))
		}
		for _, w := range p.Reason {
			if !strings.Contains(strings.ToLower(fl.Reason), strings.ToLower(w)) {
				bad = append(bad, fmt.Sprintf("reason %q lacks %q", cut(fl.Reason, 120), w))
			}
		}
		r.check(len(bad) == 0, p.Known, "pod %s: %s", p.Name, strings.Join(bad, "; "))
	}
	kinds := map[string]bool{}
	for _, f := range a.Flows.Findings {
		kinds[f.Kind] = true
	}
	for _, k := range e.Findings {
		r.check(kinds[k], e.Known, "finding %s missing (have %v)", k, sortedKeys(kinds))
	}
	return r
}

// wildFlow finds the expected pod: by name (and namespace when given); of
// several incarnations, the last one is how the log leaves the pod.
func wildFlow(fl *timeline.FlowList, p wildPod) (timeline.Flow, bool) {
	var found timeline.Flow
	ok := false
	for _, it := range fl.Items {
		if it.Pod.Name == p.Name && (p.Namespace == "" || it.Pod.Namespace == p.Namespace) {
			found, ok = it, true
		}
	}
	return found, ok
}

func flowNames(fl *timeline.FlowList) []string {
	var out []string
	for _, it := range fl.Items {
		out = append(out, it.Pod.Namespace+"/"+it.Pod.Name+"="+string(it.Verdict))
	}
	return out
}

func first(s []string, n int) []string { return s[:min(n, len(s))] }

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestWildCorpus judges every excerpt of testdata/wild against what the
// people in its thread concluded, prints the score and fails below
// wildPass, naming each miss.
func TestWildCorpus(t *testing.T) {
	all := loadWild(t)
	if len(all) == 0 {
		t.Fatal("expect.yaml lists no excerpt")
	}
	pass, checks := 0, 0
	var missed []wildResult
	for _, e := range all {
		r := judgeWild(t, e)
		pass += r.pass
		checks += r.checks
		if len(r.misses) > 0 {
			missed = append(missed, r)
		}
	}
	for _, r := range missed {
		for _, m := range r.misses {
			t.Logf("miss %s: %s", r.file, m)
		}
	}
	score := float64(pass) / float64(checks)
	t.Logf("wild corpus: %d excerpts, %d/%d checks hold (%.1f%%); %d excerpts with a miss", len(all), pass, checks, 100*score, len(missed))
	if score < wildPass {
		t.Errorf("wild corpus score %.1f%% is below %.0f%%", 100*score, 100*wildPass)
	}
}

// TestWildManifest keeps the corpus whole: every excerpt has an entry in
// expect.yaml and a section in MANIFEST.md, and every entry a file, a
// source and a conclusion.
func TestWildManifest(t *testing.T) {
	all := loadWild(t)
	manifest, err := os.ReadFile(filepath.Join(wildDir, "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, e := range all {
		if listed[e.File] {
			t.Errorf("%s: listed twice in expect.yaml", e.File)
		}
		listed[e.File] = true
		if e.Source == "" || e.Concluded == "" || e.Version == "" {
			t.Errorf("%s: source, version and concluded are required", e.File)
		}
		if !bytes.Contains(manifest, []byte("### "+e.File)) {
			t.Errorf("%s: no section in MANIFEST.md", e.File)
		}
	}
	files, _ := filepath.Glob(filepath.Join(wildDir, "*.log"))
	for _, f := range files {
		if !listed[filepath.Base(f)] {
			t.Errorf("%s: in testdata/wild but not in expect.yaml", filepath.Base(f))
		}
	}
	if len(files) < 80 {
		t.Errorf("testdata/wild holds %d excerpts; the corpus needs at least 80", len(files))
	}
	// The spread the corpus is built to have: old printf kubelets, the
	// middle years and today's structured logs, the JSON format among them.
	eras, formats := map[string]int{}, map[string]int{}
	for _, e := range all {
		eras[e.Era]++
		formats[e.Format]++
	}
	for era, least := range map[string]int{"old": 10, "mid": 20, "new": 30} {
		if eras[era] < least {
			t.Errorf("%d excerpts of era %s; the corpus needs at least %d", eras[era], era, least)
		}
	}
	if formats["json"]+formats["json-export"] == 0 {
		t.Error("no excerpt in the JSON logging format")
	}
}
