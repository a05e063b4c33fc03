package parser

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// recordText is what a record says, without where it came from: pasted
// shapes of one log must read as the log itself.
func recordText(r *Record) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %v %s %d %q err=%q %v", r.Time.Format("2006-01-02T15:04:05.000000Z07:00"), r.Severity, r.Source, r.PID, r.Msg, r.Err, r.Format)
	for _, f := range r.Fields {
		fmt.Fprintf(&b, " %s=%q", f.Key, f.Value.String())
	}
	return b.String()
}

// TestPastedShapes reads the shapes people paste a kubelet log in (cat -n
// and nl gutters, grep -n with spaces, file:line prefixes, markdown
// quotes, fences, indentation, backticks and bullets): each must give
// the records of the log itself, every line accounted, the prose and
// markup around it counted as what it is.
func TestPastedShapes(t *testing.T) {
	tests := []struct {
		file, plain               string
		annotations, unrecognized int64
		blank                     int64
	}{
		{file: "cat-n.log", plain: "plain.log"},
		{file: "nl.log", plain: "plain.log", blank: 1},
		{file: "grep-n-space.log", plain: "plain.log"},
		{file: "grep-hn-path.log", plain: "plain.log"},
		{file: "md-quote-fence.log", plain: "plain.log", annotations: 2, blank: 2, unrecognized: 2},
		{file: "md-fence-indent.log", plain: "plain.log", annotations: 2, blank: 1, unrecognized: 1},
		{file: "md-backticks.log", plain: "plain.log"},
		{file: "md-bullets.log", plain: "plain-single.log"},
	}
	dir := filepath.Join("..", "testdata", "formats", "pasted")
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			want, wst := readAll(t, filepath.Join(dir, tt.plain), Options{Year: 2026})
			got, st := readAll(t, filepath.Join(dir, tt.file), Options{Year: 2026})
			if !st.Accounted() {
				t.Errorf("not accounted: %+v", st)
			}
			if st.Continuations != wst.Continuations || st.Annotations != tt.annotations || st.Blank != tt.blank || st.Unrecognized != tt.unrecognized {
				t.Errorf("continuations, annotations, blank, unrecognized = %d, %d, %d, %d; want %d, %d, %d, %d",
					st.Continuations, st.Annotations, st.Blank, st.Unrecognized, wst.Continuations, tt.annotations, tt.blank, tt.unrecognized)
			}
			if len(got) != len(want) {
				t.Fatalf("got %d records, want %d", len(got), len(want))
			}
			for i := range want {
				if g, w := recordText(&got[i]), recordText(&want[i]); g != w {
					t.Errorf("record %d:\n got %s\nwant %s", i, g, w)
				}
				if got[i].Pos.Lines != want[i].Pos.Lines {
					t.Errorf("record %d spans %d lines, want %d", i, got[i].Pos.Lines, want[i].Pos.Lines)
				}
			}
		})
	}
}

// TestSyslogAnyIdent reads kubelet lines under syslog identifiers of every
// wrapper and all-in-one binary, judged by their source files, under
// prefixes of other shapes (RFC 5424, CRI, kubectl logs --prefix) and
// month names of any locale.
func TestSyslogAnyIdent(t *testing.T) {
	want := []struct {
		host, component string
		pid             int
	}{
		{"node-1", "kubelet", 1742}, // docker[PID] around a kubelet container: by its source file
		{"node-1", "kubelet", 1742}, // … and its other lines from then on
		{"node-1", "kubelet", 88},
		{"node-2", "kubelet", 511},
		{"node-3", "kubelet", 612},
		{"node-4", "kubelet", 713},
		{"node-5", "kubelet", 814},
		{"node-6", "kubelet", 915},
		{"node-7", "kubelet", 1016},
		{"node-8", "kubelet", 1117},
		{"node-9", "kubelet", 1218},
		{"node-10", "kubelet", 1319}, // RFC 5424
		{"", "kubelet", 1420},        // CRI log
		{"", "kubelet", 1521},        // kubectl logs --prefix
		{"node-11", "kubelet", 1622}, // pl
		{"node-12", "kubelet", 1723}, // ja, padded
		{"node-13", "kubelet", 1824}, // ko
		{"node-14", "kubelet", 1925}, // tr
		{"node-15", "kubelet", 2026}, // fi, not in the table: the klog header says the month
		{"node-16", "dockerd", 2127},
	}
	recs, st := readAll(t, filepath.Join("..", "testdata", "formats", "syslog-any-ident.log"), Options{})
	if !st.Accounted() || st.Unrecognized != 0 {
		t.Errorf("stats %+v", st)
	}
	if len(recs) != len(want) {
		t.Fatalf("got %d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		r := recs[i]
		if r.Host != w.host || r.Component != w.component || r.PID != w.pid {
			t.Errorf("record %d (line %d): host, component, pid = %q, %q, %d; want %q, %q, %d", i, r.Pos.Line, r.Host, r.Component, r.PID, w.host, w.component, w.pid)
		}
		if r.Time.Year() != 2023 || r.Time.Month() != 7 || r.Time.Day() != 13 {
			t.Errorf("record %d: time %v, want 2023-07-13 (the year of the RFC 3339 times in the input)", i, r.Time)
		}
	}
}
