package redact

import "github.com/podflow/podflow/timeline"

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
	r.Walk(fl, flowRole)
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
