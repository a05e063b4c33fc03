package parser

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestK0sWrapper: k0s logs each line of the kubelet's (and containerd's)
// standard error as a logrus line whose msg is the whole line. The record
// is the inner line: the klog header's time, severity, PID and call site,
// the kubelet's message and fields; a containerd line inside is the
// logrus line it is. The same lines pasted through a markdown editor
// (`remote\_runtime.go:176\]`, every backslash doubled) read the same.
func TestK0sWrapper(t *testing.T) {
	const (
		pod = "kube-system/kube-router-x7p2q"
		uid = "5b0e8c4d-2f6a-4e71-9c3d-8a1f7e6b2d90"
		err = "rpc error: code = Unknown desc = failed to create containerd task: failed to create shim task: failed to mount rootfs component: invalid argument: unknown"
	)
	at := func(s string) time.Time {
		tm, e := time.Parse("2006-01-02 15:04:05.000000", "2023-06-19 "+s)
		if e != nil {
			t.Fatal(e)
		}
		return tm
	}
	type want struct {
		time              time.Time
		sev               Severity
		format            Format
		component, source string
		msg, pod, err     string
	}
	kubelet := func(tm string, sev Severity, source, msg, pod, err string) want {
		return want{at(tm), sev, FormatKlog, "kubelet", source, msg, pod, err}
	}
	all := []want{
		kubelet("14:32:01.402117", SeverityInfo, "kubelet.go:2320", "SyncLoop ADD", "", ""),
		kubelet("14:32:01.512906", SeverityInfo, "reconciler_common.go:258", `operationExecutor.VerifyControllerAttachedVolume started for volume "lib-modules" (UniqueName: "kubernetes.io/host-path/`+uid+`-lib-modules") pod "kube-router-x7p2q" (UID: "`+uid+`") `, pod, ""),
		kubelet("14:32:02.881540", SeverityInfo, "util.go:30", "No sandbox for pod can be found. Need to start a new one", pod, ""),
		{time.Date(2023, 6, 19, 14, 32, 3, 177330253, time.UTC), SeverityError, FormatLogrus, "containerd", "", "RunPodSandbox for &PodSandboxMetadata{Name:kube-router-x7p2q,Uid:" + uid + ",Namespace:kube-system,Attempt:0,} failed, error", "", "failed to create containerd task: failed to create shim task: failed to mount rootfs component: invalid argument: unknown"},
		kubelet("14:32:03.177497", SeverityError, "remote_runtime.go:176", "RunPodSandbox from runtime service failed", "", err),
		kubelet("14:32:03.177531", SeverityError, "kuberuntime_sandbox.go:72", "Failed to create sandbox for pod", pod, err),
		kubelet("14:32:03.177543", SeverityError, "kuberuntime_manager.go:1122", "CreatePodSandbox for pod failed", pod, err),
		kubelet("14:32:03.177580", SeverityError, "pod_workers.go:1294", "Error syncing pod, skipping", pod,
			`failed to "CreatePodSandbox" for "kube-router-x7p2q_kube-system(`+uid+`)" with CreatePodSandboxError: "Failed to create sandbox for pod \"kube-router-x7p2q_kube-system(`+uid+`)\": `+err+`"`),
	}
	dir := filepath.Join("..", "testdata", "formats", "pasted")
	tests := []struct {
		file  string
		want  []want
		host  string
		first int64 // line of the first record
		// prose: the lines of prose around the wrappers (none is a
		// wrapped line's continuation: k0s writes each line whole)
		prose int64
	}{
		{"k0s-journal.log", all, "worker-1", 2, 0},
		{"k0s-markdown.log", all[3:], "", 3, 2},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			// No year given: the wrapper's time says 2023.
			recs, st := readAll(t, filepath.Join(dir, tt.file), Options{ModTime: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)})
			if !st.Accounted() || st.Unrecognized != tt.prose || st.Continuations != 0 || st.Records != int64(len(tt.want)) {
				t.Errorf("stats %+v", st)
			}
			if len(recs) != len(tt.want) {
				t.Fatalf("%d records, want %d; stats %+v", len(recs), len(tt.want), st)
			}
			for i, w := range tt.want {
				r := recs[i]
				if !r.Time.Equal(w.time) || r.Severity != w.sev || r.Format != w.format || r.Component != w.component || r.Source != w.source || r.Host != tt.host {
					t.Errorf("record %d: %v %v %v %q %q %q, want %v %v %v %q %q %q", i, r.Time, r.Severity, r.Format, r.Component, r.Source, r.Host,
						w.time, w.sev, w.format, w.component, w.source, tt.host)
				}
				if r.Msg != w.msg || r.Str("pod") != w.pod || r.Err != w.err || r.Truncated {
					t.Errorf("record %d: %q pod %q err %q truncated %v,\nwant %q pod %q err %q", i, r.Msg, r.Str("pod"), r.Err, r.Truncated, w.msg, w.pod, w.err)
				}
				if r.Pos.Line != tt.first+int64(i) || r.Pos.Lines != 1 {
					t.Errorf("record %d at line %d (%d lines)", i, r.Pos.Line, r.Pos.Lines)
				}
				if w.format == FormatKlog && r.PID != 117 {
					t.Errorf("record %d: pid %d", i, r.PID)
				}
			}
			if pods := recs[0].Fields; tt.file == "k0s-journal.log" && (len(pods) != 2 || pods[1].Key != "pods" || len(pods[1].Value.List) != 1 || pods[1].Value.List[0].Str != pod) {
				t.Errorf("SyncLoop ADD fields %+v", pods)
			}
		})
	}
}

// TestK0sWrapperEdges: a wrapper the terminal cut inside its msg gives the
// kubelet's line up to the cut, its last value closed, Truncated; a
// wrapper with no time of its own takes the klog header's; a wrapped
// kubelet line whose quotes were escaped once more reads as the line; and
// the logrus lines of containerd and CRI-O, whose msg is no log line,
// read as before; a `\_` alone (a markdown editor that did not double the
// backslashes) is undone alone.
func TestK0sWrapperEdges(t *testing.T) {
	in := strings.Join([]string{
		`time="2024-07-08 08:46:26" level=info msg="E0708 08:46:26.112550    1814 kuberuntime_manager.go:1256] \"Unhandled Error\" err=\"container shell start failed in pod node-shell-4f0c_kube-system(9a1b2c3d-0000-4e5f-8a9b-0c1d2e3f4a5b): ErrImagePull: failed to pull and unpack image \\\"docker.io/library/alpi`,
		`time="2024-07-08 08:46:27" level=info msg="I0708 08:46:27.000100    1814 pod\_workers.go:1301] \"Error syncing pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"shell\\\" with ErrImagePull\" pod=\"kube-system/node-shell-4f0c\"" component=kubelet`,
		`time="2024-07-08 08:46:28" level=info msg="I0708 08:46:28.000200    1814 kubelet.go:2457] \\\"SyncLoop (probe)\\\" probe=\\\"readiness\\\" status=\\\"ready\\\" pod=\\\"kube-system/node-shell-4f0c\\\"" component=kubelet stream=stderr`,
		`time="2024-07-08T08:46:29.100000000Z" level=info msg="Pulled image \"docker.io/library/alpine:3.20\" with image id \"sha256:aa\"" component=containerd`,
		`time="2024-07-08T08:46:29.200000000Z" level=info msg="I0708 is no klog line of a kubelet" component=containerd`,
	}, "\n") + "\n"
	recs, st := readRecords(t, strings.NewReader(in), Options{})
	if len(recs) != 5 || !st.Accounted() || st.Unrecognized != 0 || st.CutShort != 1 {
		t.Fatalf("%d records, stats %+v", len(recs), st)
	}
	r := recs[0]
	if r.Msg != "Unhandled Error" || r.Err != `container shell start failed in pod node-shell-4f0c_kube-system(9a1b2c3d-0000-4e5f-8a9b-0c1d2e3f4a5b): ErrImagePull: failed to pull and unpack image "docker.io/library/alpi` ||
		!r.Truncated || r.Format != FormatKlog || r.Time.Year() != 2024 {
		t.Errorf("cut: %q err %q truncated %v %v %v", r.Msg, r.Err, r.Truncated, r.Format, r.Time)
	}
	if r := recs[1]; r.Msg != "Error syncing pod, skipping" || r.Err != `failed to "StartContainer" for "shell" with ErrImagePull` || r.Source != "pod_workers.go:1301" ||
		r.Str("pod") != "kube-system/node-shell-4f0c" || !r.Time.Equal(time.Date(2024, 7, 8, 8, 46, 27, 100000, time.UTC)) || r.Component != "kubelet" {
		t.Errorf("markdown's \\_ alone: %q %q %q %q %v %q", r.Msg, r.Err, r.Source, r.Str("pod"), r.Time, r.Component)
	}
	if r := recs[2]; r.Msg != "SyncLoop (probe)" || r.Str("status") != "ready" || r.Str("pod") != "kube-system/node-shell-4f0c" || r.Format != FormatKlog || r.Truncated {
		t.Errorf("escaped twice: %q %q %q %v", r.Msg, r.Str("status"), r.Str("pod"), r.Format)
	}
	for i, msg := range []string{`Pulled image "docker.io/library/alpine:3.20" with image id "sha256:aa"`, "I0708 is no klog line of a kubelet"} {
		if r := recs[3+i]; r.Format != FormatLogrus || r.Msg != msg || r.Component != "containerd" {
			t.Errorf("logrus %d: %v %q %q", i, r.Format, r.Msg, r.Component)
		}
	}
}
