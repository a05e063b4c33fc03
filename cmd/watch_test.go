package cmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// watched runs the real binary (get pods -w, lines pod -f run until
// Ctrl-C) and gathers what it prints as it prints it.
type watched struct {
	t        *testing.T
	cmd      *exec.Cmd
	mu       sync.Mutex
	out, err bytes.Buffer
	done     chan error
}

func startWatched(t *testing.T, bin string, args ...string) *watched {
	t.Helper()
	return startWatchedIn(t, nil, bin, args...)
}

// startWatchedIn is startWatched with stdin as the command's standard
// input (nil: none).
func startWatchedIn(t *testing.T, stdin io.Reader, bin string, args ...string) *watched {
	t.Helper()
	w := &watched{t: t, cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	w.cmd.Stdin = stdin
	stdout, err := w.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := w.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var copies sync.WaitGroup
	for _, p := range []struct {
		r   *bufio.Reader
		dst *bytes.Buffer
	}{{bufio.NewReader(stdout), &w.out}, {bufio.NewReader(stderr), &w.err}} {
		copies.Add(1)
		go func() {
			defer copies.Done()
			for {
				line, err := p.r.ReadBytes('\n')
				w.mu.Lock()
				p.dst.Write(line)
				w.mu.Unlock()
				if err != nil {
					return
				}
			}
		}()
	}
	go func() {
		copies.Wait() // (Wait closes the pipes: read them to their end first)
		w.done <- w.cmd.Wait()
	}()
	t.Cleanup(func() { w.cmd.Process.Kill() })
	return w
}

// until waits, generously (a loaded 2-core machine), until what was
// printed on standard output (and error) so far satisfies ok.
func (w *watched) until(what string, ok func(out, errOut string) bool) {
	w.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		w.mu.Lock()
		out, errOut := w.out.String(), w.err.String()
		w.mu.Unlock()
		if ok(out, errOut) {
			return
		}
		if time.Now().After(deadline) {
			w.t.Fatalf("%s: never came; stdout:\n%s\nstderr:\n%s", what, out, errOut)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// interrupt sends Ctrl-C (SIGINT) and wants exit status 0.
func (w *watched) interrupt() {
	w.t.Helper()
	if err := w.cmd.Process.Signal(os.Interrupt); err != nil {
		w.t.Fatal(err)
	}
	select {
	case err := <-w.done:
		if err != nil {
			w.t.Errorf("after Ctrl-C: %v (want exit status 0); stderr:\n%s", err, w.err.String())
		}
	case <-time.After(30 * time.Second):
		w.t.Fatalf("Ctrl-C did not end it")
	}
}

func appendTo(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
}

// linesOf splits raw after each line: lines[i] is line i+1 of raw.
func linesOf(raw []byte) [][]byte { return bytes.SplitAfter(raw, []byte("\n")) }

// get pods -w and lines pod -f on a log written as a quiet kubelet writes
// it (the slow image pull of the corpus, appended in chunks, a line at
// a time, then rotated): each shows what is appended, one pod stays one
// pod across the rotation, terminal control sequences in the log never
// reach the output, and Ctrl-C ends them with exit status 0.
func TestWatchAndFollowCommands(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "podflow")
	build := exec.Command("go", "build", "-o", bin, "./cmd/podflow")
	build.Dir = ".."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	raw, err := os.ReadFile(corpus + "v1.36.3/03-slow-image-pull.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := linesOf(raw)
	join := func(from, to int) []byte { return bytes.Join(lines[from:min(to, len(lines))], nil) }
	const pod = "web-slowpull-58c9d-7hxkq"
	// A line of the pod's whose text carries terminal control sequences
	// (a colour, a window title): they must not reach the terminal.
	hostile := []byte("I1122 06:07:34.200000   27125 kubelet.go:2737] \"probe said \x1b[31mred\x1b[0m \x1b]0;pwned\x07done\" pod=\"default/" + pod + "\"\n")

	t.Run("get pods -w", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "kubelet.log")
		if err := os.WriteFile(path, join(0, 1500), 0o644); err != nil {
			t.Fatal(err)
		}
		w := startWatched(t, bin, "get", "pods", "-w", "--year", "2026", path)
		w.until("the table", func(out, _ string) bool {
			return strings.Contains(out, "NAME") && strings.Contains(out, pod) && strings.Contains(out, "Incomplete")
		})
		// The rest of the pull, in chunks of 25 lines.
		for i := 1500; i < 1700; i += 25 {
			appendTo(t, path, join(i, i+25))
		}
		w.until("a row again: the pod running", func(out, _ string) bool { return strings.Count(out, pod) >= 2 && strings.Contains(out, "Running") })
		// Rotated: renamed, the rest in a new file.
		if err := os.Rename(path, path+".1"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, append(hostile, join(1700, len(lines))...), 0o644); err != nil {
			t.Fatal(err)
		}
		w.until("the rotation read and the pod ready", func(out, errOut string) bool {
			return strings.Contains(errOut, "was rotated") && strings.Contains(out, " ready ")
		})
		w.interrupt()
		out := w.out.String()
		if strings.Contains(out, "#2") {
			t.Errorf("a pod shown twice after the rotation:\n%s", out)
		}
		if strings.ContainsAny(out+w.err.String(), "\x1b\x07") {
			t.Errorf("terminal control sequences in the output:\n%q", out)
		}
		if n := strings.Count(out, "NAMESPACE"); n != 1 {
			t.Errorf("%d headers: rows after the table come without one, as kubectl's", n)
		}
	})

	// `journalctl -fu kubelet | podflow get pods -w -`: the table once the
	// pipe is first quiet, then a row each time the pod changes, each as
	// soon as the line that changes it is written (not when the next one
	// comes: the writer waits for the row before it writes on), and the
	// watch ends when the pipe does.
	t.Run("get pods -w -", func(t *testing.T) {
		pr, pw := io.Pipe()
		defer pw.Close()
		w := startWatchedIn(t, pr, bin, "get", "pods", "-w", "--year", "2026", "-")
		go pw.Write(join(0, 1500))
		w.until("the table", func(out, _ string) bool {
			return strings.Contains(out, "NAME") && strings.Contains(out, pod) && strings.Contains(out, "Incomplete")
		})
		// Up to the line before the one that moves the pod on to its
		// running stage (line 1683, a container started): no change.
		if _, err := pw.Write(join(1500, 1682)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		w.mu.Lock()
		out := w.out.String()
		w.mu.Unlock()
		if n := strings.Count(out, pod); n != 1 {
			t.Fatalf("%d rows of the pod before line 1683, want 1:\n%s", n, out)
		}
		// Line 1683 alone: the pod's row again, with nothing after it.
		if _, err := pw.Write(lines[1682]); err != nil {
			t.Fatal(err)
		}
		w.until("a row again after line 1683", func(out, _ string) bool {
			return strings.Count(out, pod) == 2 && strings.Contains(out, " running ")
		})
		if _, err := pw.Write(join(1683, len(lines))); err != nil {
			t.Fatal(err)
		}
		w.until("the pod ready", func(out, _ string) bool { return strings.Contains(out, " ready ") })
		pw.Close()
		select {
		case err := <-w.done:
			if err != nil {
				t.Errorf("when the pipe ended: %v (want exit status 0); stderr:\n%s", err, w.err.String())
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("the watch did not end with the pipe")
		}
		if n := strings.Count(w.out.String(), "NAMESPACE"); n != 1 {
			t.Errorf("%d headers, want 1", n)
		}
	})

	// get pods -w -o json|yaml|name, as kubectl's watch prints them: a
	// document (or name) per pod at first, then one per change, each the
	// pod as get pods -o json prints it as of that line (the JSON one
	// document after another, the YAML separated by ---).
	for _, format := range []string{"json", "yaml", "name"} {
		t.Run("get pods -w -o "+format, func(t *testing.T) {
			// What get pods says of the pod after line 1683 (once, not following).
			once := exec.Command(bin, "get", "pods", "--year", "2026", "-o", "json", "-")
			once.Stdin = bytes.NewReader(join(0, 1683))
			b, err := once.Output()
			if err != nil {
				t.Fatal(err)
			}
			var list struct {
				Items []map[string]any `json:"items"`
			}
			if err := json.Unmarshal(b, &list); err != nil || len(list.Items) != 1 {
				t.Fatalf("get pods -o json on 1683 lines: %v, %d items", err, len(list.Items))
			}
			wantStatus := list.Items[0]["status"]

			pr, pw := io.Pipe()
			defer pw.Close()
			w := startWatchedIn(t, pr, bin, "get", "pods", "-w", "--year", "2026", "-o", format, "-")
			go pw.Write(join(0, 1682))
			w.until("the first", func(out, _ string) bool { return strings.Contains(out, pod) })
			if _, err := pw.Write(lines[1682]); err != nil {
				t.Fatal(err)
			}
			w.until("a second", func(out, _ string) bool {
				return strings.Count(out, "/"+pod) == 2 || strings.Count(out, "name: "+pod) == 2 || strings.Count(out, `"name": "`+pod) == 2
			})
			pw.Close()
			select {
			case <-w.done:
			case <-time.After(30 * time.Second):
				t.Fatalf("the watch did not end with the pipe")
			}
			out := w.out.String()
			var docs []map[string]any
			switch format {
			case "json":
				dec := json.NewDecoder(strings.NewReader(out))
				for {
					var d map[string]any
					if err := dec.Decode(&d); err == io.EOF {
						break
					} else if err != nil {
						t.Fatalf("not a JSON document after %d: %v\n%s", len(docs), err, out)
					}
					docs = append(docs, d)
				}
			case "yaml":
				for _, part := range strings.Split(out, "---\n") {
					var d map[string]any
					if err := yaml.Unmarshal([]byte(part), &d); err != nil {
						t.Fatalf("not a YAML document: %v\n%s", err, part)
					}
					docs = append(docs, d)
				}
			case "name":
				if want := "pod/default/" + pod + "\n"; out != want+want {
					t.Errorf("-o name printed %q, want the name twice", out)
				}
				return
			}
			if len(docs) != 2 {
				t.Fatalf("%d documents, want 2:\n%s", len(docs), out)
			}
			for i, want := range []any{"PodInitializing", wantStatus} {
				d := docs[i]
				if d["kind"] != "Flow" || d["apiVersion"] != "podflow/v1" || d["status"] != want {
					t.Errorf("document %d: kind %v, apiVersion %v, status %v; want a podflow/v1 Flow, status %v", i, d["kind"], d["apiVersion"], d["status"], want)
				}
				if p, _ := d["pod"].(map[string]any); p == nil || p["name"] != pod {
					t.Errorf("document %d is not of the pod: %v", i, d["pod"])
				}
			}
		})
	}

	t.Run("lines pod -f", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "kubelet.log")
		if err := os.WriteFile(path, join(0, 1500), 0o644); err != nil {
			t.Fatal(err)
		}
		w := startWatched(t, bin, "lines", "pod", pod, "-f", "--year", "2026", path)
		w.until("the pod's lines", func(out, _ string) bool { return strings.Contains(out, "kubelet.log:955:") })
		// One line: the pull's end, named by the pod, alone and nothing after.
		appendTo(t, path, lines[1648])
		w.until("the line appended", func(out, _ string) bool {
			return strings.Contains(out, "kubelet.log:1501:") && strings.Contains(out, "Successfully pulled image")
		})
		// One line with control sequences in its text.
		appendTo(t, path, hostile)
		w.until("the hostile line, cleaned", func(out, _ string) bool { return strings.Contains(out, "kubelet.log:1502:") })
		// Rotated: the rest of the log in a new file, read from its start.
		if err := os.Rename(path, path+".1"); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, join(1700, len(lines)), 0o644); err != nil {
			t.Fatal(err)
		}
		var want string
		for i, l := range lines[1700:] {
			if bytes.Contains(l, []byte(pod)) {
				want = "kubelet.log:" + strconv.Itoa(i+1) + ":"
				break
			}
		}
		w.until("the rotated file's first line of the pod ("+want+")", func(out, errOut string) bool {
			return strings.Contains(out, want) && strings.Contains(errOut, "was rotated")
		})
		w.interrupt()
		out := w.out.String()
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("terminal control sequences in the output:\n%q", out)
		}
		if !strings.Contains(out, `kubelet.log:1502:I1122 06:07:34.200000   27125 kubelet.go:2737] "probe said red done"`) {
			t.Errorf("the hostile line's text is not printed:\n%s", out)
		}
		if n := strings.Count(out, "kubelet.log:1501:"); n != 1 {
			t.Errorf("the appended line printed %d times, want once", n)
		}
	})
}
