package parser

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestExports reads the shapes log stores export kubelet lines in: each
// gives the three records of the story in time order (the newest-first
// ones read backwards), at the year and time the export states (not the
// file's), with the node it names, every line accounted.
func TestExports(t *testing.T) {
	msgs := []string{"SyncLoop ADD", "Creating PodSandbox for pod", "Error syncing pod, skipping"}
	times := []time.Time{utc(2023, 7, 13, 7, 2, 51, 865903000), utc(2023, 7, 13, 7, 2, 52, 104331000), utc(2023, 7, 13, 7, 2, 55, 200118000)}
	tests := []struct {
		file        string
		host        string
		newestFirst bool
		n           int // records; 0 means 3
	}{
		{file: "cloud-logging.log", host: "gke-demo-pool-1-3f2a", newestFirst: true},
		{file: "cloud-logging-cut.log", host: "gke-demo-pool-1-3f2a", newestFirst: true},
		{file: "cloudwatch.log"},
		{file: "cloudwatch-fluentbit.log", host: "ip-10-0-1-17.ec2.internal"},
		{file: "loki-jsonl.log", host: "node-3", newestFirst: true},
		{file: "loki-api.log", host: "node-3", newestFirst: true},
		{file: "elasticsearch.log", host: "worker-b"},
		{file: "docker-json.log"},
		{file: "grafana-frames.log"},
		{file: "node-prefix.log", host: "10.20.0.*", n: 2},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			recs, st := readAll(t, filepath.Join("..", "testdata", "formats", "exports", tt.file), Options{ModTime: utc(2030, 1, 5, 0, 0, 0, 0)})
			if !st.Accounted() || st.Unrecognized != 0 {
				t.Errorf("stats %+v", st)
			}
			if st.NewestFirst != tt.newestFirst {
				t.Errorf("newest first = %v, want %v", st.NewestFirst, tt.newestFirst)
			}
			n := tt.n
			if n == 0 {
				n = 3
			}
			if len(recs) != n {
				t.Fatalf("got %d records, want %d", len(recs), n)
			}
			for i, r := range recs {
				if tt.n != 2 && r.Msg != msgs[i] {
					t.Errorf("record %d msg %q, want %q", i, r.Msg, msgs[i])
				}
				if tt.n == 2 {
					if r.Format != FormatJSON || r.Msg != "SyncLoop ADD" || r.Time.Year() != 2023 {
						t.Errorf("record %d: %v %q %v", i, r.Format, r.Msg, r.Time)
					}
				} else if d := r.Time.Sub(times[i]); d > time.Millisecond || d < -time.Millisecond {
					// (CloudWatch keeps milliseconds: the klog header gives the rest.)
					t.Errorf("record %d time %v, want %v", i, r.Time, times[i])
				}
				if h := strings.TrimSuffix(tt.host, "*"); !strings.HasPrefix(r.Host, h) || h == tt.host && r.Host != h {
					t.Errorf("record %d host %q, want %q", i, r.Host, tt.host)
				}
				if r.Component != "kubelet" {
					t.Errorf("record %d component %q", i, r.Component)
				}
			}
		})
	}
}

// TestNewestFirst reads journalctl -r across New Year: the records come in
// time order, the year from the journal's header.
func TestNewestFirst(t *testing.T) {
	for _, opts := range []Options{{}, {ModTime: utc(2026, 3, 1, 0, 0, 0, 0)}, {Workers: 2, ChunkBytes: 256}} {
		recs, st := readAll(t, filepath.Join("..", "testdata", "formats", "journald-reverse.log"), opts)
		if !st.NewestFirst || !st.Accounted() || st.Unrecognized != 0 {
			t.Errorf("stats %+v", st)
		}
		want := []time.Time{utc(2025, 12, 31, 23, 59, 57, 100020000), utc(2025, 12, 31, 23, 59, 58, 301447000),
			utc(2026, 1, 1, 0, 0, 1, 2115000), utc(2026, 1, 1, 0, 0, 5, 418200000)}
		if len(recs) != len(want) {
			t.Fatalf("got %d records", len(recs))
		}
		for i, w := range want {
			if !recs[i].Time.Equal(w) {
				t.Errorf("%+v: record %d time %v, want %v", opts, i, recs[i].Time, w)
			}
			if recs[i].Pos.Line != int64(len(want)-i+1) {
				t.Errorf("record %d at line %d", i, recs[i].Pos.Line)
			}
		}
	}
}

// TestNewestFirstMultilineValues: journalctl -r writes each line of a klog
// multi-line value (`err=<`, its lines, " >") as a journal entry of its
// own, so the value's lines, last first, come before its header (sriov-555,
// a 1.27 kubelet's sandbox errors, the TABs pasted as spaces). Read
// newest first, each record holds its whole value, as the same lines read
// forwards do, and spans its lines in the input.
func TestNewestFirstMultilineValues(t *testing.T) {
	path := filepath.Join("..", "testdata", "wild", "sriov-555-multus-korean.log")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	slices.Reverse(lines)
	for _, opts := range []Options{{Year: 2023}, {Year: 2023, Workers: 2, ChunkBytes: 256}} {
		recs, st := readAll(t, path, opts)
		fwd, _ := readRecords(t, strings.NewReader(strings.Join(lines, "\n")+"\n"), Options{Year: 2023, Name: path})
		if !st.NewestFirst || !st.Accounted() || st.Unrecognized != 0 || st.Continuations != 5 || len(recs) != 3 || len(fwd) != 3 {
			t.Fatalf("%d records, %d forwards; stats %+v", len(recs), len(fwd), st)
		}
		for i, want := range []struct {
			msg, errHas string
			line        int64
			lines       int
		}{
			{"Error syncing pod, skipping", `"CreatePodSandbox" for "sriov-pod-1_default(`, 8, 1},
			{"RunPodSandbox from runtime service failed", `"multus-cni-network" failed >` + "\n", 3, 5},
			{"Failed to create sandbox for pod", `failed to setup network for sandbox "eca0be86`, 1, 2},
		} {
			r := recs[i]
			if r.Msg != want.msg || !strings.Contains(r.Err, want.errHas) || r.Pos.Line != want.line || r.Pos.Lines != want.lines {
				t.Errorf("record %d: %q err %q at line %d (%d lines); want %q with %q at %d (%d)", i, r.Msg, r.Err, r.Pos.Line, r.Pos.Lines, want.msg, want.errHas, want.line, want.lines)
			}
			if f := fwd[i]; r.Msg != f.Msg || r.Err != f.Err || !r.Time.Equal(f.Time) || len(r.Fields) != len(f.Fields) {
				t.Errorf("record %d: %q %q, forwards %q %q", i, r.Msg, r.Err, f.Msg, f.Err)
			}
			// The span is the record's lines in the input.
			if span := string(data[r.Pos.Offset : r.Pos.Offset+int64(r.Pos.Length)]); strings.Count(span, "\n") != r.Pos.Lines-1 || !strings.Contains(span, want.msg) {
				t.Errorf("record %d spans %q", i, span)
			}
		}
		if !strings.Contains(recs[1].Err, "StdinData") {
			t.Errorf("RunPodSandbox's err %q lacks its last line", recs[1].Err)
		}
	}
}
