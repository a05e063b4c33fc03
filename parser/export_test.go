package parser

import (
	"path/filepath"
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
