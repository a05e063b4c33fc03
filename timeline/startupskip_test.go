package timeline

import (
	"path/filepath"
	"testing"
)

// Every kubelet skips its first syncs "[container runtime status check
// may not have completed yet, PLEG is not healthy: pleg has yet to be
// successful]": no finding on every node. The same skip minutes after the
// start, or a PLEG that relisted too late, is one.
func TestStartupSkipIsNoFinding(t *testing.T) {
	for _, file := range []string{"v1.36.3/01-happy-path.log", "v1.28.15/01-happy-path.log", "v1.33.13/06-pod-deletion-api.log"} {
		fl := buildFile(t, filepath.Join(corpus, file))
		for _, fd := range fl.Findings {
			t.Errorf("%s: finding %s %q", file, fd.Kind, fd.Message)
		}
	}
	const start = `I1122 06:00:00.000000    7 server.go:1262] "Started kubelet"
`
	for _, tc := range []struct {
		name, line string
		want       string
	}{
		{"at start-up", `E1122 06:00:05.000000    7 kubelet.go:2646] "Skipping pod synchronization" err="[container runtime status check may not have completed yet, PLEG is not healthy: pleg has yet to be successful]"`, ""},
		{"minutes later", `E1122 06:05:00.000000    7 kubelet.go:2646] "Skipping pod synchronization" err="[PLEG is not healthy: pleg has yet to be successful]"`, "SyncLoopSkipped"},
		{"relist too late", `E1122 06:00:05.000000    7 kubelet.go:2646] "Skipping pod synchronization" err="[PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s]"`, "PLEGUnhealthy"},
	} {
		fl := buildBytes(t, "k.log", []byte(start+tc.line+"\n"))
		got := ""
		for _, fd := range fl.Findings {
			if fd.Kind != "KubeletRestart" {
				got = fd.Kind
			}
		}
		if got != tc.want {
			t.Errorf("%s: finding %q, want %q", tc.name, got, tc.want)
		}
	}
}
