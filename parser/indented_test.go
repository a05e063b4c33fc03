package parser

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIndentedBlock: kubelet lines pasted as an indented console block
// (four spaces of a markdown code block, with a multi-line statusDiff
// value; a bullet's fenced journalctl output; a web console's copy
// indented with no-break spaces) are each a record of their own, and the
// prose after a block, at the first column, is no continuation of its
// last record: it is counted unread.
func TestIndentedBlock(t *testing.T) {
	const pod = "payments/ledger-5c9b7d8f6-w3r8k"
	recs, st := readAll(t, filepath.Join("..", "testdata", "formats", "pasted", "indented-block.log"), Options{Year: 2026})
	if !st.Accounted() || st.Records != 8 || st.Continuations != 5 || st.Unrecognized != 4 || st.Annotations != 4 {
		t.Fatalf("%d records, stats %+v", len(recs), st)
	}
	at := func(s string) time.Time {
		tm, err := time.Parse("15:04:05.000000", s)
		if err != nil {
			t.Fatal(err)
		}
		return utc(2026, 11, 22, tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond())
	}
	tests := []struct {
		line      int64
		lines     int
		time      time.Time
		msg, host string
	}{
		{3, 1, at("06:03:25.671345"), "SyncLoop ADD", ""},
		{4, 6, at("06:03:33.259100"), "Pod status is inconsistent with cached status for pod, a reconciliation should be triggered", ""},
		{10, 1, at("06:03:34.100200"), "SyncLoop (PLEG): event for pod", ""},
		{11, 1, at("06:03:41.500300"), "Probe failed", ""},
		{19, 1, at("06:03:42.100400"), "Probe failed", "node-3"},
		{20, 1, at("06:03:52.100500"), "SyncLoop (probe)", "node-3"},
		{23, 1, at("06:04:02.341120"), "SyncLoop (probe)", ""},
		{24, 1, at("06:04:12.341220"), "SyncLoop (probe)", ""},
	}
	for i, w := range tests {
		r := recs[i]
		p := r.Str("pod")
		if i == 0 {
			v, _ := r.Field("pods")
			if len(v.List) == 1 {
				p = v.List[0].Str
			}
		}
		if r.Pos.Line != w.line || r.Pos.Lines != w.lines || !r.Time.Equal(w.time) || r.Msg != w.msg || p != pod || r.Host != w.host || r.Truncated {
			t.Errorf("record %d: line %d (%d) %v %q pod %q host %q truncated %v, want line %d (%d) %v %q host %q", i, r.Pos.Line, r.Pos.Lines, r.Time, r.Msg, p, r.Host, r.Truncated,
				w.line, w.lines, w.time, w.msg, w.host)
		}
	}
	if d := recs[1].Str("statusDiff"); !strings.Contains(d, `+ 	Phase: "Running",`) {
		t.Errorf("statusDiff %q", d)
	}
	if o := recs[3].Str("output"); o != "HTTP probe failed with statuscode: 503" {
		t.Errorf("the block's last record took the prose after it: output %q, fields %+v", o, recs[3].Fields)
	}

	// In an indented block a line the terminal hard-wrapped at 80 columns
	// goes on at the first column: still the record's. A line of a
	// multi-line message keeps the block's indentation: the record's too.
	wrapped := `    I1122 06:03:41.500300   21321 prober.go:107] "Probe failed" probeType="Readi`
	if n := len([]rune(wrapped)); n != 80 {
		t.Fatalf("wrapped line is %d wide", n)
	}
	in := wrapped + "\n" + `ness" pod="` + pod + `"` + "\n" +
		`    E1122 06:03:42.000000   21321 kuberuntime_manager.go:1000] Failed to start: exit status 1` + "\n" +
		`    stderr: mount: permission denied` + "\n" +
		"Then it went on.\n"
	recs, st = readRecords(t, strings.NewReader(in), Options{Year: 2026})
	if len(recs) != 2 || st.Continuations != 2 || st.Unrecognized != 1 {
		t.Fatalf("%d records, stats %+v", len(recs), st)
	}
	if r := recs[0]; r.Str("probeType") != "Readiness" || r.Str("pod") != pod || r.Pos.Lines != 2 {
		t.Errorf("hard-wrapped: %+v", r)
	}
	if r := recs[1]; r.Msg != "Failed to start: exit status 1\nstderr: mount: permission denied" || r.Pos.Lines != 2 {
		t.Errorf("multi-line: %q (%d lines)", r.Msg, r.Pos.Lines)
	}
}
