package timeline

import (
	"strconv"
	"strings"

	"github.com/podflow/podflow/parser"
)

// The prober (pkg/kubelet/prober) runs each container's liveness,
// readiness and startup probes and logs every failure: "Probe failed"
// with probeType and output (prober.go, 1.21+), ≤1.20 `Liveness probe for
// "name_ns(uid):container" failed (failure): output`, and the event
// Unhealthy ("Liveness probe failed: …"). A liveness or startup probe that
// fails its threshold makes kuberuntime kill the container to restart it
// ("Message for Container of pod": "Container x failed liveness probe, will
// be restarted", the event Killing with the same words): a container's
// restart, not the pod's termination (termination.go). What the prober
// said is kept per container and shown in the container's Probe and, when
// it is the pod's trouble, in the pod's reason (probeVerdict).

// probeNote is what a container's failed probes said: the last failure's
// words, how many, and a few lines.
type probeNote struct {
	kind     string // Liveness, Readiness, Startup
	text     string // "Liveness probe failed: <output>"
	count    int
	restarts bool // the kubelet killed the container for it
	evidence []Evidence
}

// probeLine reads a prober line (Probe failed, Probe errored, the ≤1.20
// sentences) or kuberuntime's "Message for Container of pod".
func (b *Builder) probeLine(n *nodeState, rec *parser.Record) {
	f := b.flowFor(n, rec, false)
	if f == nil {
		b.unattributedLine(rec)
		return
	}
	b.touch(f, rec)
	if msg := rec.Str("containerMessage"); msg != "" || rec.Msg == "Message for Container of pod" {
		// Why kuberuntime kills a running container (computePodActions).
		name := rec.Str("containerName")
		if name == "" || !strings.Contains(msg, " probe, will be restarted") {
			return
		}
		kind := "Liveness"
		if strings.Contains(msg, "failed startup probe") {
			kind = "Startup"
		}
		c := b.container(f, name, "")
		c.troubleAt = b.stamps.Later(b.stamps.At(rec.Time), c.troubleAt)
		p := n.probeNote(c, kind)
		p.restarts = true
		if p.text == "" || p.kind != kind {
			p.kind = kind
			p.text = strings.Clone(msg)
		}
		p.addEvidence(b, rec)
		return
	}
	kind, name, text := readProbeFailure(rec)
	kind = probeKind(kind)
	if name == "" || kind == "" {
		return
	}
	c := b.container(f, name, "")
	if kind != "Readiness" {
		// A liveness or startup probe failing: on the way to a restart.
		c.troubleAt = b.stamps.Later(b.stamps.At(rec.Time), c.troubleAt)
	} else {
		// A readiness probe failing keeps its container, and so the pod,
		// unready (prober_manager.go UpdatePodStatus): a failed attempt of
		// the pod's ready stage, which a Ready condition or a probe's
		// ready result completes.
		b.stageEffect(f, StReady, Fail, rec, text)
	}
	p := n.probeNote(c, kind)
	if p.kind == kind {
		p.text = strings.Clone(text)
		p.count++
		p.addEvidence(b, rec)
	}
}

// probeKind is a probe type as a constant string (a record's text may be
// the parser's, valid until the next record), or "" for none.
func probeKind(s string) string {
	for _, k := range [...]string{"Liveness", "Readiness", "Startup"} {
		if strings.EqualFold(s, k) {
			return k
		}
	}
	return ""
}

// readProbeFailure reads a failed probe's type, container and words.
func readProbeFailure(rec *parser.Record) (kind, container, text string) {
	if rec.Structured() {
		kind = rec.Str("probeType")
		container = rec.Str("containerName")
		out := strings.TrimSpace(rec.Str("output"))
		if out == "<" {
			out = "" // a multi-line output= <…> the capture cut
		}
		if rec.Msg == "Probe errored" {
			return kind, container, kind + " probe errored: " + rec.Err
		}
		return kind, container, kind + " probe failed: " + out
	}
	// <Kind> probe for "name_ns(uid):container" failed (failure): output
	// <Kind> probe for "name_ns(uid):container" errored: err
	msg := rec.Msg
	kind, rest, _ := strings.Cut(msg, " probe for \"")
	target, rest, ok := strings.Cut(rest, "\"")
	if !ok {
		return "", "", ""
	}
	if i := strings.LastIndex(target, "):"); i >= 0 {
		container = target[i+2:]
	}
	rest = strings.TrimSpace(rest)
	if after, ok := strings.CutPrefix(rest, "errored:"); ok {
		return kind, container, kind + " probe errored: " + strings.TrimSpace(after)
	}
	if _, after, ok := strings.Cut(rest, "):"); ok {
		rest = after
	} else {
		rest = strings.TrimPrefix(rest, "failed:")
	}
	return kind, container, kind + " probe failed: " + strings.TrimSpace(rest)
}

// probeNote is c's probe note, made for a failure of kind: liveness and
// startup failures outweigh readiness ones, whose words then are not kept.
func (n *nodeState) probeNote(c *containerState, kind string) *probeNote {
	if n.probes == nil {
		n.probes = map[*containerState]*probeNote{}
	}
	p := n.probes[c]
	if p == nil {
		p = &probeNote{}
		n.probes[c] = p
	}
	if p.kind == "" || p.kind == "Readiness" {
		p.kind = kind
	}
	return p
}

func (p *probeNote) addEvidence(b *Builder, rec *parser.Record) {
	if len(p.evidence) < 3 {
		p.evidence = append(p.evidence, b.evidenceOf(rec))
	} else {
		p.evidence[2] = b.evidenceOf(rec)
	}
}

// probeVerdict shows a judged flow's probe failures: in each container's
// Probe, from the prober's lines or else the Unhealthy events; and, for a
// pod that runs but whose container a liveness or startup probe restarted,
// or that is not ready for a readiness probe, as the pod's container,
// stage and reason.
func (b *Builder) probeVerdict(f *flowState, fl *Flow) {
	var notes map[*containerState]*probeNote
	if n := f.node; n != nil {
		notes = n.probes
	}
	if notes == nil && len(f.events) == 0 {
		return
	}
	for _, c := range f.containers {
		name := b.texts.Text(c.name)
		var ct *Container
		for i := range fl.Containers {
			if fl.Containers[i].Name == name {
				ct = &fl.Containers[i]
			}
		}
		if ct == nil {
			continue
		}
		p := notes[c]
		if p == nil {
			p = b.probeEvents(f, name)
		}
		if p == nil || p.text == "" {
			continue
		}
		ct.Probe = &Probe{Type: p.kind, Message: strings.TrimRight(p.text, ": "), Failures: p.count, Restart: p.restarts}
		text := strings.TrimRight(p.text, ": ")
		if ct.Restarts > 0 && p.kind != "Readiness" {
			text += " (restarted " + strconv.Itoa(ct.Restarts) + " time"
			if ct.Restarts > 1 {
				text += "s"
			}
			text += ")"
		}
		switch {
		case (fl.Verdict == VerdictRunning || fl.Verdict == VerdictIncomplete && fl.Reason == "") && fl.Container == "" && p.kind != "Readiness":
			// A running pod's trouble, or all a short log shows of one.
			fl.Container, fl.ContainerStage, fl.Reason = name, CStStarted, text
			fl.Evidence = p.evidence
		case (fl.Verdict == VerdictFailed && fl.StalledAt == StRunning || fl.Verdict == VerdictRunning && fl.Reason != "") && fl.Container == name && p.kind != "Readiness":
			// Its crash loop, going on or over (verdict.go): the probe's
			// failures too.
			fl.Reason += "; " + text
		case fl.StalledAt == StReady && fl.Container == "" && p.kind == "Readiness":
			fl.Container, fl.Reason = name, text
			fl.Evidence = p.evidence
		}
	}
}

// eventOf reports whether the event e (its message msg) is the
// container name's: by its field path; in a pasted table, which prints
// none, by the container its message names ("Container x failed liveness
// probe"), else, for a pod of one container, by being the pod's (the
// prober records its events against the container's reference).
func (b *Builder) eventOf(f *flowState, e *event, msg, name string) bool {
	if cname, _, ok := containerFromFieldPath(b.texts.Text(e.fieldPath)); ok {
		return cname == name
	}
	if from, to, ok := containerInMessage(msg); ok {
		return msg[from:to] == name
	}
	c := f.soleContainer()
	return c != nil && b.texts.Text(c.name) == name
}

// probeEvents reads a container's probe failures from its Unhealthy
// events (kuberuntime's prober events: "<Kind> probe failed: <output>")
// and its Killing event's "failed liveness probe, will be restarted".
func (b *Builder) probeEvents(f *flowState, name string) *probeNote {
	var p *probeNote
	for i := range f.events {
		e := &f.events[i]
		reason := b.texts.Text(e.reason)
		if reason != "Unhealthy" && reason != "Killing" {
			continue
		}
		msg := b.texts.Text(e.Text)
		if !b.eventOf(f, e, msg, name) {
			continue
		}
		kind, _, ok := strings.Cut(msg, " probe ")
		if reason == "Killing" {
			if !strings.Contains(msg, " probe, will be restarted") {
				continue
			}
			kind, ok = "Liveness", true
			if strings.Contains(msg, "failed startup probe") {
				kind = "Startup"
			}
		}
		if !ok || kind != "Liveness" && kind != "Readiness" && kind != "Startup" {
			continue
		}
		if p == nil {
			p = &probeNote{}
		}
		if p.kind == "" || kind != "Readiness" {
			p.kind = kind
		}
		if reason == "Killing" {
			p.restarts = true
			if p.text == "" {
				p.text = msg
			}
		} else {
			p.text = msg
			p.count += int(e.count)
		}
		if len(p.evidence) < 3 {
			p.evidence = append(p.evidence, b.evidence(e.Where, e.at, true))
		}
	}
	return p
}
