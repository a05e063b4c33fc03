package timeline

import (
	"fmt"
	"strings"
	"time"
)

// The diagnosis: one paragraph in plain words on the judged flow (its
// verdict, where it stalled and why, its slowest stage, what the log's
// verbosity hides), with durations rounded for reading.

func round(d Duration) string {
	t := time.Duration(d)
	switch {
	case t >= time.Minute:
		return t.Round(time.Second).String()
	case t >= time.Second:
		return t.Round(100 * time.Millisecond).String()
	default:
		return t.Round(time.Millisecond).String()
	}
}

// diagnose writes the one-paragraph diagnosis in plain words.
func diagnose(fl *Flow) string {
	var b strings.Builder
	where := fl.StalledAt
	if fl.Container != "" {
		where += fmt.Sprintf(" (container %s, %s)", fl.Container, fl.ContainerStage)
	}
	attempts := 0
	for _, st := range fl.Stages {
		if st.ID == fl.StalledAt {
			attempts = st.Attempts
		}
	}
	for _, c := range fl.Containers {
		if c.Name == fl.Container {
			for _, st := range c.Stages {
				if st.ID == fl.ContainerStage {
					attempts = st.Attempts
				}
			}
		}
	}
	switch fl.Verdict {
	case VerdictStalled, VerdictTerminating:
		fmt.Fprintf(&b, "%s at %s for %s", fl.Verdict, where, round(fl.Waited))
		if fl.Reason != "" {
			fmt.Fprintf(&b, ": %s", oneLine(fl.Reason))
		}
		if attempts > 1 {
			fmt.Fprintf(&b, " — %d failed attempts", attempts)
		}
		b.WriteString(".")
	case VerdictFailed:
		if fl.Container != "" && fl.StalledAt == StRunning {
			fmt.Fprintf(&b, "Failed: container %s keeps failing after it started", fl.Container)
			for _, c := range fl.Containers {
				if c.Name == fl.Container {
					fmt.Fprintf(&b, " (restarted %d times)", c.Restarts)
				}
			}
			if fl.Reason != "" {
				fmt.Fprintf(&b, ": %s", oneLine(fl.Reason))
			}
			b.WriteString(".")
		} else {
			fmt.Fprintf(&b, "Failed at %s", where)
			if fl.Reason != "" {
				fmt.Fprintf(&b, ": %s", oneLine(fl.Reason))
			}
			b.WriteString(".")
		}
	case VerdictRejected:
		fmt.Fprintf(&b, "Rejected at admission: %s.", oneLine(fl.Reason))
	case VerdictIncomplete:
		if fl.StalledAt != "" && fl.Reason != "" && fl.Waited == 0 {
			fmt.Fprintf(&b, "Incomplete: the log shows %s failing (%s), then its errors stop; at this log's verbosity nothing shows whether it recovered.", where, oneLine(fl.Reason))
		} else if fl.StalledAt != "" {
			fmt.Fprintf(&b, "Incomplete: the log ends %s into %s, within its budget.", round(fl.Waited), fl.StalledAt)
		} else {
			b.WriteString("Incomplete: the log does not show enough of this pod to judge.")
		}
	default:
		fmt.Fprintf(&b, "%s after %s", fl.Verdict, round(fl.Duration))
		// The slowest stage, and any stage that needed retries.
		var slow *Stage
		for i := range fl.Stages {
			st := &fl.Stages[i]
			if st.Status == StatusDone && (slow == nil || st.Duration > slow.Duration) {
				slow = st
			}
		}
		if slow != nil && slow.Duration > 0 {
			fmt.Fprintf(&b, "; slowest stage %s (%s)", slow.ID, round(slow.Duration))
		}
		b.WriteString(".")
		for _, st := range fl.Stages {
			if st.Attempts > 0 && st.Status == StatusDone {
				fmt.Fprintf(&b, " %s needed %d failed attempts first: %s.", st.ID, st.Attempts, oneLine(st.Reason))
			}
		}
		for _, c := range fl.Containers {
			for _, st := range c.Stages {
				if st.Attempts > 0 && st.Status == StatusDone {
					fmt.Fprintf(&b, " Container %s %s needed %d failed attempts first: %s.", c.Name, st.ID, st.Attempts, oneLine(st.Reason))
				}
			}
		}
	}
	if len(fl.Hidden) > 0 {
		fmt.Fprintf(&b, " Not visible at this log's verbosity: %s.", strings.Join(fl.Hidden, ", "))
	}
	return b.String()
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}
