package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/tui"
)

// secretLog writes the corpus image-pull failure with credentials in the
// image reference and an error that names a token, an environment
// password and addresses; the node name and the pod IP are the
// corpus's own.
func secretLog(t *testing.T) (path string, secrets []string) {
	t.Helper()
	src, err := os.ReadFile(corpus + "v1.36.3/02-image-pull-failure.log")
	if err != nil {
		t.Fatal(err)
	}
	sub := newSubstituter([]string{
		"docker.io/library/nginx:1.27.99", "robot:s3cretPass@registry.acme.io/team/nginx:1.27.99",
		"not found", "not found: auth Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJib2IifQ.c2lnbmF0dXJlX3g DB_PASSWORD=hunter2 from 10.20.30.40 and fd00::1234 via https://api.internal.acme.corp:6443/healthz",
	})
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(src), "\n") {
		b.WriteString(sub.line(l))
	}
	path = filepath.Join(t.TempDir(), "kb-node-pullfail", "kubelet.log")
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, []string{"kb-node-pullfail", "192.168.192.168", "s3cretPass", "robot:", "registry.acme.io", "eyJhbGciOiJIUzI1NiJ9",
		"hunter2", "10.20.30.40", "fd00::1234", "api.internal.acme.corp"}
}

func TestRedact(t *testing.T) {
	in, secrets := secretLog(t)
	// Without --redact the secrets are there: the test below means something.
	plain := runHostileOut(t, "describe", "pod", "api", in, "--evidence", "100") + runHostileOut(t, "lines", "pod", "api", in)
	for _, s := range secrets {
		if !strings.Contains(plain, s) {
			t.Fatalf("%q not in the unredacted describe and lines output: the fixture does not carry it", s)
		}
	}
	runs := [][]string{
		{"get", "pods"}, {"get", "pods", "-o", "wide"}, {"get", "pods", "-o", "json"}, {"get", "pods", "-o", "yaml"}, {"get", "pods", "-o", "name"},
		{"get", "nodes"}, {"get", "nodes", "-o", "json"},
		{"describe", "pod", "api", "--evidence", "100"}, {"lines", "pod", "api"},
		{"stats", "-o", "json"}, {"trace", "-o", "chrome"}, {"trace", "-o", "otlp"},
		{"parse", "-o", "json"}, {"parse", "-o", "text"}, {"parse", "--stats"},
		{"check", "-o", "text"}, {"check", "-o", "json"}, {"check", "-o", "junit"}, {"check", "-o", "github"}, {"check", "-o", "markdown"},
		{"report", "-o", "-"},
	}
	outs := map[string]string{}
	for _, args := range runs {
		name := strings.Join(args, " ")
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runHostile(t, false, nil, append(append(args, in), "--redact")...)
			if code != ExitOK && code != ExitRule {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			for _, s := range secrets {
				if strings.Contains(stdout, s) || strings.Contains(stderr, s) {
					i := strings.Index(stdout+stderr, s)
					t.Errorf("%q leaks: …%s…", s, (stdout + stderr)[max(i-60, 0):min(i+60, len(stdout+stderr))])
				}
			}
			outs[name] = stdout
		})
	}
	// The same value has the same mask in every output.
	node := regexp.MustCompile(`node/(host-[0-9a-f]+)`).FindStringSubmatch(runHostileOut(t, "get", "nodes", "-o", "name", in, "--redact"))
	if node == nil {
		t.Fatal("get nodes -o name shows no masked node")
	}
	addr := regexp.MustCompile(`from (ip-[0-9a-f]+) and (ip-[0-9a-f]+) via https://(host-[0-9a-f]+):6443`)
	want := addr.FindStringSubmatch(outs["describe pod api --evidence 100"])
	if want == nil {
		t.Fatalf("describe shows no masked addresses:\n%s", outs["describe pod api --evidence 100"])
	}
	// A value the engine cut short (…) is another value, with another mask.
	wholeURL := regexp.MustCompile(`via https://host-[0-9a-f]+:`)
	for name, out := range outs {
		for i, m := range want[1:] {
			if (i < 2 && strings.Contains(out, "from ip-") || i == 2 && wholeURL.MatchString(out)) && !strings.Contains(out, m) {
				t.Errorf("%s: mask %s missing, the same value got another mask", name, m)
			}
		}
		if strings.Contains(name, "get pods") && name != "get pods -o name" && !strings.Contains(out, node[1]) {
			t.Errorf("%s: node mask %s missing", name, node[1])
		}
	}
	for _, name := range []string{"describe pod api --evidence 100", "trace -o otlp", "check -o json", "report -o -", "get pods -o json", "parse -o json"} {
		if !strings.Contains(outs[name], node[1]) {
			t.Errorf("%s: node mask %s missing", name, node[1])
		}
		if !strings.Contains(outs[name], want[1]) {
			t.Errorf("%s: address mask %s missing", name, want[1])
		}
	}
	// Names given on the command line are matched through the same masks.
	if _, _, code := runPodflow(t, false, "get", "pods", in, "--redact", "--node", "kb-node-pullfail", "-o", "name"); code != ExitOK {
		t.Errorf("--node with the real name under --redact: exit %d", code)
	}

	t.Run("tui", func(t *testing.T) {
		r := testRedactor(t)
		m := tui.New(tui.Options{Load: tui.LoadOptions{Paths: []string{in}, Location: time.UTC}, Redact: r})
		var tm tea.Model = m
		tm, _ = tm.Update(tea.WindowSizeMsg{Width: 220, Height: 60})
		queue := []tea.Cmd{tm.Init()}
		for deadline := time.Now().Add(20 * time.Second); len(queue) > 0 && time.Now().Before(deadline); {
			c := queue[0]
			queue = queue[1:]
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
		var screens []string
		press := func(k string, code rune) {
			tm, _ = tm.Update(tea.KeyPressMsg{Code: code, Text: k})
			screens = append(screens, tm.View().Content)
		}
		press("", tea.KeyTab)
		for i := 0; i < 8; i++ {
			press("j", 'j')
			press("", tea.KeyEnter)
			press("", tea.KeyEscape)
		}
		press("n", 'n')
		all := strings.Join(screens, "\n")
		if !strings.Contains(all, node[1]) {
			t.Errorf("TUI does not show the node mask %s", node[1])
		}
		for _, s := range secrets {
			if strings.Contains(all, s) {
				t.Errorf("TUI leaks %q", s)
			}
		}
	})
}

func runHostileOut(t *testing.T, args ...string) string {
	t.Helper()
	_, out, _ := runHostile(t, false, nil, args...)
	return out
}
