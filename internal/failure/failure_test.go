package failure

import (
	"strings"
	"testing"
)

func TestLine(t *testing.T) {
	tests := []struct {
		text          string
		fails, backOf bool
	}{
		{`Failed to pull image "nginx:1.27.99": not found`, true, false},
		{"Event BackOff: Back-off restarting failed container worker", true, true},
		{`Error syncing pod, skipping: failed to "StartContainer" for "init" with CrashLoopBackOff`, true, true},
		{`MountVolume.SetUp failed for volume "config" : configmap "app" not found`, true, false},
		{"Event Warning ImagePullBackOff", true, true},
		{`Event Pulling: Pulling image "nginx"`, false, false},
		{"Event Started: Container started", false, false},
		{"Observed pod startup duration", false, false},
	}
	for _, tt := range tests {
		if got := Line(tt.text); got != tt.fails {
			t.Errorf("Line(%q) = %v, want %v", tt.text, got, tt.fails)
		}
		if got := BackOff(tt.text); got != tt.backOf {
			t.Errorf("BackOff(%q) = %v, want %v", tt.text, got, tt.backOf)
		}
	}
}

// TestLineFastPathAgreesWithRegexp holds the ASCII fast path of Line and
// BackOff to the regexps they stand for, on lines made to hit every word
// in every case and at the edges of the fast path's buffer.
func TestLineFastPathAgreesWithRegexp(t *testing.T) {
	var lines []string
	for _, w := range append(words, "back off", "backof", "time out", "oom kill", "KILL", "deni ed") {
		for _, form := range []string{w, strings.ToUpper(w), strings.ToUpper(w[:1]) + w[1:], "x " + w + " y", w[:len(w)-1]} {
			lines = append(lines, form, strings.Repeat("a", 511-len(form))+form, strings.Repeat("a", 512-len(form))+form, "é "+form)
		}
	}
	lines = append(lines, "", "OOM\u212aill", "ba\u212ack-off", "Started", strings.Repeat("z", 600))
	for _, s := range lines {
		if got, want := Line(s), text.MatchString(s); got != want {
			t.Errorf("Line(%q) = %v, the regexp says %v", s, got, want)
		}
		if got, want := BackOff(s), backOff.MatchString(s); got != want {
			t.Errorf("BackOff(%q) = %v, the regexp says %v", s, got, want)
		}
	}
}
