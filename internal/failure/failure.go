// Package failure recognises the log lines that show something going
// wrong, so that every output points at the same lines: check's causes
// (the line an annotation points at) and the trace's instant events.
package failure

import (
	"regexp"

	"github.com/podflow/podflow/timeline"
)

// text matches a line that shows a failure: the kubelet's errors ("Error
// syncing pod", "Failed to pull image"), Warning events (Failed, BackOff,
// FailedMount, FailedCreatePodSandBox) and the runtime's refusals. Lines
// that only mark progress (Pulling, Created, Started, "Observed pod
// startup duration") do not.
var text = regexp.MustCompile(`(?i)error|fail|back-?off|unable|timed out|timeout|deadline exceeded|not found|denied|refused|oomkill|no such|invalid|cannot|could not|couldn't|rejected|evict|unhealthy`)

var backOff = regexp.MustCompile(`(?i)back-?off`)

// Line reports whether a line's text shows a failure.
func Line(s string) bool { return text.MatchString(s) }

// BackOff reports whether a line's text shows a back-off (CrashLoopBackOff,
// ImagePullBackOff, "Back-off restarting failed container").
func BackOff(s string) bool { return backOff.MatchString(s) }

// First is the first of evs that shows a failure, or nil.
func First(evs []timeline.Evidence) *timeline.Evidence {
	for i := range evs {
		if Line(evs[i].Text) {
			return &evs[i]
		}
	}
	return nil
}

// Only is a copy of the evs that show a failure, at most max of them (the
// first); nil when none does.
func Only(evs []timeline.Evidence, max int) []timeline.Evidence {
	var out []timeline.Evidence
	for _, ev := range evs {
		if len(out) == max {
			break
		}
		if Line(ev.Text) {
			out = append(out, ev)
		}
	}
	return out
}
