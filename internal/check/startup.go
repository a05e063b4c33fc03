package check

import (
	"math"
	"time"

	"github.com/podflow/podflow/timeline"
)

// PodStartup is the pod's end-to-end startup: the kubelet-observed figure
// when the log has it, else the flow's start to the end of `running`.
func PodStartup(f *timeline.Flow) (time.Duration, bool) {
	if f.Startup != nil && f.Startup.PodflowE2E != nil {
		return time.Duration(*f.Startup.PodflowE2E), true
	}
	if s := stageByID(f.Stages, timeline.StRunning); s != nil && s.Status == timeline.StatusDone && s.End != nil {
		return s.End.Sub(f.Start), true
	}
	return 0, false
}

// PodSLO is the pod's startup as the Kubernetes pod-startup SLO counts
// it: podflow's own figure (the engine leaves out image pulls and init
// containers by the rule of the kubelet that wrote the log), else the
// kubelet's logged podStartSLOduration when the log's verbosity hides the
// pulls. hidden is true when neither is available for a pod that ran.
func PodSLO(f *timeline.Flow, verb int) (d time.Duration, ok, hidden bool) {
	if f.Startup != nil && f.Startup.PodflowSLO != nil {
		return time.Duration(*f.Startup.PodflowSLO), true, false
	}
	if f.Startup != nil && f.Startup.KubeletSLO != nil {
		return time.Duration(*f.Startup.KubeletSLO), true, false
	}
	_, ran := PodStartup(f)
	return 0, false, ran
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	k := int(math.Ceil(p/100*float64(len(sorted)))) - 1
	if k < 0 {
		k = 0
	}
	if k >= len(sorted) {
		k = len(sorted) - 1
	}
	return sorted[k]
}
