package timeline

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// Trouble that recovered stays visible (issue #19, gap 9): a pod that
// reached Running after failed sandbox attempts, mount failures, create
// errors or a stage over its budget is Running, and says what it got past.
// Each stage with failed attempts, back-offs or a run over its budget is
// one Trouble (Flow.Trouble), read from the judged stages: the pod's own
// and its containers', never the aggregate stages made of the containers'
// (init-containers, containers, running), so that nothing counts twice. A
// Running pod's reason names the trouble that held it up longest, and the
// pod names that trouble's container and stage, as an Incomplete pod with
// no reason names its latest trouble's (troubleContainer).

// aggregate reports whether a pod stage is made of its containers' (judge).
func aggregate(id string) bool {
	return id == StInitContainers || id == StContainers || id == StRunning
}

// troubles appends to dst the trouble of a judged flow's stages: all (the
// pod's, in PodStages order) and each container's (cviews[i] is cs[i]'s).
func (b *Builder) troubles(dst []Trouble, all []stageView, cs []*containerState, cviews [][]stageView, logEnd time.Time) []Trouble {
	for i := range all {
		if !aggregate(all[i].id) {
			dst = b.stageTrouble(dst, &all[i], "", logEnd)
		}
	}
	for ci, views := range cviews {
		for i := range views {
			dst = b.stageTrouble(dst, &views[i], b.texts.Text(cs[ci].name), logEnd)
		}
	}
	return dst
}

// stageTrouble appends sv's trouble, if it has any.
func (b *Builder) stageTrouble(dst []Trouble, sv *stageView, container string, logEnd time.Time) []Trouble {
	var tr *trouble
	if sv.st != nil {
		tr = sv.st.trouble
	}
	if tr != nil && (tr.attempts > 0 || tr.retries > 0) && !tr.first.IsZero() {
		t := Trouble{Stage: sv.id, Container: container, Attempts: int(tr.attempts), BackOffs: int(tr.retries), Error: tr.firstReason, First: b.stamps.Time(tr.first), Recovered: sv.status == StatusDone}
		if t.Error == "" {
			t.Error = reasonOf(sv.st)
		}
		t.Last = b.stamps.Time(b.stamps.Later(tr.lastFail, tr.lastRetry))
		end := logEnd
		if t.Recovered {
			// To the stage's completion, or past it to the last back-off of
			// a container that ran and then backed off (its started stage).
			end = t.Last
			if _, done := sv.times(b, logEnd); done.After(end) {
				end = done
			}
		}
		if end.After(t.First) {
			t.Lasted = Duration(end.Sub(t.First))
		}
		return append(dst, t)
	}
	if sv.status != StatusDone || sv.implied {
		return dst
	}
	if budget := b.budget(sv.id); budget > 0 {
		start, end := sv.times(b, logEnd)
		if time.Duration(sv.shownFor) > budget {
			dst = append(dst, Trouble{Stage: sv.id, Container: container, First: start, Last: end, Lasted: sv.shownFor, Budget: Duration(budget), Recovered: true})
		}
	}
	return dst
}

// stillFailing marks the trouble where a pod that did not end running is
// stuck as not recovered: its stage may have completed once (a crash
// loop's container started, then exited and backs off), but the pod fails
// there, so the trouble lasts to the log's end.
func stillFailing(fl *Flow, ts []Trouble, logEnd time.Time) {
	if fl.Verdict == VerdictRunning || fl.Verdict == VerdictCompleted {
		return
	}
	for i := range ts {
		t := &ts[i]
		here := t.Container == "" && t.Stage == fl.StalledAt ||
			t.Container != "" && t.Container == fl.Container && t.Stage == fl.ContainerStage
		if !here || !t.Recovered {
			continue
		}
		t.Recovered = false
		if logEnd.After(t.First) {
			t.Lasted = Duration(logEnd.Sub(t.First))
		}
	}
}

// worstTrouble is the recovered trouble that held the pod up longest.
func worstTrouble(ts []Trouble) *Trouble {
	var w *Trouble
	for i := range ts {
		if t := &ts[i]; t.Recovered && (w == nil || t.Lasted > w.Lasted) {
			w = t
		}
	}
	return w
}

// troubleWords name a stage's attempts: "4 failed sandbox attempts".
var troubleWords = map[string]string{
	StVolumes: "mount", StSandbox: "sandbox", StAdmitted: "admission", StReady: "readiness",
	CStImage: "pull", CStCreated: "create", CStStarted: "start", CStCompleted: "run",
}

// recoveredReason is a Running pod's reason: the trouble it got past, in
// the log's words. Made in one allocation: FinishRows makes one for every
// pod that recovered.
func recoveredReason(t *Trouble) string {
	word := troubleWords[t.Stage]
	if word == "" {
		word = t.Stage
	}
	p := make([]byte, 0, 64+len(t.Container)+len(t.Error))
	p = append(p, "Running after "...)
	switch {
	case t.Attempts == 0 && t.BackOffs == 0:
		p = append(append(p, "a slow "...), t.Stage...)
	case t.Stage == StVolumes:
		// The volume manager retries a mount with its own back-off: what
		// held the pod up is how long, not how often.
		p = append(append(append(p, round(t.Lasted)...), " of FailedMount: "...), t.Error...)
		return string(p)
	case t.Attempts == 0:
		p = appendPlural(p, t.BackOffs, "back-off")
	default:
		p = appendPluralFailed(p, t.Attempts, word)
	}
	if t.Container != "" {
		p = append(append(p, " of container "...), t.Container...)
	}
	if t.Attempts == 0 && t.BackOffs == 0 {
		p = append(append(append(append(append(p, ": "...), round(t.Lasted)...), ", over its "...), round(t.Budget)...), " budget"...)
		return string(p)
	}
	return string(append(append(p, ": "...), t.Error...))
}

// appendPluralFailed appends "1 failed pull attempt", "3 failed pull
// attempts".
func appendPluralFailed(p []byte, n int, word string) []byte {
	p = strconv.AppendInt(p, int64(n), 10)
	p = append(append(append(p, " failed "...), word...), " attempt"...)
	if n != 1 {
		p = append(p, 's')
	}
	return p
}

// appendPlural appends "1 back-off", "3 back-offs".
func appendPlural(p []byte, n int, what string) []byte {
	p = append(append(strconv.AppendInt(p, int64(n), 10), ' '), what...)
	if n != 1 {
		p = append(p, 's')
	}
	return p
}

// plural is "1 failed attempt", "3 failed attempts".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// troubleReason gives a Running pod with no reason of its own the trouble
// it got past.
func troubleReason(fl *Flow, ts []Trouble) {
	if fl.Verdict != VerdictRunning || fl.Reason != "" {
		return
	}
	if w := worstTrouble(ts); w != nil {
		fl.Reason = recoveredReason(w)
	}
}

// troubleContainer names the container a Running or Incomplete pod that
// names none had its trouble in, at that container's stage: a Running
// pod's, the trouble its reason tells (worstTrouble); an Incomplete one's
// with no reason, its latest, where the log last shows it held up (a
// slow pull the events name: k8s#21029). A pod's own trouble names none.
func troubleContainer(fl *Flow, ts []Trouble) {
	if fl.Container != "" || len(ts) == 0 {
		return
	}
	var t *Trouble
	switch {
	case fl.Verdict == VerdictRunning:
		t = worstTrouble(ts)
	case fl.Verdict == VerdictIncomplete && fl.Reason == "" && !slices.Contains(preStages, fl.StalledAt):
		for i := range ts {
			if t == nil || !ts[i].Last.Before(t.Last) {
				t = &ts[i]
			}
		}
	}
	if t != nil && t.Container != "" {
		fl.Container, fl.ContainerStage = t.Container, t.Stage
	}
}
