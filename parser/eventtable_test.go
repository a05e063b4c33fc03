package parser

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestEventTables reads the events tables people paste (kubectl describe
// pod, old and new; kubectl get events, plain and -A -o wide; a describe
// in a markdown quote; rows pasted without their header, before the log
// lines their ages count back from) as the kubelet's "Event occurred" records: only the
// kubelet's rows, their pod, field path, type, reason and message (wrapped
// lines joined), and times counted back from the ages; every other line of
// the table is an annotation.
func TestEventTables(t *testing.T) {
	type counts struct{ Records, Continuations, Annotations, Blank, Unrecognized int64 }
	mod := utc(2026, 11, 22, 6, 30, 0, 0)
	type row struct {
		at                                       time.Time
		object, fieldPath, typ, reason, msg, age string
		count                                    int
		first                                    time.Time
	}
	tests := []struct {
		file  string
		rows  []row
		stats counts
		other int // records of other formats, first (last: after the rows)
		last  bool
		// ahead: the base is a log line's after the table, which a
		// parallel reader's chunk does not show (its rows count back from
		// the modification time).
		ahead bool
	}{
		{file: "describe-pod.txt", other: 1, // its container's status (describe.go)
			rows: []row{
				{at: mod.Add(-3 * time.Minute), object: "shop/web-7d9f8c6b5-x2kqp", typ: "Normal", reason: "Pulling", msg: `Pulling image "registry.example.com/shop/web:1.4.2"`, age: "3m (x4 over 5m)", count: 4, first: mod.Add(-5 * time.Minute)},
				{at: mod.Add(-3 * time.Minute), object: "shop/web-7d9f8c6b5-x2kqp", typ: "Warning", reason: "Failed", msg: `Failed to pull image "registry.example.com/shop/web:1.4.2": rpc error: code = NotFound desc = failed to pull and unpack image "registry.example.com/shop/web:1.4.2": not found`, age: "3m (x4 over 5m)", count: 4, first: mod.Add(-5 * time.Minute)},
				{at: mod.Add(-3 * time.Minute), object: "shop/web-7d9f8c6b5-x2kqp", typ: "Warning", reason: "Failed", msg: "Error: ErrImagePull", age: "3m (x4 over 5m)", count: 4, first: mod.Add(-5 * time.Minute)},
				{at: mod.Add(-36 * time.Second), object: "shop/web-7d9f8c6b5-x2kqp", typ: "Normal", reason: "BackOff", msg: `Back-off pulling image "registry.example.com/shop/web:1.4.2"`, age: "36s (x15 over 5m)", count: 15, first: mod.Add(-5 * time.Minute)},
				{at: mod.Add(-2*time.Minute - 3*time.Second), object: "shop/web-7d9f8c6b5-x2kqp", typ: "Warning", reason: "Failed", msg: "Error: ImagePullBackOff", age: "2m3s"},
			},
			stats: counts{Records: 6, Continuations: 4, Annotations: 18}},
		{file: "describe-pod-old.txt",
			rows: []row{
				{at: mod.Add(-2 * time.Minute), object: "default/legacy-1", fieldPath: "spec.containers{web}", typ: "Normal", reason: "Pulling", msg: `pulling image "kubernetes/pause"`, age: "2m", count: 8, first: mod.Add(-18 * time.Minute)},
				{at: mod.Add(-2 * time.Minute), object: "default/legacy-1", fieldPath: "spec.containers{web}", typ: "Warning", reason: "Failed", msg: `Failed to pull image "kubernetes/pause": image pull failed for unknown error`, age: "2m", count: 8, first: mod.Add(-18 * time.Minute)},
				{at: mod.Add(-12 * time.Second), object: "default/legacy-1", typ: "Warning", reason: "FailedSync", msg: `Error syncing pod, skipping: failed to "StartContainer" for "web" with ImagePullBackOff: "Back-off pulling image \"kubernetes/pause\""`, age: "12s", count: 73, first: mod.Add(-18 * time.Minute)},
			},
			stats: counts{Records: 3, Annotations: 8}},
		{file: "get-events.txt", other: 1,
			rows: []row{
				{at: utc(2026, 11, 22, 6, 0, 2, 0), object: "shop/api-5f7c9-abcde", typ: "Normal", reason: "Pulled", msg: `Container image "registry.example.com/shop/api:2.0" already present on machine`, age: "9m58s"},
				{at: utc(2026, 11, 22, 6, 0, 2, 0), object: "shop/api-5f7c9-abcde", typ: "Normal", reason: "Created", msg: "Created container api", age: "9m58s"},
				{at: utc(2026, 11, 22, 6, 0, 3, 0), object: "shop/api-5f7c9-abcde", typ: "Normal", reason: "Started", msg: "Started container api", age: "9m57s"},
				{at: utc(2026, 11, 22, 6, 8, 0, 0), object: "shop/api-5f7c9-abcde", typ: "Warning", reason: "Unhealthy", msg: "Readiness probe failed: HTTP probe failed with statuscode: 503", age: "2m"},
				{at: utc(2026, 11, 22, 6, 10, 0, 0), object: "shop/api-5f7c9-abcde", typ: "Normal", reason: "Killing", msg: "Stopping container api", age: "<unknown>"},
			},
			stats: counts{Records: 6, Annotations: 4}},
		{file: "get-events-wide.txt",
			rows: []row{
				{at: mod.Add(-4 * time.Minute), object: "kube-system/coredns-576bfc4dc7-w5p9h", typ: "Warning", reason: "FailedCreatePodSandBox", msg: `Failed to create pod sandbox: rpc error: code = DeadlineExceeded desc = failed to get sandbox image "rancher/mirrored-pause:3.6"`, age: "4m", count: 9, first: mod.Add(-12 * time.Minute)},
				{at: mod.Add(-30 * time.Second), object: "default/web-0", fieldPath: "spec.containers{web}", typ: "Warning", reason: "BackOff", msg: "Back-off restarting failed container web in pod web-0_default(5e3c1a2b-1111-2222-3333-444455556666)", age: "30s", count: 21, first: mod.Add(-5 * time.Minute)},
			},
			stats: counts{Records: 2, Annotations: 2}},
		{file: "quoted-events.md",
			rows: []row{
				{at: mod.Add(-2 * time.Minute), object: "db/data-0", typ: "Warning", reason: "FailedMount", msg: `MountVolume.SetUp failed for volume "pvc-1" : mount failed: exit status 32`, age: "2m (x3 over 6m)", count: 3, first: mod.Add(-6 * time.Minute)},
				{at: mod.Add(-time.Minute), object: "db/data-0", typ: "Warning", reason: "FailedMount", msg: "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data]: timed out waiting for the condition", age: "1m"},
			},
			stats: counts{Records: 2, Annotations: 5, Blank: 2, Unrecognized: 2}},
		{file: "headerless.md", other: 1, last: true, ahead: true,
			rows: []row{
				{at: utc(2026, 11, 22, 5, 18, 0, 0), object: "kube-system/kube-proxy-7xk2d", typ: "Warning", reason: "Failed", msg: "Error: services have not yet been read at least once, cannot construct envvars", age: "52m (x2 over 52m)", count: 2, first: utc(2026, 11, 22, 5, 18, 0, 0)},
				{at: utc(2026, 11, 22, 6, 0, 55, 0), object: "kube-system/kube-proxy-7xk2d", typ: "Normal", reason: "Killing", msg: "Stopping container kube-proxy", age: "9m05s (x11 over 50m)", count: 11, first: utc(2026, 11, 22, 5, 20, 0, 0)},
				{at: utc(2026, 11, 22, 6, 4, 12, 0), object: "catalog/sync-28809911-7tq5m", typ: "Normal", reason: "Pulling", msg: `Pulling image "registry.example.com/catalog/sync-job:2.7.1"`, age: "5m48s"},
			},
			stats: counts{Records: 4, Annotations: 9, Unrecognized: 3}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "formats", "events", tt.file)
			for _, workers := range []int{1, 3} {
				recs, st := readAll(t, path, Options{ModTime: mod, Year: 2026, Workers: workers, ChunkBytes: 64})
				if !st.Accounted() {
					t.Errorf("workers %d: lines not accounted: %+v", workers, st)
				}
				got := counts{Records: st.Records, Continuations: st.Continuations, Annotations: st.Annotations, Blank: st.Blank, Unrecognized: st.Unrecognized}
				if got != tt.stats {
					t.Errorf("workers %d: stats %+v, want %+v", workers, got, tt.stats)
				}
				if len(recs) != tt.other+len(tt.rows) {
					t.Fatalf("workers %d: %d records, want %d", workers, len(recs), tt.other+len(tt.rows))
				}
				rows := recs[tt.other:]
				if tt.last {
					rows = recs[:len(tt.rows)]
				}
				for i, w := range tt.rows {
					r := &rows[i]
					if r.Format != FormatEventTable || r.Msg != "Event occurred" || r.Component != "kubelet" {
						t.Errorf("row %d: format %v msg %q component %q", i, r.Format, r.Msg, r.Component)
					}
					if !r.Time.Equal(w.at) && (workers == 1 || !tt.ahead) {
						t.Errorf("row %d: time %v, want %v", i, r.Time, w.at)
					}
					obj, _ := r.Field("object")
					for _, c := range []struct{ key, got, want string }{
						{"object", obj.String(), w.object}, {"fieldPath", r.Str("fieldPath"), w.fieldPath}, {"kind", r.Str("kind"), "Pod"},
						{"type", r.Str("type"), w.typ}, {"reason", r.Str("reason"), w.reason}, {"message", r.Str("message"), w.msg}, {"age", r.Str("age"), w.age},
					} {
						if c.got != c.want {
							t.Errorf("row %d: %s %q, want %q", i, c.key, c.got, c.want)
						}
					}
					if c, _ := r.Field("count"); int(c.Num) != w.count {
						t.Errorf("row %d: count %v, want %d", i, c.Num, w.count)
					}
					if f := r.Str("firstSeen"); (workers == 1 || !tt.ahead) && !w.first.IsZero() && f != w.first.Format(time.RFC3339) || w.first.IsZero() && f != "" {
						t.Errorf("row %d: firstSeen %q, want %v", i, f, w.first)
					}
					if w.typ == "Warning" && r.Severity != SeverityWarning {
						t.Errorf("row %d: severity %v", i, r.Severity)
					}
				}
			}
		})
	}
}

// TestEventTableEnds: a table ends at a blank line, a fence or a log line,
// and a row with a wrapped message is complete before whatever follows
// it; a line like a table's header among log lines reads nothing when no
// row follows. (Text right under a row goes on its message, as it goes on
// a log line's: a kubelet message may hold newlines.)
func TestEventTableEnds(t *testing.T) {
	in := strings.Join([]string{
		"Events:",
		"  Type     Reason   Age   From     Message",
		"  Warning  BackOff  10s   kubelet  Back-off restarting failed container app in pod app-0_ns(uid)",
		"I1122 06:10:00.000000    2001 kubelet.go:2400] \"SyncLoop ADD\" source=\"api\" pods=[\"ns/app-0\"]",
		"  continued text of the klog line",
		"Type Reason Age From Message",
		"I1122 06:10:01.000000    2001 kubelet.go:2400] \"SyncLoop ADD\" source=\"api\" pods=[\"ns/app-1\"]",
		"Events:",
		"  Type     Reason   Age   From     Message",
		"  Warning  BackOff  10s   kubelet  Back-off restarting",
		"           failed container app",
		"",
		"so that is what it says",
		"```",
	}, "\n") + "\n"
	recs, st := readRecords(t, strings.NewReader(in), Options{ModTime: utc(2026, 11, 22, 6, 30, 0, 0), Year: 2026})
	if !st.Accounted() {
		t.Errorf("not accounted: %+v", st)
	}
	var got []string
	for _, r := range recs {
		got = append(got, r.Format.String()+" "+r.Msg+" "+r.Str("message"))
	}
	want := []string{
		"event-table Event occurred Back-off restarting failed container app in pod app-0_ns(uid)",
		"klog SyncLoop ADD ",
		"klog SyncLoop ADD ",
		"event-table Event occurred Back-off restarting failed container app",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(recs) == 4 {
		if !recs[0].Time.Equal(utc(2026, 11, 22, 6, 9, 51, 0)) || !recs[3].Time.Equal(utc(2026, 11, 22, 6, 9, 51, 0)) {
			t.Errorf("times %v, %v: want the last klog line's (after the first table, before the second) less 10s", recs[0].Time, recs[3].Time)
		}
	}
	if st.Continuations != 2 || st.Unrecognized != 1 || st.Annotations != 6 || st.Blank != 1 {
		t.Errorf("continuations %d unrecognized %d annotations %d blank %d, want 2, 1 (the prose), 6, 1", st.Continuations, st.Unrecognized, st.Annotations, st.Blank)
	}
}
