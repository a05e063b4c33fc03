package report

import (
	"strings"

	"github.com/podflow/podflow/timeline"
)

// startupReasons are the reasons a kubelet gives for skipping pod
// synchronization while it starts, every time it starts: not a fault.
var startupReasons = []string{
	"pleg has yet to be successful",
	"container runtime status check may not have completed yet",
}

// routine reports whether a finding is the kubelet's ordinary start-up
// (the sync loop skipped while PLEG has yet to be successful, on every
// kubelet start) and concerns no pod: the report keeps it quiet.
func routine(fd *timeline.Finding) bool {
	if fd.Kind != "SyncLoopSkipped" || len(fd.Pods) > 0 {
		return false
	}
	msg := fd.Message
	if i := strings.IndexByte(msg, '['); i >= 0 {
		msg = strings.TrimSuffix(strings.TrimSpace(msg[i+1:]), "]")
	}
	parts := strings.Split(msg, ", ")
	for _, p := range parts {
		p = strings.ToLower(strings.TrimSpace(p))
		ok := false
		for _, r := range startupReasons {
			if strings.Contains(p, r) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return len(parts) > 0
}
