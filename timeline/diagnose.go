package timeline

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The diagnosis: one paragraph in plain words on the judged flow (its
// verdict, where it stalled and why, its slowest stage, what the log's
// verbosity hides), with durations rounded for reading.

// round is a duration as every view prints it (HumanDuration).
func round(d Duration) string { return d.Human() }

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
			fmt.Fprintf(&b, ": %s", strings.TrimSuffix(oneLine(fl.Reason), "."))
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
					fmt.Fprintf(&b, " (restarted %s)", times(c.Restarts))
				}
			}
			sentence(&b, fl.Reason)
		} else {
			fmt.Fprintf(&b, "Failed at %s", where)
			sentence(&b, fl.Reason)
		}
	case VerdictRejected:
		b.WriteString("Rejected at admission")
		sentence(&b, fl.Reason)
	case VerdictIncomplete:
		if fl.StalledAt != "" && fl.Reason != "" && fl.Waited == 0 {
			fmt.Fprintf(&b, "Incomplete: the log shows %s failing (%s), then its errors stop; at this log's verbosity nothing shows whether it recovered.", where, oneLine(fl.Reason))
		} else if fl.StalledAt != "" && !begun(fl) {
			fmt.Fprintf(&b, "Incomplete: the log ends before %s began.", fl.StalledAt)
		} else if fl.StalledAt != "" {
			fmt.Fprintf(&b, "Incomplete: the log ends %s into %s, within its budget.", round(fl.Waited), fl.StalledAt)
		} else {
			b.WriteString("Incomplete: the log does not show enough of this pod to judge.")
		}
	default:
		fmt.Fprintf(&b, "%s after %s", fl.Verdict, round(fl.Duration))
		// The slowest stage, and the trouble the pod got past: each
		// stage's once, from Flow.Trouble (a container's, not again as
		// the aggregate stage's).
		var slow *Stage
		for i := range fl.Stages {
			st := &fl.Stages[i]
			if st.Status == StatusDone && (slow == nil || st.Duration > slow.Duration) {
				slow = st
			}
		}
		if slow != nil && slow.Duration > 0 {
			fmt.Fprintf(&b, "; slowest stage %s (%s%s)", slow.ID, round(slow.Duration), slowThing(fl, slow))
		}
		b.WriteString(".")
		for _, t := range fl.Trouble {
			if !t.Recovered || t.Attempts == 0 && t.BackOffs == 0 {
				continue
			}
			who := t.Stage
			if t.Container != "" {
				who = "Container " + t.Container + " " + t.Stage
			}
			if t.Attempts > 0 {
				fmt.Fprintf(&b, " %s needed %s first", who, plural(t.Attempts, "failed attempt"))
			} else {
				fmt.Fprintf(&b, " %s backed off %s", who, times(t.BackOffs))
			}
			sentence(&b, t.Error)
		}
	}
	if len(fl.Hidden) > 0 {
		fmt.Fprintf(&b, " Not visible at this log's verbosity: %s.", strings.Join(fl.Hidden, ", "))
	}
	return b.String()
}

// sentence ends the sentence b holds with ": <text>." (or "." when text
// is empty), text on one line and never ending in two periods.
func sentence(b *strings.Builder, text string) {
	if text != "" {
		b.WriteString(": ")
		text = oneLine(text)
		b.WriteString(text)
		if strings.HasSuffix(text, ".") {
			return
		}
	}
	b.WriteString(".")
}

// times is "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// begun reports whether the stage a flow stalled at began.
func begun(fl *Flow) bool {
	for _, st := range fl.Stages {
		if st.ID == fl.StalledAt {
			return st.Start != nil
		}
	}
	return false
}

// slowThing names what made the slowest stage slow, when the flow tells:
// the image of a slow pull, the volume of a slow mount.
func slowThing(fl *Flow, slow *Stage) string {
	switch slow.ID {
	case StVolumes:
		for _, t := range fl.Trouble {
			if t.Stage == StVolumes {
				if _, rest, ok := strings.Cut(t.Error, `volume "`); ok {
					if v, _, ok := strings.Cut(rest, `"`); ok && v != "" {
						return `, volume "` + v + `"`
					}
				}
			}
		}
	case StInitContainers, StContainers:
		typ := ContainerRegular
		if slow.ID == StInitContainers {
			typ = ContainerInit
		}
		var worst *Stage
		var image, name string
		for i := range fl.Containers {
			c := &fl.Containers[i]
			if c.Type != typ {
				continue
			}
			for j := range c.Stages {
				if st := &c.Stages[j]; st.Status == StatusDone && (worst == nil || st.Duration > worst.Duration) {
					worst, image, name = st, c.Image, c.Name
				}
			}
		}
		if worst == nil || worst.Duration < slow.Duration/2 {
			return ""
		}
		if worst.ID == CStImage && image != "" {
			return ", pulling " + image
		}
		return fmt.Sprintf(", container %s %s", name, worst.ID)
	}
	return ""
}

// maxDiagText is the bytes of a reason a diagnosis quotes.
const maxDiagText = 300

// DiagnosisText is how a diagnosis quotes a reason or an error (oneLine):
// --redact masks the whole text and quotes it again, since a secret whose
// key falls in the middle oneLine drops would keep its value in the tail.
func DiagnosisText(s string) string { return oneLine(s) }

// oneLine is text for a diagnosis: on one line, without the "in pod
// name_ns(uid)" the diagnosis needs not repeat, and when long, its
// beginning (what failed) and its end (the root cause) with the middle
// cut at words.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	s = dropInPod(s)
	if len(s) <= maxDiagText {
		return s
	}
	head := wordBefore(s, maxDiagText/3)
	tail := wordAfter(s, len(s)-(maxDiagText-len(head)-len(" … ")))
	return head + " … " + tail
}

// wordBefore is s cut at the last space at or before n bytes (at a rune's
// start when there is none).
func wordBefore(s string, n int) string {
	if i := strings.LastIndexByte(s[:n], ' '); i > n/2 {
		return strings.TrimRight(s[:i], " ,;:")
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// wordAfter is s from the first word that begins at or after byte n.
func wordAfter(s string, n int) string {
	if i := strings.IndexByte(s[n:], ' '); i >= 0 && i < (len(s)-n)/2 {
		return s[n+i+1:]
	}
	for n < len(s) && !utf8.RuneStart(s[n]) {
		n++
	}
	return s[n:]
}

// dropInPod drops " in pod <name>_<namespace>(<uid>)" from a kubelet
// message (the back-off's "Back-off restarting failed container x in pod
// …"): the diagnosis is the pod's.
func dropInPod(s string) string {
	i := strings.Index(s, " in pod ")
	if i < 0 {
		return s
	}
	rest := s[i+len(" in pod "):]
	j := strings.IndexByte(rest, ')')
	if j < 0 {
		return s
	}
	if _, ok := legacyRef(rest[:j+1]); !ok {
		return s
	}
	return s[:i] + dropInPod(rest[j+1:])
}
