package cmd

import (
	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/timeline"
)

// redactHelp is the --redact flag's help; the README repeats it.
const redactHelp = `mask IP addresses (ip-N), host and node names (host-N), tokens and secrets (token-N), URL and registry credentials (cred-N) and environment values (value-N) in every output, the same value getting the same mask; pod names, namespaces, container names, pod UIDs, runtime IDs and public registry names stay (a static pod's node-name suffix is masked)`

// present is where the engine's results leave for printing: with
// --redact it masks the FlowList in place (redact.FlowList: the same inputs
// give the same masks in every command and output); raw lines read back
// later are masked by the same Redactor (Analysis.ReadRaws, lines pod).
func present(r *redact.Redactor, fl *timeline.FlowList) { redact.FlowList(r, fl) }

// redactAll masks command-line values (names, patterns) the way the flows
// they are matched against were masked.
func redactAll(r *redact.Redactor, vs []string) []string {
	if r == nil {
		return vs
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = r.Text(v)
	}
	return out
}
