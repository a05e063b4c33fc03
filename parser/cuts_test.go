package parser

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCutAtStart: pasted excerpts whose first line the selection began
// inside the klog header (`22 06:03:25.671345 …`, `:41.009871 …`, `45 …`:
// no severity letter, a date and time that are not whole) read as klog
// records with no time and an unknown severity, their message, call site,
// PID and pod as written; the whole lines after them as usual.
func TestCutAtStart(t *testing.T) {
	const pod = "shop/cart-6f9d8b7c5-4kqzt"
	recs, st := readAll(t, filepath.Join("..", "testdata", "formats", "pasted", "cut-start.log"), Options{Year: 2026})
	if !st.Accounted() || st.Records != 6 {
		t.Fatalf("%d records, stats %+v", len(recs), st)
	}
	tests := []struct {
		line         int64
		time         time.Time
		sev          Severity
		source, msg  string
		pod, podsKey string
	}{
		{3, time.Time{}, SeverityUnknown, "kubelet.go:2409", "SyncLoop ADD", "", pod},
		{4, utc(2026, 11, 22, 6, 3, 25, 702113000), SeverityInfo, "util.go:30", "No sandbox for pod can be found. Need to start a new one", pod, ""},
		{5, utc(2026, 11, 22, 6, 3, 27, 118240000), SeverityError, "log.go:32", "RunPodSandbox from runtime service failed", "", ""},
		{9, time.Time{}, SeverityUnknown, "kubelet.go:2441", "SyncLoop (PLEG): event for pod", pod, ""},
		{10, utc(2026, 11, 22, 6, 4, 2, 341120000), SeverityInfo, "prober.go:107", "Probe failed", pod, ""},
		{14, time.Time{}, SeverityUnknown, "kubelet.go:2457", "SyncLoop (probe)", pod, ""},
	}
	for i, w := range tests {
		r := recs[i]
		if r.Pos.Line != w.line || !r.Time.Equal(w.time) || r.Severity != w.sev || r.Source != w.source || r.Msg != w.msg || r.PID != 21321 || r.Format != FormatKlog {
			t.Errorf("record %d: line %d %v %v %q %q pid %d %v, want line %d %v %v %q %q", i, r.Pos.Line, r.Time, r.Severity, r.Source, r.Msg, r.PID, r.Format,
				w.line, w.time, w.sev, w.source, w.msg)
		}
		if r.Str("pod") != w.pod {
			t.Errorf("record %d: pod %q, want %q", i, r.Str("pod"), w.pod)
		}
		if v, _ := r.Field("pods"); w.podsKey != "" && (len(v.List) != 1 || v.List[0].Str != w.podsKey) {
			t.Errorf("record %d: pods %+v", i, v)
		}
	}

	// Cut at every byte of the header: each is read (from the month's
	// second digit on; a line with its severity letter is a klog line),
	// and a digit, colon or point where the header has none is not.
	line := `I1122 06:03:25.671345   21321 kubelet.go:2409] "SyncLoop ADD" source="api" pods=["shop/cart-6f9d8b7c5-4kqzt"]`
	for k := 1; k < len("I1122 06:03:25.671345 "); k++ {
		in := "prose before\n" + line[k:] + "\n"
		recs, st := readRecords(t, strings.NewReader(in), Options{Year: 2026})
		if len(recs) != 1 || st.Unrecognized != 1 || recs[0].Msg != "SyncLoop ADD" || recs[0].Source != "kubelet.go:2409" || !recs[0].Time.IsZero() {
			t.Errorf("cut at %d %q: %d records, stats %+v", k, line[k:k+8], len(recs), st)
		}
	}
	for _, in := range []string{
		"22:06 03:25.671345   21321 kubelet.go:2409] \"SyncLoop ADD\"\n",    // a colon where a space is
		"1122 06:03:25.6713451   21321 kubelet.go:2409] \"SyncLoop ADD\"\n", // seven digits of microseconds
		"2026-11-22 06:03:25   21321 kubelet.go:2409] \"SyncLoop ADD\"\n",   // no klog header's end
		"06:03:25.671345 21321 main.go:12 no bracket\n",
	} {
		if recs, st := readRecords(t, strings.NewReader(in), Options{Year: 2026}); len(recs) != 0 || st.Unrecognized != 1 {
			t.Errorf("%q: %d records, stats %+v", in, len(recs), st)
		}
	}
}

// TestOpenValueCut: lines a terminal cut at 256 columns inside a quoted
// value whose text holds ` key=` of its own (`plugin type=\"calico\"`,
// `restarting failed container=cart pod=…`): the value runs to the cut,
// unescaped, the record is Truncated, and no field is made of the value's
// text (a pod= inside an error is not the record's pod).
func TestOpenValueCut(t *testing.T) {
	const pod = "shop/cart-6f9d8b7c5-4kqzt"
	recs, st := readAll(t, filepath.Join("..", "testdata", "formats", "pasted", "err-cut-256.log"), Options{Year: 2026})
	if !st.Accounted() || st.Records != 7 || st.CutShort != 5 {
		t.Fatalf("%d records, stats %+v", len(recs), st)
	}
	sandbox := `rpc error: code = Unknown desc = failed to setup network for sandbox "b41c07e9d2a85f3361c9e0a7d4b8f2c6e15a93d70b8c4e2f9a61d3c5e7b08f42": plugin type="calico`
	tests := []struct {
		msg, err, pod string
		fields        int
		cut           bool
	}{
		{"SyncLoop ADD", "", "", 2, false},
		{"No sandbox for pod can be found. Need to start a new one", "", pod, 1, false},
		{"RunPodSandbox from runtime service failed", sandbox + `" fail`, "", 1, true},
		{"Failed to create sandbox for pod", sandbox, "", 1, true},
		{"Error syncing pod, skipping", `failed to "CreatePodSandbox" for "cart-6f9d8b7c5-4kqzt_shop(3e7b1c9a-5d2f-4a86-b0e4-7c91d2f8a635)" with CreatePodSandboxError: "Failed to create sandbox for pod \"`, "", 1, true},
		{"Probe failed", "", pod, 6, true},
		{"Error syncing pod, skipping", `failed to "StartContainer" for "cart" with CrashLoopBackOff: "back-off 40s restarting failed container=cart pod=cart-6f9d8b7c5-4kqzt_shop(3e7b1c9a-5d2f-4a86-b0e4-7c9`, "", 1, true},
	}
	for i, w := range tests {
		r := recs[i]
		if r.Msg != w.msg || r.Err != w.err || r.Str("pod") != w.pod || len(r.Fields) != w.fields || r.Truncated != w.cut {
			t.Errorf("record %d: %q err %q pod %q %d fields truncated %v,\nwant %q err %q pod %q %d fields truncated %v", i, r.Msg, r.Err, r.Str("pod"), len(r.Fields), r.Truncated,
				w.msg, w.err, w.pod, w.fields, w.cut)
		}
	}
	if out := recs[5].Str("output"); out != `Get "http://10.244.1.7:8080/healthz": dial` {
		t.Errorf("probe output %q", out)
	}

	// One line, no width to go by: a value left open still runs to the
	// end of the line and marks the record cut.
	in := `E1122 06:03:27.118240   21321 log.go:32] "RunPodSandbox from runtime service failed" err="rpc error: code = Unknown desc = failed to setup network: plugin type=\"calico\" failed (add): error getting ClusterInfor` + "\n"
	recs, _ = readRecords(t, strings.NewReader(in), Options{Year: 2026})
	if len(recs) != 1 || recs[0].Err != `rpc error: code = Unknown desc = failed to setup network: plugin type="calico" failed (add): error getting ClusterInfor` || !recs[0].Truncated || len(recs[0].Fields) != 1 {
		t.Errorf("one line: %+v", recs)
	}
}

// TestPagerCut: journalctl's pager (less -S) chops each long line at the
// terminal's width and puts a '>' in its last column: the mark is no text
// of the value it cut, and the record is Truncated.
func TestPagerCut(t *testing.T) {
	recs, st := readAll(t, filepath.Join("..", "testdata", "formats", "pasted", "pager-cut-200.log"), Options{Year: 2026})
	if !st.Accounted() || st.Records != 7 || st.CutShort != 5 || st.Annotations != 1 {
		t.Fatalf("%d records, stats %+v", len(recs), st)
	}
	for i, w := range []struct{ key, val string }{
		{"pods", "[shop/cart-6f9d8b7c5-4kqzt]"},
		{"pod", "shop/cart-6f9d8b7c5-4kqzt"},
		{"err", "rpc error: code = Unknown desc = failed to setup network for san"},
		{"err", "rpc error: code = Unknown desc = failed to setup network"},
		{"err", `failed to "CreatePodSandbox" for "cart-6f9d8b7c5-4kqzt_shop(3e7b1`},
		{"event", "{ID:3e7b1c9a-5d2f-4a86-b0e4-7c91d}"},
		{"podUID", "3e7b1c9a-5d2f-4a86-b0e4-7c91d2f8"},
	} {
		r := recs[i]
		f := r.Fields[len(r.Fields)-1]
		if f.Key != w.key || f.Value.String() != w.val || r.Truncated != (i >= 2) || r.Host != "ip-10-0-3-41" {
			t.Errorf("record %d: last field %s=%s truncated %v host %q, want %s=%s", i, f.Key, f.Value.String(), r.Truncated, r.Host, w.key, w.val)
		}
	}
}
