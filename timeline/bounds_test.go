package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/internal/words"
	"github.com/podflow/podflow/parser"
)

// distinctPods writes n pods' SyncLoop ADD, SyncPod and Pulling lines, each
// pod with its own UID, as a hostile or huge log would.
func distinctPods(n int) []byte {
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		uid := fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
		h, m, s, us := 6+i/3600000, (i/60000)%60, (i/1000)%60, i%1000*1000
		fmt.Fprintf(&buf, "I1122 %02d:%02d:%02d.%06d    2001 kubelet.go:2709] \"SyncLoop ADD\" source=\"api\" pods=[\"ns/pod-%d\"]\n", h, m, s, us, i)
		fmt.Fprintf(&buf, "I1122 %02d:%02d:%02d.%06d    2001 pod_workers.go:1] \"SyncPod enter\" pod=\"ns/pod-%d\" podUID=%q\n", h, m, s, us+1, i, uid)
		fmt.Fprintf(&buf, "I1122 %02d:%02d:%02d.%06d    2001 event.go:389] \"Event occurred\" object=\"ns/pod-%d\" fieldPath=\"spec.containers{app}\" kind=\"Pod\" apiVersion=\"v1\" type=\"Normal\" reason=\"Pulling\" message=\"Pulling image \\\"nginx:%d\\\"\"\n", h, m, s, us+2, i, i)
	}
	return buf.Bytes()
}

// feed reads data as the named log into b.
func feed(b *Builder, name string, data []byte) {
	r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: name, Year: 2026, Want: b.Want, Rescue: b.Rescue()})
	for {
		rec, err := r.Next()
		if err != nil {
			return
		}
		b.Add(rec)
	}
}

// More pods than the limit: the first ones are kept, the rest are counted
// and reported, never silently lost; the builder's memory stops growing at
// the limit (scaled: 50,000 pods over a limit of 1,000).
func TestPodLimitBoundsMemoryAndIsReported(t *testing.T) {
	const pods, limit = 50_000, 1_000
	data := distinctPods(pods)
	b := NewBuilder(Options{MaxFlows: limit})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	feed(b, "many.log", data)
	runtime.GC()
	runtime.ReadMemStats(&after)
	grown := int64(after.HeapInuse) - int64(before.HeapInuse)
	// 1,000 flows at a few KiB each, plus per-node bookkeeping; 50,000
	// flows would take over 100 MiB.
	if grown > 16<<20 {
		t.Errorf("builder heap grew %d MiB for %d pods over a limit of %d", grown>>20, pods, limit)
	}
	fl := b.Finish()
	if len(fl.Items) != limit {
		t.Errorf("%d flows, want the limit %d", len(fl.Items), limit)
	}
	if fl.Summary.PodLimit != limit || fl.Summary.Dropped < int64(pods-limit) {
		t.Errorf("summary podLimit %d dropped %d, want %d and at least %d", fl.Summary.PodLimit, fl.Summary.Dropped, limit, pods-limit)
	}
	// Under the limit nothing is reported.
	small := NewBuilder(Options{})
	feed(small, "few.log", distinctPods(10))
	if s := small.Finish().Summary; s.PodLimit != 0 || s.Dropped != 0 || s.Pods != 10 {
		t.Errorf("10 pods: summary %+v", s)
	}
}

// A flow's retained text is copied out of the record's line, so memory is
// per pod, not per line: long lines that each name a pod do not stay alive.
func TestFlowsDoNotPinLines(t *testing.T) {
	var buf bytes.Buffer
	pad := bytes.Repeat([]byte("x"), 64<<10) // a 64 KiB line per record
	for i := 0; i < 200; i++ {
		uid := fmt.Sprintf("%08x-0000-4000-8000-000000000000", i)
		fmt.Fprintf(&buf, "E1122 06:00:%02d.%06d    2001 pod_workers.go:1] \"Error syncing pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"app\\\" with CrashLoopBackOff: back-off %s\" pod=\"ns/pod-%d\" podUID=%q\n", i/10, i%10*1000, pad, i, uid)
		// A container started, then PLEG names its ID on a long line: the
		// ID is claimed for the container and must not keep the line.
		fmt.Fprintf(&buf, "I1122 06:00:%02d.%06d    2001 event.go:389] \"Event occurred\" object=\"ns/pod-%d\" fieldPath=\"spec.containers{app}\" kind=\"Pod\" apiVersion=\"v1\" type=\"Normal\" reason=\"Started\" message=\"Container started\"\n", i/10, i%10*1000+1, i)
		fmt.Fprintf(&buf, "I1122 06:00:%02d.%06d    2001 kubelet.go:2737] \"SyncLoop (PLEG): event for pod\" pod=\"ns/pod-%d\" event={\"ID\":%q,\"Type\":\"ContainerStarted\",\"Data\":\"%064x\"} pad=\"%s\"\n", i/10, i%10*1000+2, i, uid, i+1, pad)
	}
	data := buf.Bytes()
	b := NewBuilder(Options{})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	feed(b, "long.log", data)
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(data) // alive in both measures: only what the builder keeps counts
	grown := int64(after.HeapInuse) - int64(before.HeapInuse)
	// 400 lines of 64 KiB are 25 MiB; the flows keep at most a few KiB
	// of text each (evidence is cut at 300 bytes).
	if grown > 4<<20 {
		t.Errorf("builder keeps %d MiB after 200 long lines: it pins the lines", grown>>20)
	}
	if n := len(b.Finish().Items); n != 200 {
		t.Errorf("%d flows, want 200", n)
	}
	runtime.KeepAlive(b)
}

// A stage keeps its latest line in one slot and an event its latest time:
// what they overwrite gives back its entries in the builder's side tables
// (texts not interned) or is swept (times far from the first), so a pod
// failing all day with ever new errors costs what it keeps, not a text or
// a time per line.
func TestSideTablesDoNotGrowWithLines(t *testing.T) {
	const lines = 10_000
	first := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	far := first.AddDate(20, 0, 0) // too far from the first time for a compact stamp
	var buf bytes.Buffer
	pod := `"pod":{"name":"w-1","namespace":"default"},"podUID":"0f0e0d0c-0000-4000-8000-000000000001"`
	fmt.Fprintf(&buf, `{"ts":%d,"msg":"SyncLoop ADD","v":2,"source":"api","pods":[{"name":"w-1","namespace":"default"}]}`+"\n", first.UnixMilli())
	last := ""
	for i := range lines {
		ts := first.Add(time.Duration(i) * time.Second)
		if i%2 == 1 {
			ts = far.Add(time.Duration(i) * time.Second)
		}
		// A long error, new each time: not interned.
		last = fmt.Sprintf("failed to \"CreatePodSandbox\" for \"w-1_default\" with CreatePodSandboxError: attempt %d: %s", i, strings.Repeat("x", 400))
		errJSON, _ := json.Marshal(last)
		fmt.Fprintf(&buf, `{"ts":%d,"msg":"Error syncing pod, skipping","err":%s,%s}`+"\n", ts.UnixMilli(), errJSON, pod)
		// A status patch with a long phase and container reason, new each
		// time: the ones they replace are given back.
		patch, _ := json.Marshal(fmt.Sprintf(`{"status":{"phase":"Phase-%d-%s","containerStatuses":[{"name":"app","state":{"terminated":{"exitCode":1,"reason":"Reason-%d-%s"}}}]}}`, i, strings.Repeat("p", 400), i, strings.Repeat("r", 400)))
		fmt.Fprintf(&buf, `{"ts":%d,"msg":"Patch status for pod","v":3,%s,"patch":%s}`+"\n", ts.UnixMilli(), pod, patch)
		fmt.Fprintf(&buf, `{"ts":%d,"msg":"Event occurred","v":3,"object":{"name":"w-1","namespace":"default"},"kind":"Pod","type":"Warning","reason":"Noted","message":"a note"}`+"\n", ts.UnixMilli())
	}
	b := NewBuilder(Options{})
	// The intern table full (of other texts), as after a long log of ever
	// new ones: the errors are kept as texts of their own.
	for i := range words.MaxInterned {
		b.texts.AddWord(strconv.Itoa(i))
	}
	feed(b, "day.log", buf.Bytes())
	c := b.texts.Counts()
	if n := c.Used - c.Interned; n > 20 {
		t.Errorf("%d texts of their own kept for one pod after %d lines", n, lines)
	}
	if n := c.Used + c.Free - c.Interned + b.lines.Wide(); n > 100 {
		t.Errorf("side tables of %d entries after %d lines of one pod", n, lines)
	}
	// Swept when doubled, or at the least 1024 entries.
	if n := b.stamps.Wide(); n > 2048 {
		t.Errorf("%d times on the side after %d lines of one pod, some 20,000 of them far", n, lines)
	}
	fl := b.Finish()
	if len(fl.Items) != 1 {
		t.Fatalf("%d flows, want 1", len(fl.Items))
	}
	f := fl.Items[0]
	sb := stageOf(f, StSandbox)
	if len(sb.Evidence) != maxEvidence || sb.Attempts < lines/2 {
		t.Fatalf("sandbox stage: %d evidence lines, %d attempts", len(sb.Evidence), sb.Attempts)
	}
	latest := sb.Evidence[maxEvidence-1]
	if !strings.Contains(latest.Text, fmt.Sprintf("attempt %d:", lines-1)) || !latest.Time.Equal(far.Add((lines-1)*time.Second).Truncate(time.Millisecond)) {
		t.Errorf("latest evidence %q at %v, want attempt %d at %v", latest.Text, latest.Time, lines-1, far.Add((lines-1)*time.Second))
	}
	if len(f.Events) != 1 || f.Events[0].Count != lines || !f.Events[0].LastTime.Equal(far.Add((lines-1)*time.Second)) {
		t.Errorf("events %+v", f.Events)
	}
	if len(f.Containers) != 1 || !strings.HasPrefix(f.Containers[0].Reason, fmt.Sprintf("Reason-%d-", lines-1)) {
		t.Errorf("containers %+v, want app's latest reason", f.Containers)
	}
}
