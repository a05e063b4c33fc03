package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

func TestNewCmdTUI(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		speed   float64
		replay  bool
		follow  bool
		wantErr bool
	}{
		{name: "file", args: []string{"kubelet.log"}, speed: 20},
		{name: "replay speed", args: []string{"--replay", "--speed", "50x", "a.log"}, speed: 50, replay: true},
		{name: "follow stdin", args: []string{"-f", "-"}, speed: 20, follow: true},
		{name: "no input", args: []string{}, wantErr: true},
		{name: "speed without replay", args: []string{"--speed", "5x", "a.log"}, wantErr: true},
		{name: "bad speed", args: []string{"--replay", "--speed", "fast", "a.log"}, wantErr: true},
		{name: "bad color", args: []string{"--color", "pink", "a.log"}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ioS, _, _, _ := NewTestIO(false)
			var got *TUIOptions
			c := NewCmdTUI(ioS, func(o *TUIOptions) error { got = o; return nil })
			c.SetArgs(tt.args)
			c.SilenceErrors, c.SilenceUsage = true, true
			err := c.Execute()
			if tt.wantErr {
				if err == nil {
					t.Fatal("want an error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.speed != tt.speed || got.Replay != tt.replay || got.Follow != tt.follow {
				t.Errorf("got speed %v replay %v follow %v", got.speed, got.Replay, got.Follow)
			}
		})
	}
}

// The TUI's pages of a pod (d, l, y) are the CLI's own text: describe pod
// as a 120-column terminal prints it, lines pod (and --stage), and the
// pod's item of get pods -o json and -o yaml.
func TestTUIPagesAreTheCLIs(t *testing.T) {
	log := corpus + "v1.36.3/04-sandbox-failure.log"
	name := "payments-7b4d9c8f6-q9zrt"
	ioS, _, _, _ := NewTestIO(true)
	a, err := Analyze(ioS, []string{log}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	f := &a.Flows.Items[0]
	if f.Pod.Name != name {
		t.Fatalf("first pod %s", f.Pod.Name)
	}
	opts := tuiOptions(&TUIOptions{IO: ioS, Paths: []string{log}}, ioS.In, time.UTC, nil, false)

	want, errOut, code := runPodflow(t, true, "describe", "pod", name, log, "--color", "never")
	if code != 0 {
		t.Fatalf("describe pod: exit %d: %s", code, errOut)
	}
	got, err := opts.Describe(f, a.Flows, a.Sources, 120)
	if err != nil || got != want {
		t.Errorf("describe page (err %v) differs from describe pod:\n--- page\n%s\n--- describe pod\n%s", err, got, want)
	}

	for _, stage := range []string{"", "sandbox"} {
		args := []string{"lines", "pod", name, log}
		if stage != "" {
			args = append(args, "--stage", stage)
		}
		want, errOut, code := runPodflow(t, false, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		got, err := opts.Lines(f, a.Sources, stage)
		if err != nil || got != want {
			t.Errorf("lines page, stage %q (err %v): %d lines, lines pod %d", stage, err, strings.Count(got, "\n"), strings.Count(want, "\n"))
		}
	}

	list, errOut, code := runPodflow(t, false, "get", "pods", log, "-o", "json")
	if code != 0 {
		t.Fatalf("get pods -o json: exit %d: %s", code, errOut)
	}
	var fl struct{ Items []any }
	if err := json.Unmarshal([]byte(list), &fl); err != nil || len(fl.Items) != 1 {
		t.Fatalf("get pods -o json: %v, %d items", err, len(fl.Items))
	}
	for _, format := range []string{"json", "yaml"} {
		text, err := opts.Object(f, format)
		if err != nil {
			t.Fatal(err)
		}
		var item any
		if format == "json" {
			err = json.Unmarshal([]byte(text), &item)
		} else {
			err = yaml.Unmarshal([]byte(text), &item)
			item = jsonish(item)
		}
		if err != nil || !reflect.DeepEqual(item, jsonish(fl.Items[0])) {
			t.Errorf("-o %s page (err %v) is not get pods' item:\n%s", format, err, text)
		}
	}
}

// jsonish is v as JSON decodes it (numbers float64, maps string-keyed).
func jsonish(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return err.Error()
	}
	var out any
	json.Unmarshal(b, &out)
	return out
}

// Bad input is reported by tui as by get pods, before any screen opens
// (nothing on standard output), with the same message and exit code: a
// missing path, a file that is not a log, an empty standard input.
func TestTUIBadInputLikeTheCLI(t *testing.T) {
	notLog := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(notLog, []byte("shopping list\neggs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"/nonexistent"}, {notLog}, {"-"}, {"/nonexistent", notLog}} {
		run := func(cmd ...string) (string, string, int) {
			ioS, _, out, errOut := NewTestIO(false)
			code := Main(ioS, append(append([]string{"podflow"}, cmd...), args...))
			return out.String(), errOut.String(), code
		}
		_, wantErr, wantCode := run("get", "pods")
		out, errOut, code := run("tui")
		if code != wantCode || errOut != wantErr || out != "" {
			t.Errorf("tui %v: exit %d, stderr %q, stdout %q\nget pods: exit %d, stderr %q", args, code, errOut, out, wantCode, wantErr)
		}
	}
}
