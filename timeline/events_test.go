package timeline

import (
	"bytes"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/parser"
)

// eventRecords are events of three pods, each several times: short
// messages, one past maxInternLen (kept cut, never interned), one with an
// error (its evidence text says it), pulls, and a container's failures.
func eventRecords() []*parser.Record {
	long := `Failed to pull image "x": ` + strings.Repeat("rpc error: code = Unknown desc = layer unknown; ", 12)
	events := []struct{ typ, reason, message, fieldPath, err string }{
		{"Warning", "FailedMount", "MountVolume.SetUp failed for volume secret", "", "boom"},
		{"Warning", "FailedMount", "MountVolume.SetUp failed for volume secret", "", ""},
		{"Normal", "Pulling", `Pulling image "nginx:1.27"`, "spec.containers{nginx}", ""},
		{"Normal", "Pulled", `Successfully pulled image "nginx:1.27" in 1.2s`, "spec.containers{nginx}", ""},
		{"Normal", "Pulled", `Container image "busybox" already present on machine`, "spec.initContainers{init}", ""},
		{"Normal", "Created", "Container created", "spec.containers{nginx}", ""},
		{"Normal", "Started", "Container started", "spec.containers{nginx}", ""},
		{"Warning", "Failed", long, "spec.containers{nginx}", ""},
		{"Warning", "BackOff", "Back-off restarting failed container nginx", "spec.containers{nginx}", ""},
		{"Normal", "Killing", "Stopping container nginx", "spec.containers{nginx}", ""},
		{"Warning", "FailedMount", `MountVolume.SetUp failed for volume "config"`, "", ""},
	}
	str := func(k, v string) parser.Field {
		return parser.Field{Key: k, Raw: strconv.Quote(v), Value: parser.Value{Kind: parser.KindString, Str: v}}
	}
	pods := []string{"default/a", "default/b", "shop/c"}
	t := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	add := &parser.Record{Time: t, Format: parser.FormatKlog, Verbosity: -1, Msg: "SyncLoop ADD", Pos: parser.Position{Input: "events", Line: 1}}
	list := parser.Value{Kind: parser.KindList}
	for _, pod := range pods {
		list.List = append(list.List, parser.Value{Kind: parser.KindString, Str: pod})
	}
	add.Fields = []parser.Field{str("source", "api"), {Key: "pods", Value: list}}
	recs := []*parser.Record{add}
	for round := range 3 {
		for p, pod := range pods {
			for i, e := range events {
				t = t.Add(time.Duration(round*7+p*3+i) * time.Millisecond)
				rec := &parser.Record{Time: t, Format: parser.FormatKlog, Verbosity: -1, Msg: "Event occurred", Err: e.err,
					Pos: parser.Position{Input: "events", Line: int64(len(recs) + 1)}}
				rec.Fields = []parser.Field{str("object", pod), str("fieldPath", e.fieldPath), str("kind", "Pod"),
					str("type", e.typ), str("reason", e.reason), str("message", e.message)}
				recs = append(recs, rec)
			}
		}
	}
	return recs
}

// An event's words are read once per distinct text (eventWords): what
// the builder concludes must be what it concludes reading them anew for
// every event (the reference), also once the intern table is full and
// new texts are kept uninterned.
func TestEventWordsMatchReference(t *testing.T) {
	for _, full := range []bool{false, true} {
		t.Run("full="+strconv.FormatBool(full), func(t *testing.T) {
			fast, ref := NewBuilder(Options{}), NewBuilder(Options{})
			ref.setReference()
			for _, b := range []*Builder{fast, ref} {
				for i := 0; full && !b.texts.Full(); i++ {
					b.texts.AddWord("filler " + strconv.Itoa(i))
				}
			}
			var events int
			for _, rec := range eventRecords() {
				fast.Add(rec)
				ref.Add(rec)
			}
			got, want := fast.Finish(), ref.Finish()
			for _, it := range got.Items {
				events += len(it.Events)
			}
			gj, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			wj, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(gj, wj) {
				t.Fatalf("with the memo:\n%s\nreading anew:\n%s", gj, wj)
			}
			// The events were kept: three pods, each with its own, an event
			// seen in each of the three rounds counted three times.
			if len(got.Items) != 3 || events < 3*8 {
				t.Fatalf("%d pods with %d events; want 3 pods with their events", len(got.Items), events)
			}
			for _, it := range got.Items {
				for _, e := range it.Events {
					if e.Reason == "Pulling" && e.Count != 3 {
						t.Errorf("%s: %d Pulling events counted; want 3", it.Pod.Key(), e.Count)
					}
				}
			}
			// An event's error is in the evidence text it gives, not in the
			// one the same words give without an error.
			if !bytes.Contains(gj, []byte("volume secret: boom")) || !bytes.Contains(gj, []byte(`"Event FailedMount: MountVolume.SetUp failed for volume secret"`)) {
				t.Errorf("evidence texts of the failed mount with and without an error: want both in\n%s", gj)
			}
		})
	}
}

// TestEventTableStartsPods: a pasted events table (kubectl describe pod,
// get events) is all some threads show; its rows start the pod they name
// and place it at their times, and the kubelet's messages name the
// container where the table has no field path (kuberuntime_container.go:
// "Created container %s", "Started container %s"; the prober's
// "Container %s failed liveness probe, will be restarted").
func TestEventTableStartsPods(t *testing.T) {
	data, err := os.ReadFile("../testdata/formats/events/describe-pod.txt")
	if err != nil {
		t.Fatal(err)
	}
	f := onlyFlow(t, buildBytes(t, "describe-pod.txt", data), "web-7d9f8c6b5-x2kqp")
	if f.Start.IsZero() || time.Duration(f.Duration) > 10*time.Minute || len(f.Events) == 0 {
		t.Errorf("start %v, duration %s, %d events: want the rows' span", f.Start, time.Duration(f.Duration), len(f.Events))
	}
	table := strings.Join([]string{
		"Name:         app-0",
		"Namespace:    demo",
		"Events:",
		"  Type     Reason     Age   From     Message",
		"  ----     ------     ----  ----     -------",
		"  Normal   Pulled     50s   kubelet  Container image \"busybox:1.36\" already present on machine",
		"  Normal   Created    50s   kubelet  Created container app",
		"  Normal   Started    49s   kubelet  Started container: app",
		"  Warning  Unhealthy  20s   kubelet  Liveness probe failed: HTTP probe failed with statuscode: 500",
		"  Normal   Killing    20s   kubelet  Container app failed liveness probe, will be restarted",
		"",
	}, "\n")
	f = onlyFlow(t, buildBytes(t, "table.txt", []byte(table)), "app-0")
	c := containerOf(f, "app")
	if c.Name != "app" || cstage(c, CStStarted).Status != StatusDone {
		t.Errorf("container app %+v: want it named from the messages and started", c)
	}
	if len(f.Containers) != 1 {
		t.Errorf("containers %+v: the image's message names none", f.Containers)
	}
}

// TestRuntimeLogAloneProvesNoStall: a container runtime's log alone
// (containerd's, as `kind export logs` keeps it beside the kubelet's)
// lacks the kubelet's markers that complete most stages: a budget run out
// there proves no stall, and the pod is Incomplete, not Stalled.
func TestRuntimeLogAloneProvesNoStall(t *testing.T) {
	data, err := os.ReadFile("../testdata/formats/containerd.log")
	if err != nil {
		t.Fatal(err)
	}
	f := onlyFlow(t, buildBytes(t, "containerd.log", data), "web-7d9f8c6b5-x2kqp")
	if f.Verdict != VerdictIncomplete {
		t.Errorf("verdict %s at %s/%s:%s, want Incomplete", f.Verdict, f.StalledAt, f.Container, f.ContainerStage)
	}
}

// TestPodWithoutTimesHasNoSpan: a pod known only from lines that move no
// stage (readiness "not ready" in a paste, k8s-138889) spans those lines;
// it had no times, and its duration was the epoch's age (106751d23h).
func TestPodWithoutTimesHasNoSpan(t *testing.T) {
	probe := `I0509 11:47:50.501376  875213 kubelet.go:2668] "SyncLoop (probe)" probe="readiness" status="not ready" pod="ops/ftp-master-0"` + "\n" +
		`I0509 11:47:56.444371  875213 kubelet.go:2668] "SyncLoop (probe)" probe="readiness" status="not ready" pod="ops/ftp-master-0"` + "\n"
	f := onlyFlow(t, buildBytes(t, "probe.log", []byte(probe)), "ftp-master-0")
	if f.Start.IsZero() || time.Duration(f.Duration) > time.Minute {
		t.Errorf("start %v, duration %s: want the probe lines' span", f.Start, time.Duration(f.Duration))
	}
}
