package report

import "github.com/podflow/podflow/timeline"

// Health is how a pod fared, for the report's colours: the verdict says
// where a pod ended, Health also says whether it got there cleanly.
type Health string

const (
	// HealthFailed: Failed, Rejected or Stalled, or a container crash
	// looping (red).
	HealthFailed Health = "failed"
	// HealthRecovered: it ran (Running, Completed, Terminated), but some
	// stage failed on the way and was retried (yellow).
	HealthRecovered Health = "recovered"
	// HealthOK: it ran, and no stage failed (green).
	HealthOK Health = "ok"
	// HealthOther: Terminating or Incomplete, neither good nor bad (grey).
	HealthOther Health = "other"
)

// healthOf judges a pod's Health.
func healthOf(f *timeline.Flow) Health {
	switch f.Verdict {
	case timeline.VerdictFailed, timeline.VerdictRejected, timeline.VerdictStalled:
		return HealthFailed
	case timeline.VerdictTerminating, timeline.VerdictIncomplete:
		if crashLooping(f) {
			return HealthFailed
		}
		return HealthOther
	}
	if retried(f) {
		return HealthRecovered
	}
	return HealthOK
}

// crashLooping reports whether a container of f is waiting in a back-off
// after it failed (CrashLoopBackOff, ImagePullBackOff).
func crashLooping(f *timeline.Flow) bool {
	for _, c := range f.Containers {
		if c.State == "waiting" && (c.BackOffs > 0 || c.PullBackOffs > 0) {
			return true
		}
	}
	return false
}

// retried reports whether a stage of f failed or needed retries.
func retried(f *timeline.Flow) bool {
	bad := func(stages []timeline.Stage) bool {
		for i := range stages {
			if stages[i].Attempts > 0 || stages[i].Status == timeline.StatusFailed {
				return true
			}
		}
		return false
	}
	if bad(f.Stages) {
		return true
	}
	for _, c := range f.Containers {
		if bad(c.Stages) {
			return true
		}
	}
	return false
}

// healthRank orders Health worst first.
func healthRank(h Health) int {
	switch h {
	case HealthFailed:
		return 0
	case HealthRecovered:
		return 1
	case HealthOther:
		return 2
	}
	return 3
}
