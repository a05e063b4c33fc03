package redact

import (
	"strings"

	"github.com/podflow/podflow/timeline"
)

// FlowList masks fl in place, the one way every output (CLI and TUI) sees
// it: host names are learnt first (nodes, then each flow's node, then
// findings' nodes) so they are numbered in FlowList order and masked
// wherever they appear; runtime sandbox and container IDs are declared
// (Keep) so the long-hex rule leaves them; then every string is walked.
// The same inputs thus give the same masks in every command.
func FlowList(r *Redactor, fl *timeline.FlowList) {
	if r == nil || fl == nil {
		return
	}
	Learn(r, fl)
	for i := range fl.Items {
		requote(r, &fl.Items[i])
	}
	r.Walk(fl, flowRole)
}

// Learn does FlowList's first part alone: the hosts and runtime IDs.
// A view that prints one flow of many (lines pod) learns them all, masks
// the names it matches its argument with (Names) and walks only the flow
// it prints (Flow): walking ten thousand flows' texts took longer than
// the analysis.
func Learn(r *Redactor, fl *timeline.FlowList) {
	if r == nil || fl == nil {
		return
	}
	for _, n := range fl.Nodes {
		r.Host(n.Name)
	}
	for i := range fl.Items {
		f := &fl.Items[i]
		r.Host(f.Node)
		r.Keep(f.Pod.UID, f.Mirror) // static pods' UIDs are 32 hex
		r.Keep(f.Sandboxes...)
		for _, c := range f.Containers {
			r.Keep(c.IDs...)
		}
	}
	for _, fd := range fl.Findings {
		r.Host(fd.Node)
	}
}

// Names masks, after Learn, what names each flow of fl (its node, pod
// name and namespace) as FlowList would.
func Names(r *Redactor, fl *timeline.FlowList) {
	if r == nil || fl == nil {
		return
	}
	for i := range fl.Items {
		f := &fl.Items[i]
		f.Node = r.Host(f.Node)
		f.Pod.Name, f.Pod.Namespace = r.Text(f.Pod.Name), r.Text(f.Pod.Namespace)
	}
}

// Flow masks one flow, after Learn, as FlowList would.
func Flow(r *Redactor, f *timeline.Flow) {
	if r == nil || f == nil {
		return
	}
	requote(r, f)
	r.Walk(f, flowRole)
}

// requote masks the texts the diagnosis quotes whole, then quotes them
// again: a long text is quoted by its beginning and its end, the middle
// dropped (timeline.DiagnosisText), and a secret whose key (Bearer,
// password:, --password) fell in that middle would keep its value in
// the end, where no rule knows it for one. Mask first, then cut.
func requote(r *Redactor, f *timeline.Flow) {
	if f.Diagnosis == "" {
		return
	}
	texts := []string{f.Reason}
	for _, t := range f.Trouble {
		texts = append(texts, t.Error)
	}
	for _, t := range texts {
		q := strings.TrimSuffix(timeline.DiagnosisText(t), ".")
		if q == "" || !strings.Contains(f.Diagnosis, q) {
			continue
		}
		f.Diagnosis = strings.ReplaceAll(f.Diagnosis, q, strings.TrimSuffix(timeline.DiagnosisText(r.Text(t)), "."))
	}
}

// flowRole names the FlowList fields that are not free text. Finding IDs
// are (they name the node: NODE/KIND-N), masked alike in Flow.Findings.
func flowRole(field string) Role {
	switch field {
	case "Node.Name", "Flow.Node", "Finding.Node":
		return RoleHost
	case "PodRef.UID", "Flow.Mirror", "Flow.Sandboxes", "Container.IDs", "Stage.ID",
		"FlowList.APIVersion", "FlowList.Kind":
		return RoleKeep
	}
	return RoleText
}
