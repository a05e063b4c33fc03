package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// liveLog is a real kubelet log of one node; its node name is the one
// the log itself gives, so that a read through the API server and a read
// of the file name the node alike.
const (
	liveLog  = corpus + "v1.36.3/04-sandbox-failure.log"
	liveNode = "kb-node-sandboxfail"
)

// fakeAPIServer stands in for the API server on 127.0.0.1 as kubectl
// proxy serves it, proxying the node log query to a kubelet that answers
// with handler, and puts a kubectl in PATH whose proxy serves it (and
// that records its arguments in kubectlArgs). It returns a kubeconfig
// path to pass on and the queries asked.
func fakeAPIServer(t *testing.T, handler func(w http.ResponseWriter, r *http.Request)) (kubeconfig string, asked *[]string) {
	t.Helper()
	var qs []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		qs = append(qs, r.URL.Path+"?"+r.URL.RawQuery)
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	sh := fmt.Sprintf("#!/bin/sh\necho \"$*\" >> %s/args\necho 'Starting to serve on %s'\nexec sleep 60\n", dir, strings.TrimPrefix(srv.URL, "http://"))
	if err := os.WriteFile(filepath.Join(dir, "kubectl"), []byte(sh), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(filepath.ListSeparator)+os.Getenv("PATH"))
	return filepath.Join(dir, "kubeconfig"), &qs
}

// kubectlArgs are the arguments the kubectl of fakeAPIServer was run
// with, a line a run.
func kubectlArgs(t *testing.T, kubeconfig string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(filepath.Dir(kubeconfig), "args"))
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// serveFile is a kubelet that keeps its log in /var/log/kubelet.log: it
// sends the file whole, and refuses options in band as the kubelet does.
func serveFile(t *testing.T, path string) func(w http.ResponseWriter, r *http.Request) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if len(r.URL.Query()) > 1 {
			io.WriteString(w, "\noptions present and query resolved to log files for [kubelet]\ntry without specifying options\n")
			return
		}
		w.Write(b)
	}
}

func runPodflowEnv(t *testing.T, env map[string]string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ioS, _, out, errOut := NewTestIO(false)
	testEnv := ioS.Getenv // NewTestIO's: a redaction key shared by every run
	ioS.Getenv = func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return testEnv(k)
	}
	code = Main(ioS, append([]string{"podflow"}, args...))
	return out.String(), errOut.String(), code
}

// TestLiveNodeReadsAsFile: every command that reads logs prints for
// --node NAME what it prints for the same log read as a file.
func TestLiveNodeReadsAsFile(t *testing.T) {
	kc, asked := fakeAPIServer(t, serveFile(t, liveLog))
	tests := []struct {
		name string
		args []string // the file, or the live flags, are added
	}{
		{"get pods wide", []string{"get", "pods", "-o", "wide"}},
		{"get pods json items", []string{"get", "pods", "-o", "jsonpath={range .items[*]}{.pod.name} {.verdict} {.stage} {.startup}{\"\\n\"}{end}"}},
		{"get nodes", []string{"get", "nodes"}},
		// --redact's masks are keyed by the user's key, never by the
		// input: the same log through the API server gets the same masks.
		{"get pods redact", []string{"get", "pods", "-o", "wide", "--redact"}},
		{"describe pod", []string{"describe", "pod", "payments-7b4d9c8f6-q9zrt", "--evidence", "0"}},
		{"describe node", []string{"describe", "node", liveNode, "--evidence", "0"}},
		{"lines pod", []string{"lines", "pod", "payments-7b4d9c8f6-q9zrt", "--no-prefix"}},
		{"stats", []string{"stats"}},
		{"trace", []string{"trace", "-o", "chrome"}},
		{"check", []string{"check", "--max-startup", "30s"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(append([]string{}, tt.args...), "--year", "2026")
			fileOut, fileErr, fileCode := runPodflowEnv(t, nil, append(args, liveLog)...)
			n := len(*asked)
			live := append(args, "--kubeconfig", kc)
			if tt.args[0] != "describe" || tt.args[1] != "node" {
				live = append(live, "--node", liveNode)
			}
			liveOut, liveErr, liveCode := runPodflowEnv(t, nil, live...)
			// Evidence names its input: the file, or node/NAME.
			fileOut = strings.ReplaceAll(fileOut, liveLog, "node/"+liveNode)
			if liveCode != fileCode || liveOut != fileOut {
				t.Errorf("live (exit %d):\n%s\n%s\nfile (exit %d):\n%s\n%s", liveCode, liveOut, liveErr, fileCode, fileOut, fileErr)
			}
			if len(*asked) != n+1 || (*asked)[n] != "/api/v1/nodes/"+liveNode+"/proxy/logs/?query=kubelet" {
				t.Errorf("asked %q, want one node log query", (*asked)[n:])
			}
			if strings.TrimSpace(fileOut) == "" {
				t.Error("printed nothing")
			}
		})
	}
}

// TestLiveNodeWindow: --since is the query's sinceTime (a duration back
// from now); a node that keeps its log in a file is asked again without
// it, and that is said.
func TestLiveNodeWindow(t *testing.T) {
	t.Run("journald node", func(t *testing.T) {
		log, err := os.ReadFile(liveLog)
		if err != nil {
			t.Fatal(err)
		}
		kc, asked := fakeAPIServer(t, func(w http.ResponseWriter, r *http.Request) { w.Write(log) })
		out, errOut, code := runPodflowEnv(t, nil, "stats", "--node", liveNode, "--kubeconfig", kc, "--since", "10m", "--until", "2026-11-22T11:55:00+01:00", "--pattern", "payments")
		// NewTestIO's clock is 2026-11-22T12:00:00Z.
		want := "/api/v1/nodes/" + liveNode + "/proxy/logs/?pattern=payments&query=kubelet&sinceTime=2026-11-22T11%3A50%3A00Z&untilTime=2026-11-22T10%3A55%3A00Z"
		if code != 2 || len(*asked) != 0 || !strings.Contains(errOut, "--until 2026-11-22T11:55:00+01:00 is before --since 10m") {
			t.Errorf("an --until before --since: exit %d, asked %q: %s", code, *asked, errOut)
		}
		out, errOut, code = runPodflowEnv(t, nil, "stats", "--node", liveNode, "--kubeconfig", kc, "--since", "10m", "--until", "2026-11-22T13:55:00+01:00", "--pattern", "payments")
		want = "/api/v1/nodes/" + liveNode + "/proxy/logs/?pattern=payments&query=kubelet&sinceTime=2026-11-22T11%3A50%3A00Z&untilTime=2026-11-22T12%3A55%3A00Z"
		if code != 0 || len(*asked) != 1 || (*asked)[0] != want {
			t.Errorf("exit %d, asked %q, want %q\n%s%s", code, *asked, want, out, errOut)
		}
	})
	t.Run("file node", func(t *testing.T) {
		kc, asked := fakeAPIServer(t, serveFile(t, liveLog))
		out, errOut, code := runPodflowEnv(t, nil, "get", "pods", "--node", liveNode, "--kubeconfig", kc, "--since", "2026-11-22T06:00:00Z")
		if code != 0 || !strings.Contains(out, "payments-7b4d9c8f6-q9zrt") {
			t.Errorf("exit %d:\n%s%s", code, out, errOut)
		}
		if len(*asked) != 2 || strings.Contains((*asked)[1], "sinceTime") {
			t.Errorf("asked %q, want the window, then the whole file", *asked)
		}
		if !strings.Contains(errOut, "keeps the kubelet log in a file (/var/log)") || !strings.Contains(errOut, "--since, --until and --pattern were not applied on the node") {
			t.Errorf("no note that the window was not applied:\n%s", errOut)
		}
	})
}

// TestLiveNodeRefused: a node that does not serve the query is an input
// error (exit 2) that names the settings to change.
func TestLiveNodeRefused(t *testing.T) {
	tests := []struct {
		name string
		code int
		body string
		want []string
	}{
		{"query off", 200, "<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n<a href=\"journal/\">journal/</a>\n</pre>\n",
			[]string{"node n1: the node log query was refused", "enableSystemLogHandler: true", "enableSystemLogQuery: true", "NodeLogQuery: true", "restart the kubelet", "--journal"}},
		{"handler off", 405, "logs endpoint is disabled.\n", []string{"HTTP 405", "enableSystemLogHandler: true", "enableSystemLogQuery: true"}},
		{"RBAC", 403, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"nodes \"n1\" is forbidden: User \"dev\" cannot get resource \"nodes/proxy\" in API group \"\" at the cluster scope","reason":"Forbidden","details":{"name":"n1","kind":"nodes"},"code":403}`,
			[]string{`cannot get resource \"nodes/proxy\"`, "get on nodes/proxy"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kc, _ := fakeAPIServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.code)
				io.WriteString(w, tt.body)
			})
			for _, cmd := range [][]string{{"get", "pods"}, {"describe", "node", "n1"}, {"lines", "pod", "web"}, {"report", "-o", filepath.Join(t.TempDir(), "r.html")}} {
				args := append(cmd, "--kubeconfig", kc)
				if cmd[0] != "describe" {
					args = append(args, "--node", "n1")
				}
				out, errOut, code := runPodflowEnv(t, nil, args...)
				if code != ExitUsage || out != "" {
					t.Errorf("%s: exit %d, want %d; out %q", cmd[0], code, ExitUsage, out)
				}
				for _, w := range tt.want {
					if !strings.Contains(errOut, strings.ReplaceAll(w, `\"`, `"`)) {
						t.Errorf("%s: stderr lacks %q:\n%s", cmd[0], w, errOut)
					}
				}
			}
		})
	}
}

// TestLiveArgs: the live flags' checks, before anything is asked.
func TestLiveArgs(t *testing.T) {
	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"--kubeconfig with a file", nil, []string{"stats", "--kubeconfig", "kc", liveLog}, ExitUsage, "--kubeconfig: for reading a live node (--node NAME with no input named)"},
		{"live-only --node with a file", nil, []string{"get", "nodes", "--node", "n1", liveLog}, ExitUsage, "--node: for reading a live node"},
		{"live-only --since with a file", nil, []string{"get", "nodes", "--since", "1h", liveLog}, ExitUsage, "--since: for reading a live node"},
		{"--journal with a file", nil, []string{"get", "pods", "--journal", liveLog}, ExitUsage, "--journal reads this machine's journal: name no input with it"},
		{"--journal and --node", nil, []string{"get", "nodes", "--journal", "--node", "n1"}, ExitUsage, "--journal and --node: choose one"},
		{"--journal and --context", nil, []string{"stats", "--journal", "--context", "prod"}, ExitUsage, "--kubeconfig, --context and --pattern are for --node"},
		{"a path as node", nil, []string{"get", "pods", "--node", "../../namespaces/kube-system"}, ExitUsage, "is not a node name"},
		{"bad --since", nil, []string{"get", "pods", "--node", "n1", "--since", "yesterday"}, ExitUsage, `--since "yesterday"`},
		{"-f with --until", nil, []string{"tui", "--node", "n1", "-f", "--until", "1h"}, ExitUsage, "-f follows the log as it grows and --until ends it"},
		// get pods' own --node filters the files named, as before.
		{"get pods --node with a file filters", nil, []string{"get", "pods", "--node", liveNode, liveLog, "-o", "name"}, ExitOK, ""},
	}
	kc, asked := fakeAPIServer(t, func(w http.ResponseWriter, r *http.Request) {})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := map[string]string{}
			for k, v := range tt.env {
				env[k] = strings.ReplaceAll(v, "KC", kc)
			}
			out, errOut, code := runPodflowEnv(t, env, tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d (want %d), stderr:\n%s\nwant %q; out %q", code, tt.code, errOut, tt.want, out)
			}
		})
	}
	if len(*asked) != 0 {
		t.Errorf("asked the API server %q", *asked)
	}
}

// TestLiveKubectl: --node runs kubectl proxy with --kubeconfig and
// --context; without kubectl, or when kubectl fails, the error says so
// (exit 2) and nothing is asked.
func TestLiveKubectl(t *testing.T) {
	kc, asked := fakeAPIServer(t, serveFile(t, liveLog))
	_, errOut, code := runPodflowEnv(t, nil, "get", "pods", "--node", liveNode, "--kubeconfig", kc, "--context", "staging", "-o", "name")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	want := "proxy --port=0 --address=127.0.0.1 --accept-hosts=^127\\.0\\.0\\.1$ --kubeconfig=" + kc + " --context=staging"
	if got := kubectlArgs(t, kc); len(got) != 1 || got[0] != want {
		t.Errorf("kubectl %q, want %q", got, want)
	}

	t.Setenv("PATH", t.TempDir())
	_, errOut, code = runPodflowEnv(t, nil, "get", "pods", "--node", "n1")
	for _, w := range []string{"through kubectl", "kubectl was not found", "install kubectl", "PODFLOW_KUBECTL", "--journal"} {
		if code != ExitUsage || !strings.Contains(errOut, w) {
			t.Errorf("without kubectl: exit %d, stderr lacks %q:\n%s", code, w, errOut)
		}
	}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "kubectl"), []byte("#!/bin/sh\necho 'error: context \"prod\" does not exist' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// PODFLOW_KUBECTL names another kubectl (oc, a path): this one fails.
	t.Setenv("PATH", t.TempDir())
	_, errOut, code = runPodflowEnv(t, map[string]string{"PODFLOW_KUBECTL": filepath.Join(dir, "kubectl")}, "stats", "--node", "n1", "--context", "prod")
	if code != ExitUsage || !strings.Contains(errOut, `kubectl proxy (--context=prod) failed: error: context "prod" does not exist`) {
		t.Errorf("kubectl failing: exit %d:\n%s", code, errOut)
	}
	if len(*asked) != 1 {
		t.Errorf("asked %q, want the one query of the first run", *asked)
	}
}

// journalEntries writes log's lines as journalctl -o json entries of
// host's kubelet unit (the klog times, read in UTC, as the entries'
// times).
func journalEntries(t *testing.T, log, host string, year int) []byte {
	t.Helper()
	f, err := os.Open(log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out bytes.Buffer
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	last := time.Time{}
	for sc.Scan() {
		line := sc.Text()
		if len(line) > 21 {
			if at, err := time.Parse("0102 15:04:05.000000", line[1:21]); err == nil {
				last = at.AddDate(year, 0, 0)
			}
		}
		e, _ := json.Marshal(map[string]string{
			"__REALTIME_TIMESTAMP": fmt.Sprint(last.UnixMicro()),
			"_HOSTNAME":            host,
			"SYSLOG_IDENTIFIER":    "kubelet",
			"_SYSTEMD_UNIT":        "kubelet.service",
			"MESSAGE":              line,
		})
		out.Write(e)
		out.WriteByte('\n')
	}
	return out.Bytes()
}

// TestJournalReadsAsFile: --journal runs journalctl (here a script in
// PATH that prints the log as journal entries and its arguments) and
// reads what it prints as the log itself.
func TestJournalReadsAsFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "entries.json"), journalEntries(t, liveLog, liveNode, 2026), 0o644); err != nil {
		t.Fatal(err)
	}
	sh := fmt.Sprintf("#!/bin/sh\necho \"$*\" > %s/args\ncat %s/entries.json\n", dir, dir)
	if err := os.WriteFile(filepath.Join(dir, "journalctl"), []byte(sh), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(filepath.ListSeparator)+os.Getenv("PATH"))
	fileOut, _, fileCode := runPodflowEnv(t, nil, "get", "pods", "-o", "wide", "--year", "2026", liveLog)
	out, errOut, code := runPodflowEnv(t, nil, "get", "pods", "-o", "wide", "--journal", "--since", "6h")
	if code != fileCode || out != fileOut {
		t.Errorf("--journal (exit %d):\n%s%s\nfile (exit %d):\n%s", code, out, errOut, fileCode, fileOut)
	}
	args, err := os.ReadFile(filepath.Join(dir, "args"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "--no-pager --output=json --all --unit=kubelet --unit=containerd --unit=crio --since=2026-11-22 06:00:00 UTC\n"; string(args) != want {
		t.Errorf("journalctl %s, want %s", args, want)
	}

	t.Setenv("PATH", t.TempDir())
	_, errOut, code = runPodflowEnv(t, nil, "stats", "--journal")
	if code != ExitUsage || !strings.Contains(errOut, "journalctl not found") || !strings.Contains(errOut, "--node NAME") {
		t.Errorf("without journalctl: exit %d, %s", code, errOut)
	}
}
