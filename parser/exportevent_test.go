package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportEventMessages: an export of Kubernetes events that keeps only
// each event's time and message (flyte-3958's GKE export) is read as the
// kubelet's "Event occurred" records at the export's times: the messages
// the kubelet records its events with give their reason, type and kind.
// testdata/formats/exports/events-messages.log holds 01-happy-path's node
// events so: read as the kubelet's own "Event occurred" lines are.
func TestExportEventMessages(t *testing.T) {
	recs, st := readAll(t, filepath.Join("..", "testdata", "wild", "flyte-3958-gke-nodeaffinity-json.log"), Options{})
	if !st.Accounted() || st.Records != 4 || st.Unrecognized != 0 {
		t.Fatalf("stats %+v", st)
	}
	want := []struct{ reason, typ, kind, message, time string }{
		{"Starting", "Normal", "Node", "Starting kubelet.", "2023-08-10T20:17:54Z"},
		{"Shutdown", "Normal", "Node", "Shutdown manager detected shutdown event", "2023-08-10T20:18:16Z"},
		{"Starting", "Normal", "Node", "Starting kubelet.", "2023-08-10T20:20:22Z"},
		{"NodeAffinity", "Warning", "Pod", "Predicate NodeAffinity failed", "2023-08-10T20:20:24Z"},
	}
	for i, w := range want {
		r := recs[i]
		if r.Msg != "Event occurred" || r.Format != FormatEventTable || r.Component != "kubelet" || r.Str("reason") != w.reason || r.Str("type") != w.typ ||
			r.Str("kind") != w.kind || r.Str("message") != w.message || r.Time.UTC().Format("2006-01-02T15:04:05Z") != w.time {
			t.Errorf("record %d: %q %v %q %v %v", i, r.Msg, r.Format, r.Component, r.Fields, r.Time)
		}
		if _, ok := r.Field("object"); ok {
			t.Errorf("record %d names an object the export does not", i)
		}
	}

	data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "01-happy-path.log"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, `"Event occurred"`) && strings.Contains(l, `kind="Node"`) && !strings.Contains(l, `reason="CgroupV1"`) {
			lines = append(lines, l)
		}
	}
	events, _ := readRecords(t, strings.NewReader(strings.Join(lines, "\n")), Options{Year: 2026})
	recs, st = readAll(t, filepath.Join("..", "testdata", "formats", "exports", "events-messages.log"), Options{})
	if len(recs) != len(events) || len(recs) != 11 || st.Unrecognized != 0 {
		t.Fatalf("%d records, want %d; stats %+v", len(recs), len(events), st)
	}
	for i, r := range recs {
		e := events[i]
		for _, k := range []string{"object", "kind", "type", "reason", "message"} {
			if k == "object" && e.Str("reason") == "Starting" {
				continue // (the message does not name the node)
			}
			if r.Str(k) != e.Str(k) {
				t.Errorf("record %d: %s %q, want %q", i, k, r.Str(k), e.Str(k))
			}
		}
		if !r.Time.Equal(e.Time) || r.Msg != e.Msg {
			t.Errorf("record %d: %q at %v, want %v", i, r.Msg, r.Time, e.Time)
		}
	}

	// Texts that are no event's message whole stay unread.
	for _, s := range []string{"Starting kubelet", "Predicate NodeAffinity failed for pod web-0", "Node a b status is now: NodeReady", "Predicate  failed"} {
		if _, ok := kubeletEventOf([]byte(s)); ok {
			t.Errorf("%q read as an event", s)
		}
	}
}
