package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize/sanitizetest"
	"github.com/podflow/podflow/tui"
)

// hostileCase finds a case of the shared table by name.
func hostileCase(t *testing.T, name string) sanitizetest.Case {
	t.Helper()
	for _, c := range sanitizetest.Hostile {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no hostile case %q", name)
	return sanitizetest.Case{}
}

// substituter replaces, in one klog line, each key of repl with its value
// the way the kubelet would have written it: strconv-quoted inside quoted
// values, at every nesting depth (an error quoting an error quoting an
// image), and raw where the text is already unquoted.
type substituter struct{ escaped, raw *strings.Replacer }

func newSubstituter(repl []string) substituter {
	esc := make([]string, len(repl))
	for i := range repl {
		esc[i] = repl[i]
		if i%2 == 1 {
			q := strconv.Quote(repl[i])
			esc[i] = q[1 : len(q)-1]
		}
	}
	return substituter{strings.NewReplacer(esc...), strings.NewReplacer(repl...)}
}

func (sb substituter) line(s string) string { return sb.depth(s, 0) }

func (sb substituter) depth(s string, depth int) string {
	var b strings.Builder
	plain := func(seg string) {
		if depth == 0 {
			b.WriteString(sb.escaped.Replace(seg))
		} else {
			b.WriteString(sb.raw.Replace(seg))
		}
	}
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		q, err := strconv.QuotedPrefix(s[i:])
		if err != nil {
			continue
		}
		inner, err := strconv.Unquote(q)
		if err != nil {
			continue
		}
		plain(s[last:i])
		b.WriteString(strconv.Quote(sb.depth(inner, depth+1)))
		i += len(q) - 1
		last = i + 1
	}
	plain(s[last:])
	return b.String()
}

type hostileLogs struct {
	paths   []string
	uids    []string // pods to describe and list lines of
	values  []string // every hostile value put in
	markers []string // markers of the hostile pod names the engine kept
}

// writeHostileLogs builds two kubelet logs from real corpus runs with
// pod names, namespaces, an image, error texts and a container's
// multi-line error replaced by the shared hostile strings, so the parser
// and the engine read them as they would read a real attack.
func writeHostileLogs(t *testing.T) hostileLogs {
	t.Helper()
	dir := t.TempDir()
	var h hostileLogs
	cases := sanitizetest.Hostile

	// 07: twenty pods; pod i is named after case i, and its namespace is
	// case i+20 where that has no '/' (a namespace cannot hold one).
	src, err := os.ReadFile(corpus + "v1.36.3/07-twenty-pods.log")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`batch-worker-6c8d5f[0-9]{2}-[0-9a-f]{5}`).FindAllString(string(src), -1)
	seen := map[string]bool{}
	var repl []string
	for _, n := range names {
		if seen[n] {
			continue
		}
		seen[n] = true
		i := len(repl) / 4
		c := cases[i%len(cases)]
		ns := "default"
		if nc := cases[(i+20)%len(cases)]; !strings.Contains(nc.Value, "/") {
			ns = nc.Value
			h.values = append(h.values, nc.Value)
		}
		name := c.Value + "-" + n[len(n)-5:]
		h.values = append(h.values, c.Value)
		repl = append(repl, "default/"+n, ns+"/"+name, n+"_default", name+"_"+ns)
	}
	var out bytes.Buffer
	sub := newSubstituter(repl)
	for _, l := range strings.SplitAfter(string(src), "\n") {
		if strings.Contains(l, "batch-worker-") {
			l = sub.line(l)
		}
		out.WriteString(l)
	}
	p1 := filepath.Join(dir, "twenty.log")
	if err := os.WriteFile(p1, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	// 02: an image that cannot be pulled; the pod, the image and the
	// runtime's error carry hostile text, and one error is written the
	// way klog writes multi-line values: raw, one tab-indented line each.
	src, err = os.ReadFile(corpus + "v1.36.3/02-image-pull-failure.log")
	if err != nil {
		t.Fatal(err)
	}
	pod := hostileCase(t, "html attribute").Value + "-pl8wz"
	image := "docker.io/library/x:" + hostileCase(t, "bidi override").Value + hostileCase(t, "markdown").Value
	errText := "not found: " + hostileCase(t, "workflow error").Value + hostileCase(t, "osc 52 clipboard").Value + hostileCase(t, "github percent").Value
	h.values = append(h.values, pod, image, errText)
	repl = []string{"api-6f5b9d7c4-pl8wz", pod, "docker.io/library/nginx:1.27.99", image, "not found", errText}
	out.Reset()
	sub = newSubstituter(repl)
	var multi string
	for _, l := range strings.SplitAfter(string(src), "\n") {
		l = sub.line(l)
		out.WriteString(l)
		if multi == "" && strings.Contains(l, `"Error syncing pod, skipping"`) {
			var b strings.Builder
			head, _, _ := strings.Cut(l, ` err="`)
			b.WriteString(strings.Replace(head, "pod_workers.go", "pod_workers.go", 1) + " err=<\n")
			for _, c := range cases {
				b.WriteString("\t" + strings.NewReplacer("\n", " ", "\r", "\r").Replace(c.Value) + "\n")
			}
			b.WriteString(" >")
			rest := l[strings.Index(l, `" pod="`)+1:]
			b.WriteString(" " + rest)
			multi = b.String()
			out.WriteString(multi)
		}
	}
	if multi == "" {
		t.Fatal("no Error syncing pod line to copy")
	}
	p2 := filepath.Join(dir, "pullfail.log")
	if err := os.WriteFile(p2, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	h.paths = []string{p1, p2}

	// The pods' UIDs, to name them on the command line.
	_, stdout, _ := runHostile(t, false, nil, append([]string{"get", "pods", "-o", "json"}, h.paths...)...)
	var fl struct {
		Items []struct {
			Pod struct{ Name, UID string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &fl); err != nil {
		t.Fatal(err)
	}
	for _, it := range fl.Items {
		h.uids = append(h.uids, it.Pod.UID)
		for _, c := range sanitizetest.Hostile[:20] {
			// The engine drops names no kubelet could log (a '/' in a
			// name, a ',' in a pods=[…] list); the others must arrive.
			if strings.HasPrefix(it.Pod.Name, c.Value) {
				h.markers = append(h.markers, c.Marker)
			}
		}
	}
	if len(h.markers) < 12 || len(fl.Items) < 13 {
		t.Fatalf("%d pods, %d hostile names read from the hostile logs; the test needs most of them", len(fl.Items), len(h.markers))
	}
	return h
}

// runHostile runs podflow; env, when set, is its environment.
func runHostile(t *testing.T, tty bool, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ioS, _, out, errOut := NewTestIO(tty)
	if env != nil {
		ioS.Getenv = func(k string) string { return env[k] }
	}
	code = Main(ioS, append([]string{"podflow"}, args...))
	return code, out.String(), errOut.String()
}

type outputKind int

const (
	kindText outputKind = iota
	kindJSON
	kindXML
	kindHTML
	kindGitHub
)

// TestHostile runs every output kind over kubelet logs whose pod names,
// namespaces, image, errors and a container's multi-line error carry the
// shared hostile strings (internal/sanitize/sanitizetest), and holds each
// to its kind's rules: terminal text has no control, escape, hidden or bidi
// character and no GitHub workflow command; JSON carries them only
// \u-escaped and stays lossless; JUnit is well-formed XML 1.0; the HTML
// report has no markup from the log. With --redact too.
func TestHostile(t *testing.T) {
	h := writeHostileLogs(t)
	t.Run("outputs", func(t *testing.T) { hostileOutputs(t, h) })
	t.Run("json is lossless", func(t *testing.T) { hostileJSONIsLossless(t, h) })
	t.Run("colour table", func(t *testing.T) { hostileColourTable(t, h) })
	t.Run("tui", func(t *testing.T) { hostileTUI(t, h) })
}

func hostileOutputs(t *testing.T, h hostileLogs) {
	in := h.paths
	summary := filepath.Join(t.TempDir(), "summary.md")
	env := map[string]string{"GITHUB_STEP_SUMMARY": summary, "PODFLOW_REDACT_KEY": testRedactKey}
	type run struct {
		name    string
		args    []string
		kind    outputKind
		markers bool // the output names the pods: every pod-name marker must show
	}
	runs := []run{
		{"get pods", []string{"get", "pods"}, kindText, true},
		{"get pods wide", []string{"get", "pods", "-o", "wide"}, kindText, true},
		{"get pods name", []string{"get", "pods", "-o", "name"}, kindText, true},
		{"get pods json", []string{"get", "pods", "-o", "json"}, kindJSON, false},
		{"get pods yaml", []string{"get", "pods", "-o", "yaml"}, kindText, true},
		{"get pods jsonpath", []string{"get", "pods", "-o", `jsonpath={range .items[*]}{.pod.name} {.reason} {.diagnosis}{"\n"}{end}`}, kindText, true},
		{"get pods custom-columns", []string{"get", "pods", "-o", "custom-columns=NAME:.pod.name,REASON:.reason,EVIDENCE:.stages[*].evidence[*].text"}, kindText, true},
		{"get nodes", []string{"get", "nodes"}, kindText, false},
		{"get nodes json", []string{"get", "nodes", "-o", "json"}, kindJSON, false},
		{"get nodes yaml", []string{"get", "nodes", "-o", "yaml"}, kindText, false},
		{"stats", []string{"stats", "--over-time"}, kindText, false},
		{"stats json", []string{"stats", "-o", "json"}, kindJSON, false},
		{"trace chrome", []string{"trace", "-o", "chrome"}, kindJSON, false},
		{"trace otlp", []string{"trace", "-o", "otlp"}, kindJSON, false},
		{"parse json", []string{"parse", "-o", "json"}, kindJSON, false},
		{"parse text", []string{"parse", "-o", "text"}, kindText, true},
		{"parse stats", []string{"parse", "--stats"}, kindText, false},
		{"pipeline", []string{"pipeline"}, kindText, false},
		{"check text", []string{"check", "--fail-on", "Failed,Stalled,Incomplete"}, kindText, false},
		{"check json", []string{"check", "-o", "json"}, kindJSON, false},
		{"check junit", []string{"check", "--fail-on", "Failed,Stalled,Incomplete,Terminating", "-o", "junit"}, kindXML, true},
		{"check github", []string{"check", "--fail-on", "Failed,Stalled,Incomplete", "-o", "github"}, kindGitHub, false},
		{"check markdown", []string{"check", "--fail-on", "Failed,Stalled,Incomplete", "-o", "markdown"}, kindText, true},
		{"report", []string{"report", "-o", "-"}, kindHTML, true},
	}
	// Every pod would take too long; the first ones carry the terminal
	// attacks, the last is the image-pull failure with the raw error.
	uids := append(append([]string{}, h.uids[:min(4, len(h.uids))]...), h.uids[len(h.uids)-1])
	for _, uid := range uids {
		runs = append(runs,
			run{"describe " + uid, []string{"describe", "pod", uid, "--evidence", "100"}, kindText, false},
			run{"lines " + uid, []string{"lines", "pod", uid}, kindText, false},
			run{"lines no-prefix " + uid, []string{"lines", "pod", uid, "--no-prefix"}, kindText, false},
		)
	}
	for _, r := range runs {
		for _, redacting := range []bool{false, true} {
			if redacting && (strings.HasPrefix(r.name, "lines") || strings.HasPrefix(r.name, "parse") || strings.HasPrefix(r.name, "describe") && r.name != "describe "+h.uids[0]) {
				continue // slow with --redact (every line is masked); TestRedact covers them
			}
			name := r.name
			args := append([]string{}, r.args...)
			if r.name != "pipeline" {
				args = append(args, in...)
			}
			if redacting {
				name += " --redact"
				args = append(args, "--redact")
			}
			t.Run(name, func(t *testing.T) {
				code, stdout, stderr := runHostile(t, false, env, args...)
				if code != ExitOK && code != ExitRule {
					t.Fatalf("exit %d; stderr:\n%s", code, stderr)
				}
				if stdout == "" {
					t.Fatal("no output")
				}
				sanitizetest.Text(t, "stderr", stderr)
				switch r.kind {
				case kindJSON:
					sanitizetest.JSON(t, "stdout", stdout)
				case kindXML:
					sanitizetest.XML(t, "stdout", stdout)
				case kindHTML:
					sanitizetest.HTML(t, "stdout", stdout, 1)
				case kindGitHub:
					sanitizetest.GitHub(t, "stdout", stdout)
				default:
					sanitizetest.Text(t, "stdout", stdout)
				}
				if r.markers {
					for _, m := range h.markers {
						if !strings.Contains(stdout, m) {
							t.Errorf("pod marker %q missing: the hostile value never reached this output", m)
						}
					}
				}
			})
		}
	}
	if b, err := os.ReadFile(summary); err != nil || len(b) == 0 {
		t.Errorf("$GITHUB_STEP_SUMMARY not written: %v", err)
	} else {
		sanitizetest.Text(t, "$GITHUB_STEP_SUMMARY", string(b))
	}
}

// hostileJSONIsLossless: JSON keeps log text exactly (hostile characters
// escaped), so a value read back equals the one written.
func hostileJSONIsLossless(t *testing.T, h hostileLogs) {
	_, stdout, _ := runHostile(t, false, nil, append([]string{"get", "pods", "-o", "json"}, h.paths...)...)
	var fl struct {
		Items []struct {
			Pod struct{ Namespace, Name string }
		}
	}
	if err := json.Unmarshal([]byte(stdout), &fl); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, it := range fl.Items {
		got[it.Pod.Namespace] = true
		got[it.Pod.Name] = true
	}
	for _, c := range sanitizetest.Hostile[:20] {
		if !slicesContains(h.markers, c.Marker) || !utf8.ValidString(c.Value) {
			continue // dropped by the engine, or not representable in JSON
		}
		found := false
		for g := range got {
			if strings.HasPrefix(g, c.Value) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: pod name %q not in the JSON output", c.Name, c.Value)
		}
	}
}

func hostileColourTable(t *testing.T, h hostileLogs) {
	code, stdout, _ := runHostile(t, true, nil, append([]string{"get", "pods", "--color", "always"}, h.paths...)...)
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	// Only podflow's own colours around verdicts; nothing else escapes.
	own := regexp.MustCompile(`\x1b\[(31|32|33|90)m(Running|Completed|Terminated|Failed|Rejected|Stalled|Terminating|Incomplete)\x1b\[0m`)
	if !own.MatchString(stdout) {
		t.Fatal("no coloured verdict: colour is off, the test proves nothing")
	}
	sanitizetest.Text(t, "coloured table", own.ReplaceAllString(stdout, "$2"))
}

func hostileTUI(t *testing.T, h hostileLogs) {
	for _, r := range []*redact.Redactor{nil, redact.New()} {
		m := tui.New(tui.Options{Load: tui.LoadOptions{Paths: h.paths, Location: time.UTC}, Redact: r})
		var tm tea.Model = m
		tm, _ = tm.Update(tea.WindowSizeMsg{Width: 200, Height: 60})
		run := func(c tea.Cmd) {
			deadline := time.Now().Add(20 * time.Second)
			queue := []tea.Cmd{c}
			for len(queue) > 0 && time.Now().Before(deadline) {
				c, queue = queue[0], queue[1:]
				if c == nil {
					continue
				}
				msg := c()
				if b, ok := msg.(tea.BatchMsg); ok {
					queue = append(queue, b...)
					continue
				}
				var next tea.Cmd
				tm, next = tm.Update(msg)
				queue = append(queue, next)
			}
		}
		run(tm.Init())
		screens := map[string]string{"list": tm.View().Content}
		key := func(k string) {
			msg := tea.KeyPressMsg{Code: []rune(k)[0], Text: k}
			switch k {
			case "enter":
				msg = tea.KeyPressMsg{Code: tea.KeyEnter}
			case "esc":
				msg = tea.KeyPressMsg{Code: tea.KeyEscape}
			case "tab":
				msg = tea.KeyPressMsg{Code: tea.KeyTab}
			}
			var c tea.Cmd
			tm, c = tm.Update(msg)
			_ = c
		}
		for i := 0; i < 8; i++ {
			screens[fmt.Sprintf("pod %d", i)] = tm.View().Content
			key("tab")
			for j := 0; j < 4; j++ {
				key("j")
				key("enter")
				screens[fmt.Sprintf("pod %d raw %d", i, j)] = tm.View().Content
				key("esc")
			}
			key("tab")
			key("tab")
			key("j")
		}
		key("n")
		screens["node"] = tm.View().Content
		key("n")
		screens["node 2"] = tm.View().Content
		seen := 0
		for where, s := range screens {
			sanitizetest.Text(t, "TUI "+where, s)
			for _, m := range h.markers {
				if strings.Contains(s, m) {
					seen++
				}
			}
		}
		if seen == 0 {
			t.Error("no hostile marker on any TUI screen: the test shows nothing")
		}
		if !strings.Contains(screens["list"], "hz") {
			t.Errorf("pod list shows no hostile pod:\n%s", screens["list"])
		}
	}
}

func slicesContains(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}
