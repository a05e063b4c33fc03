// Package failure recognises the log lines that show something going
// wrong, so that every output points at the same lines: check's causes
// (the line an annotation points at) and the trace's instant events.
package failure

import (
	"bytes"
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

// words are text's alternatives, lower case, for the ASCII fast path.
var words = []string{"error", "fail", "backoff", "back-off", "unable", "timed out", "timeout", "deadline exceeded",
	"not found", "denied", "refused", "oomkill", "no such", "invalid", "cannot", "could not", "couldn't",
	"rejected", "evict", "unhealthy"}

// Line reports whether a line's text shows a failure. A trace tests every
// line of evidence of every pod, and the case-insensitive regexp took a
// third of `trace`'s time: a short ASCII line (nearly all) is lowered
// into a stack buffer and searched for each word; any other line goes to
// the regexp, whose (?i) also folds non-ASCII runes (K, ſ).
func Line(s string) bool {
	var buf [512]byte
	if low, ok := lowerASCII(buf[:0], s); ok {
		for _, w := range words {
			if bytes.Contains(low, []byte(w)) {
				return true
			}
		}
		return false
	}
	return text.MatchString(s)
}

// BackOff reports whether a line's text shows a back-off (CrashLoopBackOff,
// ImagePullBackOff, "Back-off restarting failed container").
func BackOff(s string) bool {
	var buf [512]byte
	if low, ok := lowerASCII(buf[:0], s); ok {
		return bytes.Contains(low, []byte("backoff")) || bytes.Contains(low, []byte("back-off"))
	}
	return backOff.MatchString(s)
}

// lowerASCII appends s in lower case to dst when s is ASCII and fits in
// dst's capacity; ok is false otherwise.
func lowerASCII(dst []byte, s string) (low []byte, ok bool) {
	if len(s) > cap(dst) {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return nil, false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst, true
}

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
