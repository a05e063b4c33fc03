package timeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
)

// legacyRender rewrites a structured (1.21+) kubelet record in the printf
// form kubelets ≤1.20 wrote for the same call site (catalog §2), keeping
// the original klog header. ok is false for lines with no legacy form.
func legacyRender(header string, rec *parser.Record, uid string) (string, bool) {
	ref, _ := recordRef(rec)
	if ref.Name == "" {
		if v, ok := rec.Field("pods"); ok {
			if refs := refsFromList(v); len(refs) == 1 {
				ref = refs[0]
			}
		}
	}
	pod := fmt.Sprintf("%s_%s(%s)", ref.Name, ref.Namespace, uid)
	var text string
	switch rec.Msg {
	case "SyncLoop ADD":
		text = fmt.Sprintf(`SyncLoop (ADD, %q): %q`, rec.Str("source"), pod)
	case "No sandbox for pod can be found. Need to start a new one":
		text = fmt.Sprintf(`No sandbox for pod %q can be found. Need to start a new one`, pod)
	case "Creating PodSandbox for pod":
		text = fmt.Sprintf(`Creating PodSandbox for pod %q`, pod)
	case "Created PodSandbox for pod":
		text = fmt.Sprintf(`Created PodSandbox %q for pod %q`, rec.Str("podSandboxID"), pod)
	case "CreatePodSandbox for pod failed":
		text = fmt.Sprintf(`createPodSandbox for pod %q failed: %s`, pod, rec.Err)
	case "Error syncing pod, skipping":
		text = fmt.Sprintf(`Error syncing pod %s (%q), skipping: %s`, uid, pod, rec.Err)
	case "Waiting for volumes to attach and mount for pod":
		text = fmt.Sprintf(`Waiting for volumes to attach and mount for pod %q`, pod)
	case "All volumes are attached and mounted for pod":
		text = fmt.Sprintf(`All volumes are attached and mounted for pod %q`, pod)
	case "SyncLoop (PLEG): event for pod":
		id, typ, data := plegEvent(rec)
		text = fmt.Sprintf(`SyncLoop (PLEG): %q, event: &pleg.PodLifecycleEvent{ID:%q, Type:%q, Data:%q}`, pod, id, typ, data)
	case "SyncLoop DELETE":
		text = fmt.Sprintf(`SyncLoop (DELETE, %q): %q`, rec.Str("source"), pod)
	case "SyncLoop REMOVE":
		text = fmt.Sprintf(`SyncLoop (REMOVE, %q): %q`, rec.Str("source"), pod)
	case "Killing container with a grace period":
		// kuberuntime_container.go ≤1.20: the container's ID alone.
		text = fmt.Sprintf(`Killing container %q with a %s second grace period`, rec.Str("containerID"), rec.Str("gracePeriod"))
	case "Probe failed":
		text = fmt.Sprintf(`%s probe for %q failed (%s): %s`, rec.Str("probeType"), pod+":"+rec.Str("containerName"), rec.Str("probeResult"), rec.Str("output"))
	case "Event occurred":
		return "", true // structured from 1.19 (StartStructuredLogging)
	default:
		return "", false
	}
	return header + text, true
}

func TestLegacyPrintfAgrees(t *testing.T) {
	for _, tc := range []struct{ file, pod string }{
		{"v1.28.15/04-sandbox-failure.log", "payments-7b4d9c8f6-q9zrt"},
		{"v1.28.15/02-image-pull-failure.log", "api-6f5b9d7c4-pl8wz"},
	} {
		path := filepath.Join(corpus, tc.file)
		structured := onlyFlow(t, buildFile(t, path), tc.pod)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		converted := 0
		for _, line := range bytes.Split(data, []byte("\n")) {
			r := parser.NewReader(bytes.NewReader(line), parser.Options{Year: 2026})
			rec, err := r.Next()
			if err != nil || rec.Format != parser.FormatKlog {
				continue
			}
			header := string(line[:bytes.Index(line, []byte("] "))+2])
			text, ok := legacyRender(header, rec, structured.Pod.UID)
			if !ok {
				continue
			}
			if text == "" {
				text = string(line)
			} else {
				converted++
			}
			out.WriteString(text + "\n")
		}
		if converted < 10 {
			t.Fatalf("%s: only %d lines converted", tc.file, converted)
		}
		legacy := onlyFlow(t, buildBytes(t, tc.file+".legacy", out.Bytes()), tc.pod)
		got := fmt.Sprint(legacy.Verdict, legacy.StalledAt, legacy.Container, legacy.ContainerStage)
		want := fmt.Sprint(structured.Verdict, structured.StalledAt, structured.Container, structured.ContainerStage)
		if got != want {
			t.Errorf("%s: legacy printf gives %s, structured %s\nlegacy diagnosis: %s", tc.file, got, want, legacy.Diagnosis)
		}
		if s := stageOf(legacy, StSandbox); tc.pod == "payments-7b4d9c8f6-q9zrt" && (s.Attempts != 4 || !strings.Contains(s.Reason, "calico")) {
			t.Errorf("legacy sandbox: %d attempts, reason %q", s.Attempts, s.Reason)
		}
	}
}
