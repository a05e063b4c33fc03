package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTemplateOutputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	jpFile := write("names.jsonpath", `{range .items[*]}{.pod.name}={.verdict}{"\n"}{end}`)
	colsFile := write("cols.txt", "POD   VERDICT\n.pod.name   {.verdict}\n")
	badCols := write("bad.txt", "POD VERDICT\n.pod.name\n")
	dirV136 := corpus + "v1.36.3/"
	happy := dirV136 + "01-happy-path.log"
	pull := dirV136 + "02-image-pull-failure.log"
	sandbox := dirV136 + "04-sandbox-failure.log"

	for _, tt := range []struct {
		name string
		args []string
		want string // the whole stdout
	}{
		{"jsonpath range",
			[]string{"get", "pods", happy, pull, "-o", `jsonpath={range .items[*]}{.pod.namespace}/{.pod.name} {.verdict} {.stage}{"\n"}{end}`},
			"default/web-7d9f8c6b5-x2kqp Running ready\ndefault/api-6f5b9d7c4-pl8wz Stalled sandbox\n"},
		{"jsonpath list of values",
			[]string{"get", "pods", happy, pull, "-o", "jsonpath={.items[*].pod.name}"},
			"web-7d9f8c6b5-x2kqp api-6f5b9d7c4-pl8wz"},
		{"jsonpath filter and integers stay integers",
			[]string{"get", "pods", happy, "-o", `jsonpath={.items[0].stages[?(@.id=="observed")].evidence[0].line} {.items[0].stages[0].evidence[0].offset}`},
			"727 90748"},
		{"jsonpath missing key prints nothing",
			[]string{"get", "pods", happy, "-o", "jsonpath={.items[0].nosuchfield}"},
			""},
		{"jsonpath-file",
			[]string{"get", "pods", happy, pull, "-o", "jsonpath-file=" + jpFile},
			"web-7d9f8c6b5-x2kqp=Running\napi-6f5b9d7c4-pl8wz=Stalled\n"},
		{"custom-columns",
			[]string{"get", "pods", happy, sandbox, "-o", "custom-columns=POD:.pod.name,E2E:startup.kubeletE2E,MIRROR:{.mirrorUID},IMAGES:.containers[*].image"},
			"POD                        E2E              MIRROR   IMAGES\n" +
				"web-7d9f8c6b5-x2kqp        8.259209675s     <none>   docker.io/library/busybox:1.36,docker.io/fluent/fluent-bit:3.1.9,docker.io/library/nginx:1.27.3\n" +
				"payments-7b4d9c8f6-q9zrt   1m1.931118796s   <none>   registry.example.com/payments/api:v2.14.0\n"},
		{"custom-columns no headers",
			[]string{"get", "pods", happy, "--no-headers", "-o", "custom-columns=POD:.pod.name,NODE:.node"},
			"web-7d9f8c6b5-x2kqp   kb-node-happy\n"},
		{"custom-columns-file",
			[]string{"get", "pods", happy, pull, "-o", "custom-columns-file=" + colsFile},
			"POD                   VERDICT\nweb-7d9f8c6b5-x2kqp   Running\napi-6f5b9d7c4-pl8wz   Stalled\n"},
		{"nodes jsonpath",
			[]string{"get", "nodes", happy, pull, "-o", "jsonpath={[*].name}"},
			"kb-node-happy kb-node-pullfail"},
		{"nodes custom-columns",
			[]string{"get", "nodes", happy, "-o", "custom-columns=NODE:.name,KUBELET:.kubeletVersion"},
			"NODE            KUBELET\nkb-node-happy   v1.36.3\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runPodflow(t, false, tt.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if stdout != tt.want {
				t.Errorf("stdout:\n%q\nwant:\n%q", stdout, tt.want)
			}
		})
	}

	for _, tt := range []struct {
		name, output, want string
	}{
		{"no template", "jsonpath=", "-o jsonpath= needs a template after ="},
		{"no file", "custom-columns-file", "needs a file name"},
		{"bad jsonpath", "jsonpath={.items[", "-o jsonpath:"},
		{"bad column", "custom-columns=NAME", `"NAME" is not HEADER:PATH`},
		{"missing file", "jsonpath-file=" + filepath.Join(dir, "nope"), "no such file"},
		{"column file shape", "custom-columns-file=" + badCols, "2 headers but 1 paths"},
		{"unknown lists templates", "go-template={{.}}", "custom-columns="},
	} {
		t.Run("usage "+tt.name, func(t *testing.T) {
			stdout, stderr, code := runPodflow(t, false, "get", "pods", happy, "-o", tt.output)
			if code != ExitUsage || stdout != "" || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit %d and %q", code, stdout, stderr, ExitUsage, tt.want)
			}
		})
	}
}
