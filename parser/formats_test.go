package parser

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// readAll reads every record of a file (decompressing as needed). Records
// are copied since the Reader reuses them.
func readAll(t *testing.T, path string, opts Options) ([]Record, Stats) {
	t.Helper()
	src := Source{Name: path, Path: path}
	rc, err := src.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if opts.Name == "" {
		opts.Name = path
	}
	return readRecords(t, rc, opts)
}

func readRecords(t *testing.T, r io.Reader, opts Options) ([]Record, Stats) {
	t.Helper()
	rd := NewReader(r, opts)
	var out []Record
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		c := *rec
		c.Fields = append([]Field(nil), rec.Fields...)
		out = append(out, c)
	}
	return out, rd.Stats()
}

func utc(y int, mo time.Month, d, h, mi, s, ns int) time.Time {
	return time.Date(y, mo, d, h, mi, s, ns, time.UTC)
}

// TestFormats checks one record of each fixture: time (year and zone),
// severity, message, two fields and where it came from.
func TestFormats(t *testing.T) {
	const (
		webPod = "default/web-7d9f8c6b5-x2kqp"
		webUID = "d003917a-6c18-4376-95fe-90d80eed7e3a"
		sbx    = "9e15054750847faaa8db2632276acff6d80e61d931c44946abf028e9ede15931"
	)
	tests := []struct {
		name      string
		file      string
		opts      Options
		index     int // which record
		time      time.Time
		sev       Severity
		msg       string
		fields    map[string]string // key -> Value.String()
		err       string
		format    Format
		host      string
		component string
		pid       int
		lines     int // physical lines of the record; 0 means 1
	}{
		{name: "journald short", file: "journald-short.log", opts: Options{Year: 2026}, index: 3,
			time: utc(2026, 11, 22, 6, 3, 26, 412560000), sev: SeverityInfo, msg: "Created PodSandbox for pod",
			fields: map[string]string{"podSandboxID": sbx, "pod": webPod}, format: FormatKlog, host: "kb-node-happy", component: "kubelet", pid: 21321},
		{name: "journald short multi-line value", file: "journald-short.log", opts: Options{Year: 2026}, index: 5,
			time: utc(2026, 11, 22, 6, 3, 33, 259100000), sev: SeverityInfo, msg: "Pod status is inconsistent with cached status for pod, a reconciliation should be triggered",
			fields: map[string]string{"pod": webPod, "statusDiff": "  &v1.PodStatus{\n- \tPhase: \"Pending\",\n+ \tPhase: \"Running\",\n  }"},
			format: FormatKlog, host: "kb-node-happy", component: "kubelet", pid: 21321, lines: 6},
		{name: "journald short-iso anchors the year", file: "journald-short-iso.log", opts: Options{ModTime: time.Date(2031, 5, 1, 0, 0, 0, 0, time.UTC)}, index: 0,
			time: utc(2026, 11, 22, 6, 3, 25, 671345000), sev: SeverityInfo, msg: "SyncLoop ADD",
			fields: map[string]string{"source": "api", "pods": "[" + webPod + "]"}, format: FormatKlog, host: "kb-node-happy", component: "kubelet", pid: 21321},
		{name: "journald short-precise", file: "journald-short-precise.log", opts: Options{Year: 2026}, index: 1,
			time: utc(2026, 11, 22, 6, 3, 25, 694331000), sev: SeverityInfo, msg: "SyncPod enter",
			fields: map[string]string{"pod": webPod, "podUID": webUID}, format: FormatKlog, host: "kb-node-happy", component: "kubelet", pid: 21321},
		{name: "journald short-iso-precise", file: "journald-short-iso-precise.log", index: 4,
			time: utc(2026, 11, 22, 6, 3, 27, 251278000), sev: SeverityInfo, msg: "SyncLoop (PLEG): event for pod",
			fields: map[string]string{"pod": webPod, "event": "{ID:" + webUID + " Type:ContainerStarted Data:" + sbx + "}"}, format: FormatKlog, host: "kb-node-happy", component: "kubelet", pid: 21321},
		{name: "journald de, December to January", file: "journald-de-rollover.log", opts: Options{Year: 2025}, index: 2,
			time: utc(2026, 1, 1, 0, 0, 0, 250000000), sev: SeverityInfo, msg: "Creating PodSandbox for pod",
			fields: map[string]string{"pod": "default/newyear-0"}, format: FormatKlog, host: "kb-node-happy", component: "kubelet", pid: 21321},
		{name: "microshift second word", file: "journald-idents.log", opts: Options{Year: 2026}, index: 3,
			time: utc(2026, 11, 22, 6, 3, 26, 412560000), sev: SeverityInfo, msg: "Created PodSandbox for pod",
			fields: map[string]string{"podSandboxID": sbx, "pod": webPod}, format: FormatKlog, host: "ushift", component: "kubelet", pid: 21321},
		{name: "containerd under journald", file: "journald-idents.log", opts: Options{Year: 2026}, index: 5,
			time: utc(2026, 11, 22, 6, 3, 26, 11834512), sev: SeverityInfo,
			msg:    "RunPodSandbox for &PodSandboxMetadata{Name:web-7d9f8c6b5-x2kqp,Uid:" + webUID + ",Namespace:default,Attempt:0,} returns sandbox id \"" + sbx + "\"",
			format: FormatLogrus, host: "kb-node-happy", component: "containerd", pid: 612},
		{name: "containerd logrus", file: "containerd.log", index: 8,
			time: utc(2026, 11, 22, 6, 5, 37, 450112938), sev: SeverityError, msg: `PullImage "docker.io/library/nginx:1.27.99" failed`,
			fields: map[string]string{"error": `failed to pull and unpack image "docker.io/library/nginx:1.27.99": failed to resolve reference "docker.io/library/nginx:1.27.99": docker.io/library/nginx:1.27.99: not found`},
			err:    `failed to pull and unpack image "docker.io/library/nginx:1.27.99": failed to resolve reference "docker.io/library/nginx:1.27.99": docker.io/library/nginx:1.27.99: not found`,
			format: FormatLogrus, component: "containerd"},
		{name: "containerd logrus bare values", file: "containerd.log", index: 9,
			time: utc(2026, 11, 22, 6, 5, 37, 451230101), sev: SeverityDebug, msg: "garbage collected",
			fields: map[string]string{"d": "1.203ms", "namespace": "k8s.io"}, format: FormatLogrus, component: "containerd"},
		{name: "CRI-O logrus", file: "crio.log", opts: Options{Component: "crio"}, index: 0,
			time: utc(2026, 11, 22, 6, 3, 26, 815930), sev: SeverityInfo, msg: "Running pod sandbox: default/web-7d9f8c6b5-x2kqp/POD",
			fields: map[string]string{"id": "5c4d2a3b-1f0e-4d6c-8b7a-9e8f7a6b5c4d", "name": "/runtime.v1.RuntimeService/RunPodSandbox"}, format: FormatLogrus, component: "crio"},
		{name: "klog legacy printf", file: "klog-legacy.log", opts: Options{Year: 2020}, index: 0,
			time: utc(2020, 1, 2, 3, 4, 5, 678901000), sev: SeverityInfo, msg: `SyncLoop (ADD, "api"): "nginx_default(3f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b)"`,
			format: FormatKlogLegacy, component: "kubelet", pid: 1234},
		{name: "klog legacy continuation", file: "klog-legacy.log", opts: Options{Year: 2020}, index: 4,
			time: utc(2020, 1, 2, 3, 4, 8, 1000), sev: SeverityInfo,
			msg:    "Pod status is inconsistent with cached status for pod \"nginx_default(3f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b)\", a reconciliation should be triggered:\n  &v1.PodStatus{\n- \tPhase: \"Pending\",\n+ \tPhase: \"Running\",\n  }",
			format: FormatKlogLegacy, component: "kubelet", pid: 1234, lines: 5},
		{name: "klog 1.2x KObjs list", file: "klog-1.2x.log", opts: Options{Year: 2022}, index: 0,
			time: utc(2022, 3, 15, 10, 20, 30, 100000000), sev: SeverityInfo, msg: "SyncLoop ADD",
			fields: map[string]string{"source": "api", "pods": "[shop/api-0 shop/web-1]"}, format: FormatKlog, component: "kubelet", pid: 5120},
		{name: "klog 1.2x quoted KObjSlice", file: "klog-1.2x.log", opts: Options{Year: 2022}, index: 1,
			time: utc(2022, 3, 15, 10, 20, 30, 200000000), sev: SeverityInfo, msg: "SyncLoop RECONCILE",
			fields: map[string]string{"source": "api", "pods": "[shop/api-0 shop/web-1]"}, format: FormatKlog, component: "kubelet", pid: 5120},
		{name: "klog 1.2x %+v event", file: "klog-1.2x.log", opts: Options{Year: 2022}, index: 2,
			time: utc(2022, 3, 15, 10, 20, 31, 300000000), sev: SeverityInfo, msg: "SyncLoop (PLEG): event for pod",
			fields: map[string]string{"pod": "shop/api-0", "event": "&{ID:6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d Type:ContainerStarted Data:7c1e4b0f5a2d3e6c8b9a0f1e2d3c4b5a6978877665544332211ffeeddccbbaa0}"},
			format: FormatKlog, component: "kubelet", pid: 5120},
		{name: "klog 1.2x error", file: "klog-1.2x.log", opts: Options{Year: 2022}, index: 4,
			time: utc(2022, 3, 15, 10, 20, 33, 500000000), sev: SeverityError, msg: "Error syncing pod, skipping",
			fields: map[string]string{"pod": "shop/api-0", "podUID": "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d"},
			err:    `failed to "StartContainer" for "api" with CrashLoopBackOff: "back-off 10s restarting failed container=api pod=api-0_shop(6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d)"`,
			format: FormatKlog, component: "kubelet", pid: 5120},
		{name: "klog multi-line statusDiff", file: "klog-multiline.log", opts: Options{Year: 2026}, index: 1,
			time: utc(2026, 11, 22, 6, 3, 33, 259100000), sev: SeverityInfo, msg: "Pod status is inconsistent with cached status for pod, a reconciliation should be triggered",
			fields: map[string]string{"pod": webPod, "statusDiff": "  &v1.PodStatus{\n- \tPhase: \"Pending\",\n+ \tPhase: \"Running\",\n  }"},
			format: FormatKlog, component: "kubelet", pid: 21321, lines: 6},
		{name: "klog after multi-line", file: "klog-multiline.log", opts: Options{Year: 2026}, index: 2,
			time: utc(2026, 11, 22, 6, 3, 33, 259218000), sev: SeverityInfo, msg: "Observed pod startup duration",
			fields: map[string]string{"pod": webPod, "podStartE2EDuration": "8.259209675s", "podStartSLOduration": "2.630695092"},
			format: FormatKlog, component: "kubelet", pid: 21321},
		{name: "pasted with > quote markers", file: "pasted-quote.log", opts: Options{Year: 2026}, index: 2,
			time: utc(2026, 11, 22, 6, 3, 33, 259100000), sev: SeverityInfo, msg: "Pod status is inconsistent with cached status for pod, a reconciliation should be triggered",
			fields: map[string]string{"pod": webPod, "statusDiff": "  &v1.PodStatus{\n- \tPhase: \"Pending\",\n+ \tPhase: \"Running\",\n  }"},
			format: FormatKlog, component: "kubelet", pid: 21321, lines: 6},
		{name: "grep -n", file: "grep-n.log", opts: Options{Year: 2026}, index: 3,
			time: utc(2026, 11, 22, 6, 3, 26, 412560000), sev: SeverityInfo, msg: "Created PodSandbox for pod",
			fields: map[string]string{"podSandboxID": sbx, "pod": webPod}, format: FormatKlog, component: "kubelet", pid: 21321},
		{name: "grep -nH context and match", file: "grep-nH.log", opts: Options{Year: 2026}, index: 3,
			time: utc(2026, 11, 22, 6, 3, 33, 259100000), sev: SeverityInfo, msg: "Pod status is inconsistent with cached status for pod, a reconciliation should be triggered",
			fields: map[string]string{"pod": webPod, "statusDiff": "  &v1.PodStatus{\n- \tPhase: \"Pending\",\n+ \tPhase: \"Running\",\n  }"},
			format: FormatKlog, component: "kubelet", pid: 21321, lines: 6},
		{name: "hard-wrapped at 80 columns", file: "hard-wrapped-80.log", opts: Options{Year: 2026}, index: 4,
			time: utc(2026, 11, 22, 6, 3, 27, 251278000), sev: SeverityInfo, msg: "SyncLoop (PLEG): event for pod",
			fields: map[string]string{"pod": webPod, "event": "{ID:" + webUID + " Type:ContainerStarted Data:" + sbx + "}"},
			format: FormatKlog, component: "kubelet", pid: 21321, lines: 4},
		{name: "annotations around lines", file: "annotations.log", opts: Options{Year: 2026}, index: 3,
			time: utc(2026, 11, 22, 6, 3, 26, 412560000), sev: SeverityInfo, msg: "Created PodSandbox for pod",
			fields: map[string]string{"podSandboxID": sbx, "pod": webPod}, format: FormatKlog, component: "kubelet", pid: 21321},
		{name: "CRLF", file: "crlf.log", opts: Options{Year: 2026}, index: 1,
			time: utc(2026, 11, 22, 6, 3, 25, 694331000), sev: SeverityInfo, msg: "SyncPod enter",
			fields: map[string]string{"pod": webPod, "podUID": webUID}, format: FormatKlog, component: "kubelet", pid: 21321},
		{name: "JSON format", file: "json.log", index: 3,
			time: time.UnixMilli(1795328066012).UTC().Add(418700 * time.Nanosecond), sev: SeverityInfo, msg: "SyncLoop ADD",
			fields: map[string]string{"source": "api", "pods": "[{name:web-json-6b7c9-k4t2p namespace:default}]"}, format: FormatJSON, component: "kubelet"},
		{name: "JSON text line before config", file: "json.log", index: 0,
			time: utc(2026, 11, 22, 6, 14, 19, 913405000), sev: SeverityInfo, msg: "Using lenient decoding as strict decoding failed",
			fields: map[string]string{"err": `strict decoding error: unknown field "podLogsDirectory"`},
			err:    `strict decoding error: unknown field "podLogsDirectory"`, format: FormatKlog, component: "kubelet", pid: 32173},
		{name: "gzip", file: "kubelet-gz.log.gz", opts: Options{Year: 2026}, index: 1,
			time: utc(2026, 11, 22, 6, 3, 25, 694331000), sev: SeverityInfo, msg: "SyncPod enter",
			fields: map[string]string{"pod": webPod, "podUID": webUID}, format: FormatKlog, component: "kubelet", pid: 21321},
		{name: "zstd", file: "kubelet-zst.log.zst", opts: Options{Year: 2026}, index: 1,
			time: utc(2026, 11, 22, 6, 3, 25, 694331000), sev: SeverityInfo, msg: "SyncPod enter",
			fields: map[string]string{"pod": webPod, "podUID": webUID}, format: FormatKlog, component: "kubelet", pid: 21321},
		{name: "tz: klog written in Berlin", file: "crlf.log", opts: Options{Year: 2026, Location: mustZone(t, "Europe/Berlin")}, index: 0,
			time: utc(2026, 11, 22, 5, 3, 25, 671345000), sev: SeverityInfo, msg: "SyncLoop ADD",
			fields: map[string]string{"source": "api", "pods": "[" + webPod + "]"}, format: FormatKlog, component: "kubelet", pid: 21321},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, st := readAll(t, filepath.Join("..", "testdata", "formats", tt.file), tt.opts)
			if !st.Accounted() {
				t.Errorf("stats not accounted: %+v", st)
			}
			if tt.index >= len(recs) {
				t.Fatalf("got %d records, want at least %d", len(recs), tt.index+1)
			}
			r := recs[tt.index]
			if !r.Time.Equal(tt.time) {
				t.Errorf("time = %v, want %v", r.Time, tt.time)
			}
			if r.Severity != tt.sev {
				t.Errorf("severity = %v, want %v", r.Severity, tt.sev)
			}
			if r.Msg != tt.msg {
				t.Errorf("msg = %q\nwant  %q", r.Msg, tt.msg)
			}
			if r.Err != tt.err {
				t.Errorf("err = %q\nwant  %q", r.Err, tt.err)
			}
			for k, want := range tt.fields {
				v, ok := r.Field(k)
				if !ok {
					t.Errorf("field %s missing; fields: %+v", k, r.Fields)
					continue
				}
				if got := v.String(); got != want {
					t.Errorf("field %s = %q\nwant      %q", k, got, want)
				}
			}
			if r.Format != tt.format {
				t.Errorf("format = %v, want %v", r.Format, tt.format)
			}
			if r.Host != tt.host {
				t.Errorf("host = %q, want %q", r.Host, tt.host)
			}
			if r.Component != tt.component {
				t.Errorf("component = %q, want %q", r.Component, tt.component)
			}
			if r.PID != tt.pid {
				t.Errorf("pid = %d, want %d", r.PID, tt.pid)
			}
			lines := tt.lines
			if lines == 0 {
				lines = 1
			}
			if r.Pos.Lines != lines {
				t.Errorf("pos.lines = %d, want %d", r.Pos.Lines, lines)
			}
		})
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("zone %s: %v", name, err)
	}
	return loc
}

// TestFieldOrder checks that logrus and klog fields keep their written order.
func TestFieldOrder(t *testing.T) {
	tests := []struct {
		name, in string
		keys     []string
	}{
		{"logrus", `time="2026-11-22 06:03:26.0Z" level=info msg="x" id=1 name=/a b=2 error="e"`, []string{"id", "name", "b", "error"}},
		{"klog", `I1122 06:03:25.671345   21321 kubelet.go:2709] "m" z=1 a="2" m=[x y] b={"k":1}`, []string{"z", "a", "m", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, _ := readRecords(t, strings.NewReader(tt.in), Options{Year: 2026})
			if len(recs) != 1 {
				t.Fatalf("got %d records", len(recs))
			}
			var keys []string
			for _, f := range recs[0].Fields {
				keys = append(keys, f.Key)
			}
			if strings.Join(keys, ",") != strings.Join(tt.keys, ",") {
				t.Errorf("keys = %v, want %v", keys, tt.keys)
			}
		})
	}
}

// TestHardWrapJoins checks that an 80-column hard wrap is undone exactly.
func TestHardWrapJoins(t *testing.T) {
	orig, _ := readAll(t, filepath.Join("..", "testdata", "formats", "kubelet-gz.log.gz"), Options{Year: 2026})
	wrapped, st := readAll(t, filepath.Join("..", "testdata", "formats", "hard-wrapped-80.log"), Options{Year: 2026})
	if len(orig) != len(wrapped) {
		t.Fatalf("got %d records, want %d", len(wrapped), len(orig))
	}
	if st.Continuations == 0 {
		t.Error("no continuation lines counted")
	}
	for i := range orig {
		for j, f := range orig[i].Fields {
			if j >= len(wrapped[i].Fields) || wrapped[i].Fields[j].Raw != f.Raw {
				t.Errorf("record %d field %s: wrapped %+v", i, f.Key, wrapped[i].Fields)
			}
		}
	}
}

// TestHardWrapWidth checks when a line continues the one before it
// without a line break: when the line before is as wide as the first line
// of the record (in runes, a prefix included), at a width people wrap at.
func TestHardWrapWidth(t *testing.T) {
	// first returns a record's first line, w runes wide, ending in the
	// bare value of k.
	first := func(prefix string, w int, tail string) string {
		l := prefix + `I1122 06:03:25.000000 1 a.go:1] "m" k=`
		return l + strings.Repeat("x", w-utf8.RuneCountInString(l+tail)) + tail
	}
	const jd = "Nov 22 06:03:25 node-1 kubelet[1]: "
	tests := []struct {
		name string
		in   []string
		want string // the value of k
	}{
		{"80 wide", []string{first("", 80, ""), "yy"}, "yy"},
		{"81 wide", []string{first("", 81, ""), "yy"}, "\nyy"},
		{"79 wide", []string{first("", 79, ""), "yy"}, "yy"},
		{"77 wide", []string{first("", 77, ""), "yy"}, "\nyy"},
		{"80 runes, 81 bytes", []string{first("", 80, "é"), "yy"}, "é" + "yy"},
		{"81 runes, 82 bytes", []string{first("", 81, "é"), "yy"}, "é\nyy"},
		{"80 wide with a journald prefix", []string{first(jd, 80, ""), jd + "yy"}, "yy"},
		{"81 wide with a journald prefix", []string{first(jd, 81, ""), jd + "yy"}, "\nyy"},
		{"80, 80, 5", []string{first("", 80, ""), strings.Repeat("z", 80), "yy"}, strings.Repeat("z", 80) + "yy"},
		{"80, 75, 5", []string{first("", 80, ""), strings.Repeat("z", 75), "yy"}, strings.Repeat("z", 75) + "\nyy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := strings.Join(tt.in, "\n") + "\n"
			recs, _ := readRecords(t, strings.NewReader(in), Options{Year: 2026})
			if len(recs) != 1 {
				t.Fatalf("got %d records", len(recs))
			}
			v := recs[0].Str("k")
			if got := strings.TrimLeft(v, "x"); got != tt.want {
				t.Errorf("k = …%q, want …%q", got, tt.want)
			}
		})
	}
}

// TestLineWidth checks the stand-in widths lineWidth gives instead of
// counting runes: the hard-wrap test must answer as with the true width.
func TestLineWidth(t *testing.T) {
	lines := []string{"", "I1122", strings.Repeat("x", 71), strings.Repeat("x", 72), strings.Repeat("é", 72),
		strings.Repeat("é", 40) + strings.Repeat("x", 40), strings.Repeat("x", 79) + "é", strings.Repeat("日", 80),
		strings.Repeat("x", 255) + "\xff", strings.Repeat("😀", 256), strings.Repeat("😀", 257), strings.Repeat("x", 1024),
		strings.Repeat("x", 1025), strings.Repeat("é", 600), "\xff\xfe" + strings.Repeat("x", 78)}
	for _, a := range lines {
		wa := utf8.RuneCountInString(a)
		if wrapWidth(wa) && lineWidth([]byte(a)) != wa {
			t.Errorf("lineWidth of %d runes, %d bytes = %d", wa, len(a), lineWidth([]byte(a)))
		}
		for _, b := range lines {
			wb := utf8.RuneCountInString(b)
			got := lineWidth([]byte(a)) == lineWidth([]byte(b)) && wrapWidth(lineWidth([]byte(a)))
			if want := wa == wb && wrapWidth(wa); got != want {
				t.Errorf("lines of %d and %d runes (%d, %d bytes): wrapped %v, want %v", wa, wb, len(a), len(b), got, want)
			}
		}
	}
}

func TestMain(m *testing.M) {
	os.Exit(m.Run())
}
