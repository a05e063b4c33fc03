package check

import (
	"fmt"
	"time"

	"github.com/podflow/podflow/internal/failure"
	"github.com/podflow/podflow/timeline"
)

// troubled reports whether a stage failed, stalled or needed retries.
func troubled(s *timeline.Stage) bool {
	return s.Attempts > 0 || s.Status == timeline.StatusFailed || s.Status == timeline.StatusStalled
}

// stageWhere names a stage for a message: "sandbox", or "container cache
// stage created".
func stageWhere(container, id string) string {
	if container == "" {
		return "stage " + id
	}
	return fmt.Sprintf("container %s stage %s", container, id)
}

// podCause is the line that shows why a pod was slow, and why in words:
// its TroubleCause, or with none the last line of its slowest stage. nil
// when no stage has a line.
func podCause(f *timeline.Flow) (*timeline.Evidence, string) {
	if ev, why := TroubleCause(f); ev != nil {
		return ev, why
	}
	return slowestCause(f)
}

// TroubleCause is the first failure line of f's first stage that failed,
// stalled or was retried (pod stages first, then each container's), and
// that in words; nil when none logged a failure.
func TroubleCause(f *timeline.Flow) (*timeline.Evidence, string) {
	try := func(s *timeline.Stage, container string) (*timeline.Evidence, string) {
		if !troubled(s) {
			return nil, ""
		}
		ev := failure.First(s.Evidence)
		if ev == nil {
			return nil, ""
		}
		why := stageWhere(container, s.ID)
		switch {
		case s.Attempts == 1:
			why += " failed once"
		case s.Attempts > 1:
			why += fmt.Sprintf(" failed %d times", s.Attempts)
		default:
			why += " " + string(s.Status)
		}
		if s.Reason != "" {
			why += ": " + Trunc(s.Reason, 300)
		}
		return ev, why
	}
	for i := range f.Stages {
		if ev, why := try(&f.Stages[i], ""); ev != nil {
			return ev, why
		}
	}
	for c := range f.Containers {
		for i := range f.Containers[c].Stages {
			if ev, why := try(&f.Containers[c].Stages[i], f.Containers[c].Name); ev != nil {
				return ev, why
			}
		}
	}
	return nil, ""
}

// slowestCause is the last line of f's slowest stage that has lines (a
// container's stage before the pod stage that holds it).
func slowestCause(f *timeline.Flow) (*timeline.Evidence, string) {
	var slow *timeline.Stage
	where := ""
	consider := func(s *timeline.Stage, container string) {
		if len(s.Evidence) > 0 && (slow == nil || s.Duration > slow.Duration) {
			slow, where = s, stageWhere(container, s.ID)
		}
	}
	for c := range f.Containers {
		for i := range f.Containers[c].Stages {
			consider(&f.Containers[c].Stages[i], f.Containers[c].Name)
		}
	}
	for i := range f.Stages {
		consider(&f.Stages[i], "")
	}
	if slow == nil {
		return nil, ""
	}
	return &slow.Evidence[len(slow.Evidence)-1], fmt.Sprintf("the slowest was %s (%s)", where, FmtDur(time.Duration(slow.Duration)))
}

// Lines are the violation's evidence to show: the cause first, then the
// other lines.
func (v *Violation) Lines() []timeline.Evidence {
	if v.Cause == nil {
		return v.Evidence
	}
	out := []timeline.Evidence{*v.Cause}
	for _, ev := range v.Evidence {
		if ev.Input != v.Cause.Input || ev.Line != v.Cause.Line {
			out = append(out, ev)
		}
	}
	return out
}
