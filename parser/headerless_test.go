package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrippedKlogHeader: kubeadm-2234's klog lines, pasted without their
// "Lmmdd hh:mm:ss.uuuuuu", are read as klog records in their order, with
// their PID, call site and message, no time and no severity; lines that
// only look alike are not.
func TestStrippedKlogHeader(t *testing.T) {
	path := filepath.Join("..", "testdata", "wild", "kubeadm-2234-stripped-header.log")
	recs, st := readAll(t, path, Options{Year: 2020})
	if !st.Accounted() || st.Records != 11 || st.Unrecognized != 0 || st.Annotations != 2 {
		t.Fatalf("stats %+v", st)
	}
	if !st.FirstTime.IsZero() || !st.LastTime.IsZero() {
		t.Errorf("span %v–%v from lines with no time", st.FirstTime, st.LastTime)
	}
	for i, r := range recs {
		if !r.Time.IsZero() || r.Severity != SeverityUnknown || r.PID != 58430 || r.Format != FormatKlogLegacy || r.Component != "kubelet" {
			t.Errorf("record %d: %v %v pid %d %v %q", i, r.Time, r.Severity, r.PID, r.Format, r.Component)
		}
		if r.Pos.Line != int64(i+2) || r.Pos.Lines != 1 {
			t.Errorf("record %d at line %d (%d lines)", i, r.Pos.Line, r.Pos.Lines)
		}
	}
	if r := recs[0]; r.Source != "pod_container_deletor.go:77" || r.Msg != `Container "beb4e675127f3860867df0c3cad77d12228e98df20c015924655e7f2f82a36f5" not found in pod's containers` {
		t.Errorf("record 0: %q %q", r.Source, r.Msg)
	}
	if r := recs[7]; r.Source != "kubelet.go:2267" || r.Msg != `node "ctrl01" not found` {
		t.Errorf("record 7: %q %q", r.Source, r.Msg)
	}

	// testdata/formats/pasted/stripped-header.log: 04-sandbox-failure's
	// first 32 lines naming its pod, their first 22 bytes cut away, read
	// as the whole lines are but for time and severity.
	var whole []string
	data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "04-sandbox-failure.log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "payments-7b4d9c8f6-q9zrt") && len(whole) < 32 {
			whole = append(whole, l)
		}
	}
	want, _ := readRecords(t, strings.NewReader(strings.Join(whole, "\n")), Options{Year: 2026})
	recs, st = readAll(t, filepath.Join("..", "testdata", "formats", "pasted", "stripped-header.log"), Options{Year: 2026})
	if len(recs) != len(want) || len(recs) != 32 || st.Unrecognized != 0 || st.Continuations != 0 {
		t.Fatalf("%d records, want %d; stats %+v", len(recs), len(want), st)
	}
	for i, r := range recs {
		w := want[i]
		if r.Msg != w.Msg || r.Source != w.Source || r.PID != w.PID || r.Format != w.Format || r.Err != w.Err || len(r.Fields) != len(w.Fields) || r.Str("pod") != w.Str("pod") || !r.Time.IsZero() {
			t.Errorf("line %d: %q %q %d %v %d fields, want %q %q %d %v %d", i+1, r.Msg, r.Source, r.PID, r.Format, len(r.Fields), w.Msg, w.Source, w.PID, w.Format, len(w.Fields))
		}
	}

	// The structured form, a journald prefix's time, and the shapes that
	// are not such a line.
	// (The shapes that are not such a line first: after a record they
	// would continue it.)
	in := " 2 files changed, 3 insertions(+)\n" +
		"  120 main.go:12 no bracket\n" +
		"1234 notes.txt:12] not Go\n" +
		"\t/usr/local/go/src/runtime/proc.go:250 +0x1a\n" +
		"12345678901 kubelet.go:1] an eleven-digit PID\n" +
		"42 kubelet.go:x] no line number\n" +
		" 4127 kubelet.go:2709] \"SyncLoop ADD\" source=\"api\" pods=[\"default/web-0\"]\n" +
		"Feb 23 08:14:31 node-1 kubelet[4127]:    4127 kubelet_node_status.go:294] Setting node annotation\n"
	recs, st = readRecords(t, strings.NewReader(in), Options{Year: 2020})
	if len(recs) != 2 || st.Unrecognized != 6 {
		t.Fatalf("%d records, stats %+v", len(recs), st)
	}
	if r := recs[0]; r.Format != FormatKlog || r.Msg != "SyncLoop ADD" || r.Str("source") != "api" || !r.Time.IsZero() {
		t.Errorf("structured: %v %q %q %v", r.Format, r.Msg, r.Str("source"), r.Time)
	}
	if r := recs[1]; r.Time != utc(2020, 2, 23, 8, 14, 31, 0) || r.Host != "node-1" || r.Msg != "Setting node annotation" {
		t.Errorf("journald: %v %q %q", r.Time, r.Host, r.Msg)
	}
}

// TestHeaderlessJournalLine: k8s-25456's kubelet journal entry holding a
// later part of a sync error, its klog header on a line the poster left
// out, is a kubelet record at the journal's time whose message is its
// text, the list's closing "]" on the next entry joined to it. Such an
// entry after a record of its process still continues that record, and
// other daemons' entries are not read so.
func TestHeaderlessJournalLine(t *testing.T) {
	path := filepath.Join("..", "testdata", "wild", "k8s-25456-terminating.log")
	recs, st := readAll(t, path, Options{Year: 2018})
	if !st.Accounted() || st.Records != 2 || st.Continuations != 1 || st.Unrecognized != 0 {
		t.Fatalf("stats %+v", st)
	}
	r := recs[0]
	if r.Time != utc(2018, 2, 23, 8, 14, 31, 0) || r.PID != 31877 || r.Host != "ip-10-0-3-41" || r.Component != "kubelet" || r.Source != "" || r.Severity != SeverityUnknown {
		t.Errorf("record 0: %v pid %d %q %q %q %v", r.Time, r.PID, r.Host, r.Component, r.Source, r.Severity)
	}
	if !strings.HasPrefix(r.Msg, `, failed to "KillPodSandbox" for "0e134e33-42dd-4aca-8aed-b08e244071cb" with KillPodSandboxError: "rpc error:`) ||
		!strings.HasSuffix(r.Msg, "the connection is unavailable\"\n]") || r.Pos.Line != 2 || r.Pos.Lines != 2 {
		t.Errorf("record 0: %q at %d (%d lines)", r.Msg, r.Pos.Line, r.Pos.Lines)
	}
	if r := recs[1]; r.Source != "docker_sandbox.go:240" || r.Time != utc(2018, 2, 23, 8, 14, 31, 973871000) {
		t.Errorf("record 1: %q %v", r.Source, r.Time)
	}

	in := "Feb 23 08:14:30 node-1 kubelet[7]: E0223 08:14:30.100000       7 pod_workers.go:182] Error syncing pod 0e134e33-42dd-4aca-8aed-b08e244071cb (\"web-0_default(0e134e33-42dd-4aca-8aed-b08e244071cb)\"), skipping: error killing pod: [failed to \"KillContainer\" for \"web\" with KillContainerError: \"rpc error\n" +
		"Feb 23 08:14:30 node-1 kubelet[7]: \", failed to \"KillPodSandbox\" for \"0e134e33-42dd-4aca-8aed-b08e244071cb\" with KillPodSandboxError: \"rpc error\"\n" +
		"Feb 23 08:14:30 node-1 kubelet[7]: ]\n" +
		"Feb 23 08:14:31 node-1 systemd[1]: Stopping kubelet: The Kubernetes Node Agent...\n" +
		"Feb 23 08:14:31 node-1 dockerd[9]: level=error msg=\"stream copy error\"\n"
	recs, st = readRecords(t, strings.NewReader(in), Options{Year: 2018})
	if len(recs) != 1 || recs[0].Pos.Lines != 3 || st.Unrecognized != 2 {
		t.Fatalf("%d records (%v), stats %+v", len(recs), recs, st)
	}
}
