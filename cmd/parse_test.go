package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func formatsPath(name string) string { return filepath.Join("..", "testdata", "formats", name) }

func TestNewCmdParse(t *testing.T) {
	tests := []struct {
		name     string
		cli      string
		want     ParseOptions
		wantCode int // 0: no error
		wantErr  string
	}{
		{name: "defaults", cli: "kubelet.log", want: ParseOptions{Paths: []string{"kubelet.log"}, Output: "json", TZ: "UTC"}},
		{name: "stats defaults to text", cli: "--stats a b", want: ParseOptions{Paths: []string{"a", "b"}, Output: "text", Stats: true, TZ: "UTC"}},
		{name: "stats json", cli: "--stats -o json -", want: ParseOptions{Paths: []string{"-"}, Output: "json", Stats: true, TZ: "UTC"}},
		{name: "all flags", cli: "-o text --year 2025 --tz +02:00 --grep SyncLoop --grep Pod x",
			want: ParseOptions{Paths: []string{"x"}, Output: "text", Year: 2025, TZ: "+02:00", Grep: []string{"SyncLoop", "Pod"}}},
		{name: "no args", cli: "", wantCode: ExitUsage, wantErr: "give at least one FILE, DIR or - for standard input"},
		{name: "bad output", cli: "-o yml x", wantCode: ExitUsage, wantErr: `unknown output format "yml"; allowed: json, text`},
		{name: "bad year", cli: "--year 99 x", wantCode: ExitUsage, wantErr: "--year 99"},
		{name: "bad tz", cli: "--tz Mars/Olympus x", wantCode: ExitUsage, wantErr: `--tz "Mars/Olympus"`},
		{name: "bad flag", cli: "--nope x", wantCode: ExitUsage, wantErr: "unknown flag: --nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ioS, _, _, _ := NewTestIO(false)
			var got *ParseOptions
			cmd := NewCmdParse(ioS, func(o *ParseOptions) error { got = o; return nil })
			cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageErrorf("%w", err) })
			cmd.SetArgs(strings.Fields(tt.cli))
			cmd.SetOut(ioS.Out)
			cmd.SetErr(ioS.ErrOut)
			err := cmd.Execute()
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || exitCode(err) != tt.wantCode {
					t.Fatalf("err = %v (code %d), want %q (code %d)", err, exitCode(err), tt.wantErr, tt.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got.Paths, ",") != strings.Join(tt.want.Paths, ",") || got.Output != tt.want.Output || got.Stats != tt.want.Stats ||
				got.Year != tt.want.Year || got.TZ != tt.want.TZ || strings.Join(got.Grep, ",") != strings.Join(tt.want.Grep, ",") || got.Location == nil {
				t.Errorf("options = %+v\nwant      %+v", *got, tt.want)
			}
		})
	}
}

func runParse(t *testing.T, stdin string, args ...string) (code int, out, errOut string) {
	t.Helper()
	ioS, in, o, e := NewTestIO(false)
	in.WriteString(stdin)
	code = Main(ioS, append([]string{"podflow", "parse"}, args...))
	return code, o.String(), e.String()
}

func TestParseRunJSON(t *testing.T) {
	code, out, errOut := runParse(t, "", formatsPath("klog-1.2x.log"), "--year", "2022")
	if code != 0 || errOut != "" {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	var rec struct {
		Time     string `json:"time"`
		Severity string `json:"severity"`
		Msg      string `json:"msg"`
		Err      string `json:"err"`
		Fields   []struct {
			Key   string `json:"key"`
			Raw   string `json:"raw"`
			Value any    `json:"value"`
		} `json:"fields"`
		Format string `json:"format"`
		Pos    struct {
			Input  string `json:"input"`
			Line   int    `json:"line"`
			Offset int    `json:"offset"`
		} `json:"pos"`
	}
	if err := json.Unmarshal([]byte(lines[0]), &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Time != "2022-03-15T10:20:30.1Z" || rec.Severity != "info" || rec.Msg != "SyncLoop ADD" || rec.Format != "klog" ||
		rec.Pos.Input != formatsPath("klog-1.2x.log") || rec.Pos.Line != 1 {
		t.Errorf("record %+v", rec)
	}
	if len(rec.Fields) != 2 || rec.Fields[1].Key != "pods" || rec.Fields[1].Raw != "[shop/api-0 shop/web-1]" {
		t.Errorf("fields %+v", rec.Fields)
	}
	if l, ok := rec.Fields[1].Value.([]any); !ok || len(l) != 2 || l[0] != "shop/api-0" {
		t.Errorf("pods value %#v", rec.Fields[1].Value)
	}
	if err := json.Unmarshal([]byte(lines[4]), &rec); err != nil || rec.Severity != "error" || !strings.HasPrefix(rec.Err, `failed to "StartContainer"`) {
		t.Errorf("error record %+v (%v)", rec, err)
	}
}

func TestParseRunJSONObjectOrder(t *testing.T) {
	code, out, _ := runParse(t, "", "--grep", "Observed pod startup", formatsPath("json.log"))
	if code != 0 {
		t.Fatal(code)
	}
	if !strings.Contains(out, `"value":{"name":"web-json-6b7c9-k4t2p","namespace":"default"}`) || strings.Count(out, "\n") != 1 {
		t.Errorf("output %s", out)
	}
}

func TestParseRunText(t *testing.T) {
	evil := "I1122 06:03:25.671345   21321 kubelet.go:2709] \"SyncLoop ADD\x1b]52;c;cHduZWQ=\x07\" source=\"api\x1b[2J\" note=bad\x1b[31m\rfake\u202e\n" +
		"I1122 06:03:25.700000   21321 kubelet.go:1] legacy \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ text\b\n"
	code, out, errOut := runParse(t, evil, "-o", "text", "--year", "2026", "-")
	if code != 0 || errOut != "" {
		t.Fatalf("code %d stderr %q", code, errOut)
	}
	want := "2026-11-22T06:03:25.671345Z I kubelet kubelet.go:2709] \"SyncLoop ADD\\x1b]52;c;cHduZWQ=\\a\" source=\"api\" note=badfake\n" +
		"2026-11-22T06:03:25.700000Z I kubelet kubelet.go:1] legacy link text\n"
	if out != want {
		t.Errorf("output:\n%q\nwant\n%q", out, want)
	}
	for _, c := range out {
		if c < 0x20 && c != '\n' || c == 0x7f || c == 0x202e {
			t.Errorf("control %U in output", c)
		}
	}
}

func TestParseRunStats(t *testing.T) {
	code, out, _ := runParse(t, "", "--stats", formatsPath("kind-logs"))
	if code != 0 {
		t.Fatal(code)
	}
	for _, s := range []string{"LINES", "UNRECOGNIZED", "kind-worker/kubelet.log", "total"} {
		if !strings.Contains(out, s) {
			t.Errorf("missing %q in\n%s", s, out)
		}
	}
	if !strings.Contains(out, "skipped 5 files:") || !strings.Contains(out, "inspect.json: not a log file") {
		t.Errorf("skipped files not listed:\n%s", out)
	}
	code, out, _ = runParse(t, "", "--stats", "-o", "json", formatsPath("kind-logs"))
	var st ParseStats
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil || len(st.Inputs) != 4 || len(st.Skipped) != 5 || st.Total.Lines != 20 || st.Total.Records != 16 || !st.Inputs[0].Accounted {
		t.Errorf("json stats %+v\n%s", st, out)
	}
}

func TestParseRunInputErrors(t *testing.T) {
	code, out, errOut := runParse(t, "", "does-not-exist.log")
	if code != ExitUsage || out != "" || errOut != "podflow: does-not-exist.log: no such file or directory\n" {
		t.Errorf("code %d out %q err %q", code, out, errOut)
	}
	// A good input next to a bad one is still printed; exit 5 says partial.
	code, out, errOut = runParse(t, "", formatsPath("crlf.log"), "nope.log")
	if code != ExitPartial || strings.Count(out, "\n") != 2 || !strings.Contains(errOut, "nope.log") || strings.Count(errOut, "\n") != 1 {
		t.Errorf("code %d out %q err %q", code, out, errOut)
	}
	// A truncated gzip names the file and byte offset; what it held is out.
	data, _ := os.ReadFile(formatsPath("kubelet-gz.log.gz"))
	path := filepath.Join(t.TempDir(), "kubelet.log.gz")
	os.WriteFile(path, data[:len(data)-12], 0o644)
	code, out, errOut = runParse(t, "", "-o", "text", path)
	if code != ExitPartial || strings.Count(out, "\n") != 5 || !strings.Contains(errOut, path+":") || !strings.Contains(errOut, "(byte ") || !strings.Contains(errOut, "truncated or corrupt gzip") {
		t.Errorf("code %d out %q err %q", code, out, errOut)
	}
}

func TestParseRunTZAndGrep(t *testing.T) {
	code, out, _ := runParse(t, "", "-o", "text", "--year", "2026", "--tz", "+01:00", "--grep", "SyncPod", formatsPath("crlf.log"))
	if code != 0 || out != "2026-11-22T06:03:25.694331+01:00 I kubelet kubelet.go:2028] \"SyncPod enter\" pod=\"default/web-7d9f8c6b5-x2kqp\" podUID=\"d003917a-6c18-4376-95fe-90d80eed7e3a\"\n" {
		t.Errorf("code %d out %q", code, out)
	}
}
