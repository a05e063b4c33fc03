package cmd

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// eventLine reads what a structured "Event occurred" line says (1.2x+).
var eventLine = regexp.MustCompile(`"Event occurred" object="([^"]*)" fieldPath="([^"]*)" kind="([^"]*)" apiVersion="[^"]*" type="([^"]*)" reason="([^"]*)" message="((?:[^"\\]|\\.)*)"`)

// logEvents counts the events of a kubelet log by object, type, reason and
// message, read with a regular expression from its lines, not by podflow.
func logEvents(t *testing.T, path string) map[string]int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, m := range eventLine.FindAllStringSubmatch(string(data), -1) {
		obj := m[1]
		if _, name, ok := strings.Cut(obj, "/"); ok {
			obj = name
		}
		msg, err := strconv.Unquote(`"` + m[6] + `"`)
		if err != nil {
			t.Fatalf("%s: message %q: %v", path, m[6], err)
		}
		out[m[3]+"/"+obj+" "+m[4]+" "+m[5]+" "+msg]++
	}
	return out
}

// get events lists every event of the log once, with the number of times
// the kubelet recorded it, for pods and the node alike.
func TestGetEventsCountsEveryEvent(t *testing.T) {
	for _, file := range []string{
		"../testdata/corpus/v1.36.3/05-crashloop-backoff.log",
		"../testdata/corpus/v1.36.3/02-image-pull-failure.log",
		"../testdata/corpus/v1.29.15/17-liveness-probe-restart.log",
	} {
		t.Run(file, func(t *testing.T) {
			want := logEvents(t, file)
			if len(want) == 0 {
				t.Fatalf("%s: no event lines", file)
			}
			out, errOut, code := runPodflow(t, false, "get", "events", file, "-o", "json")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var list EventList
			if err := json.Unmarshal([]byte(out), &list); err != nil {
				t.Fatal(err)
			}
			got := map[string]int{}
			last := ""
			for _, e := range list.Items {
				got[e.Object.Kind+"/"+e.Object.Name+" "+e.Type+" "+e.Reason+" "+e.Message] += e.Count
				seen := lastSeen(e.Event).Format("15:04:05.000000")
				if seen < last {
					t.Errorf("%s %s last seen %s after one last seen %s: want oldest first", e.Object.Name, e.Reason, seen, last)
				}
				last = seen
			}
			for k, n := range want {
				if got[k] != n {
					t.Errorf("%s: count %d, want %d (the log's lines)", k, got[k], n)
				}
			}
			for k := range got {
				if want[k] == 0 {
					t.Errorf("%s: listed, but no line records it", k)
				}
			}
		})
	}
}

func TestGetEventsTable(t *testing.T) {
	file := "../testdata/corpus/v1.36.3/05-crashloop-backoff.log"
	out, _, code := runPodflow(t, false, "get", "events", file, "--type", "Warning")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if h := strings.Fields(lines[0]); strings.Join(h, " ") != "LAST SEEN TYPE REASON OBJECT MESSAGE" {
		t.Errorf("header %q", lines[0])
	}
	// The log's two Warning events: the node's CgroupV1, the pod's BackOff
	// (3 times, last ~42 s before the log's end).
	if len(lines) != 3 || !strings.Contains(lines[1], "CgroupV1") || !strings.Contains(lines[2], "BackOff") {
		t.Fatalf("rows:\n%s", out)
	}
	if f := strings.Fields(lines[2]); f[0] != "42s" || f[3] != "pod/worker-5d8f7b9c4-m2v6n" {
		t.Errorf("BackOff row %q: want LAST SEEN 42s (kubectl's age), OBJECT pod/worker-5d8f7b9c4-m2v6n", lines[2])
	}
	// A pod named: its events only, not the node's.
	out, _, _ = runPodflow(t, false, "get", "events", "worker-5d8f7b9c4-m2v6n", file)
	if strings.Contains(out, "node/") || !strings.Contains(out, "Started") {
		t.Errorf("pod's events:\n%s", out)
	}
	out, _, _ = runPodflow(t, false, "get", "events", file, "-o", "wide", "--no-headers", "--type", "Normal")
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.Contains(l, "Container created") && !strings.HasSuffix(l, " 5") {
			t.Errorf("Created row %q: want COUNT 5 (five Created lines)", l)
		}
	}
}

func TestGetEventsErrors(t *testing.T) {
	file := "../testdata/corpus/v1.36.3/05-crashloop-backoff.log"
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--type", "Bogus"}, ExitUsage, `--type "Bogus": allowed: Normal, Warning`},
		{[]string{"no-such-pod-x"}, ExitUsage, `pod "no-such-pod-x" not found`},
		{[]string{"-o", "toml"}, ExitUsage, "toml"},
	} {
		_, errOut, code := runPodflow(t, false, append([]string{"get", "events", file}, tc.args...)...)
		if code != tc.code || !strings.Contains(errOut, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, tc.code, tc.msg)
		}
	}
}
