package failure

import "testing"

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
