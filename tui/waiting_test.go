package tui

import (
	"strings"
	"testing"
)

// The detail pane says what a stalled pod waits on, as describe does.
func TestDetailSaysWaitingOn(t *testing.T) {
	fl := cliFlows(t, "../testdata/corpus/v1.36.3/02-image-pull-failure.log")
	for i := range fl.Items {
		f := &fl.Items[i]
		if f.Pod.Name != "api-6f5b9d7c4-pl8wz" {
			continue
		}
		out := strings.Join(renderDetail(newStyles(false), f, nil, 200), "\n")
		if !strings.Contains(out, "Waiting on the pull of image docker.io/library/nginx:1.27.99 for container api") {
			t.Errorf("detail:\n%s", out)
		}
		return
	}
	t.Fatal("no pod api-6f5b9d7c4-pl8wz")
}
