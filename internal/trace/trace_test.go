package trace

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/timeline"
)

func TestLaneSpans(t *testing.T) {
	parent := span{name: "pod", from: 10, to: 100}
	type kept struct {
		from, to int64
		lane     int
	}
	tests := []struct {
		name     string
		children []span
		want     []kept
	}{
		{"sequential in one lane", []span{{from: 10, to: 20}, {from: 20, to: 50}}, []kept{{10, 20, 0}, {20, 50, 0}}},
		{"clipped to the parent", []span{{from: 0, to: 20}, {from: 90, to: 200}}, []kept{{10, 20, 0}, {90, 100, 0}}},
		{"an overlap keeps its times in a lane of its own", []span{{from: 10, to: 40}, {from: 30, to: 60}}, []kept{{10, 40, 0}, {30, 60, 1}}},
		{"a swallowed child is kept too", []span{{from: 10, to: 60}, {from: 20, to: 50}, {from: 60, to: 70}}, []kept{{10, 60, 0}, {20, 50, 1}, {60, 70, 0}}},
		{"outside the parent: dropped", []span{{from: 0, to: 5}, {from: 10, to: 20}}, []kept{{10, 20, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, lanes := laneSpans(parent, tt.children)
			if out[0].name != "pod" || lanes[0] != 0 || len(out) != len(lanes) {
				t.Fatalf("the parent is not first in lane 0: %+v %v", out, lanes)
			}
			var got []kept
			for i, s := range out[1:] {
				got = append(got, kept{s.from, s.to, lanes[i+1]})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("children %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTraceID(t *testing.T) {
	uuid := &timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "a", UID: "0380DDEC-5D83-4B90-989E-E5515152B65D"}}
	if got := TraceID(uuid); got != "0380ddec5d834b90989ee5515152b65d" {
		t.Errorf("a UUID gives %q", got)
	}
	static := &timeline.Flow{Pod: timeline.PodRef{Namespace: "kube-system", Name: "etcd-node", UID: "c0ffee"}}
	again := *static
	again.Incarnation = 2
	if a, b := TraceID(static), TraceID(&again); len(a) != 32 || a == b {
		t.Errorf("hashed trace IDs %q and %q: want 32 hex digits, one per incarnation", a, b)
	}
}

func TestChromeInstants(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	at := func(ms int) *time.Time { v := t0.Add(time.Duration(ms) * time.Millisecond); return &v }
	ev := func(ms int, line int64, text string) timeline.Evidence {
		return timeline.Evidence{Input: "k.log", Line: line, Time: *at(ms), Text: text}
	}
	f := timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "web"}, Node: "n1", Start: t0, End: *at(9000),
		Stages: []timeline.Stage{{ID: timeline.StSandbox, Status: timeline.StatusDone, Attempts: 1, Start: at(0), End: at(3000), Evidence: []timeline.Evidence{
			ev(100, 1, "No sandbox for pod can be found"), ev(1000, 2, "Failed to create sandbox for pod: network not ready"), ev(3000, 3, "Created PodSandbox for pod")}}},
		Containers: []timeline.Container{{Name: "app", Stages: []timeline.Stage{{ID: timeline.CStStarted, Status: timeline.StatusFailed, Start: at(4000), End: at(9000), Evidence: []timeline.Evidence{
			ev(5000, 9, "Event BackOff: Back-off restarting failed container app")}}}}},
	}
	tr := BuildChrome([]timeline.Flow{f})
	if tr.OtherData["startTime"] != "2026-11-22T06:00:00Z" || tr.OtherData["startTimeUnixMicros"] != t0.UnixMicro() {
		t.Errorf("otherData %v", tr.OtherData)
	}
	type instant struct {
		name       string
		ts         int64
		tid        int
		stage, loc string
	}
	var got []instant
	for _, e := range tr.TraceEvents {
		if e.Ph == "i" {
			got = append(got, instant{e.Name, e.Ts, e.Tid, e.Args["stage"].(string), e.Args["line"].(string)})
		}
	}
	want := []instant{{InstantFailed, 1000000, 1, "sandbox", "k.log:2"}, {InstantBackOff, 5000000, 2, "started", "k.log:9"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("instants %+v, want %+v", got, want)
	}
	if empty := ChromeEnvelope(nil); empty.OtherData != nil {
		t.Errorf("a trace of no pods has a start: %v", empty.OtherData)
	}
}

// TestAppendJSONMatchesEncoder holds the hand-written event and span
// encoders to encoding/json's Encoder (SetIndent, no HTML escapes) on
// every field present and absent and on text that needs escapes.
func TestAppendJSONMatchesEncoder(t *testing.T) {
	texts := []string{"", "plain", `say "hi" \ back`, "tab\tnl\ncr\r\b\f\x01\x1f\x7f", "<&>", "café ☃ 😀", "bad\xffutf8\xc3", "ls\u2028ps\u2029", "\u00a0"}
	for _, prefix := range []string{"", "    ", "      "} {
		for _, s := range texts {
			d := int64(-7)
			evs := []ChromeEvent{
				{Name: s, Ph: "M", Pid: 1, Args: map[string]any{"name": s, "sort_index": 3}},
				{Name: s, Cat: s, Ph: "X", Ts: 123456789, Dur: &d, Pid: 2, Tid: 9, Args: map[string]any{"z": s, "a": 1, "m": true, "n": int64(5), "x": []string{s}, "y": map[string]int{"k": 1}}},
				{Name: s, Cat: "failure", Ph: "i", S: "t", Ts: -3},
				{Name: s, Args: map[string]any{}},
				{Name: s, Args: map[string]any{s: s, "k": s}}, // a key to escape
			}
			for i := range evs {
				checkAppend(t, &evs[i], prefix, evs[i].AppendJSON)
			}
		}
	}
}

func checkAppend(t *testing.T, v any, prefix string, appendJSON func([]byte, string) []byte) {
	t.Helper()
	want := encoded(t, v, prefix)
	if got := string(appendJSON([]byte("x"), prefix)); got != "x"+want {
		t.Errorf("prefix %q:\n got %s\nwant %s", prefix, got[1:], want)
	}
}

// encoded is v as encoding/json's Encoder writes it with SetIndent(prefix,
// "  ") and SetEscapeHTML(false), without the final newline.
func encoded(t *testing.T, v any, prefix string) string {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent(prefix, "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestSpanAppenderMatchesSpans holds SpanAppender to encoding/json's
// bytes for the spans Spans builds, span for span, on pods of every verdict, with
// stages open and closed, failed attempts, init containers under their
// group's span or the root, images, and text to escape or to sanitise.
func TestSpanAppenderMatchesSpans(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	at := func(ms int) *time.Time { v := t0.Add(time.Duration(ms) * time.Millisecond); return &v }
	for _, odd := range []string{"we\"ird\\ \x1b[31mname\u202e ☃", "tab\tnl\ncr\r\b\f\x01\x1f\x7f", "<&>", "café ☃ 😀", "bad\xffutf8\xc3", "ls\u2028ps\u2029", "\u00a0"} {
		checkSpanAppender(t, odd, at)
	}
}

func checkSpanAppender(t *testing.T, odd string, at func(int) *time.Time) {
	t.Helper()
	t0 := *at(0)
	full := timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "web", UID: "0380ddec-5d83-4b90-989e-e5515152b65d"}, Node: "n1",
		Start: t0, End: *at(9000), Verdict: timeline.VerdictStalled, Reason: "image pull: " + odd,
		Stages: []timeline.Stage{
			{ID: timeline.StSandbox, Status: timeline.StatusDone, Attempts: 2, Start: at(0), End: at(3000)},
			{ID: timeline.StInitContainers, Status: timeline.StatusDone, Start: at(3000), End: at(3500)},
			{ID: timeline.StContainers, Status: timeline.StatusStalled, Reason: odd, Start: at(3500)},
			{ID: timeline.StRunning},
		},
		Containers: []timeline.Container{
			{Name: "init", Type: timeline.ContainerInit, Image: "busybox", Stages: []timeline.Stage{{ID: timeline.CStStarted, Status: timeline.StatusDone, Start: at(3100), End: at(3400)}}},
			{Name: odd, Image: odd, Stages: []timeline.Stage{
				{ID: timeline.CStImage, Status: timeline.StatusFailed, Attempts: 3, Start: at(3600)},
				{ID: timeline.CStStarted}}},
		},
	}
	bare := timeline.Flow{Pod: timeline.PodRef{Namespace: "kube-system", Name: "etcd-node", UID: "c0ffee"}, Incarnation: 2, Verdict: timeline.VerdictIncomplete,
		Containers: []timeline.Container{{Name: "etcd", Stages: []timeline.Stage{{ID: timeline.CStCreated, Status: timeline.StatusFailed, Start: at(5)}}}}}
	noUID := timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "job"}, Verdict: timeline.VerdictCompleted, Start: t0, End: *at(1)}
	failed := full
	failed.Verdict = timeline.VerdictFailed
	for _, f := range []timeline.Flow{full, bare, noUID, failed} {
		for _, prefix := range []string{"", "        "} {
			var want []string
			for _, sp := range Spans(&f) {
				want = append(want, encoded(t, &sp, prefix))
			}
			var got []string
			var a SpanAppender
			for range 2 { // and again, on the buffers of the first
				got = got[:0]
				err := a.Each(&f, func(item func([]byte, string) []byte) error {
					got = append(got, string(item([]byte{}, prefix)))
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s, prefix %q:\n got %q\nwant %q", f.Pod.Name, prefix, got, want)
				}
			}
		}
	}
}
