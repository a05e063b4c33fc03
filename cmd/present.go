package cmd

import (
	"fmt"
	"os"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// redactHelp is the --redact flag's help; the README repeats it.
const redactHelp = `mask IP addresses (ip-…), host and node names (host-…), tokens and secrets (token-…), URL and registry credentials (cred-…) and environment values (value-…) in every output, the same value getting the same mask (a keyed hash whose key podflow keeps for you, or PODFLOW_REDACT_KEY / --redact-key-file for a team: see README); pod names, namespaces, container names, pod UIDs, runtime IDs and public registry names stay (a static pod's node-name suffix is masked)`

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

// redactKeyFileEnv names a key file, as --redact-key-file does.
const redactKeyFileEnv = "PODFLOW_REDACT_KEY_FILE"

// newRedactor is --redact's Redactor, keyed with the key the user keeps
// (redact.LoadKey): PODFLOW_REDACT_KEY, --redact-key-file or
// PODFLOW_REDACT_KEY_FILE, else the user's own key file, created on
// first use, so that masks agree across commands and runs on this
// machine, and across a team that shares the key. A key named but
// unusable is an error (exit 2): masks no one else can match would be
// worse than none. When the user's own key cannot be kept (no home, a
// read-only one), the run masks with a key of its own and says so.
func newRedactor(ioS *IO, keyFile string) (*redact.Redactor, error) {
	getenv := ioS.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if keyFile == "" {
		keyFile = getenv(redactKeyFileEnv)
	}
	configDir := ioS.ConfigDir
	if configDir == nil {
		configDir = os.UserConfigDir
	}
	r := redact.New()
	key, _, err := redact.LoadKey(redact.KeySource{Secret: getenv("PODFLOW_REDACT_KEY"), File: keyFile, ConfigDir: configDir})
	switch {
	case err == nil:
		r.SetKey(key)
	case getenv("PODFLOW_REDACT_KEY") != "" || keyFile != "":
		return nil, usageErrorf("--redact: %v", err)
	default:
		fmt.Fprintf(ioS.ErrOut, "podflow: note: --redact: %s; these masks are this run's alone (set PODFLOW_REDACT_KEY or %s to keep them alike across runs)\n",
			sanitize.OneLine(err.Error()), redactKeyFileEnv)
	}
	return r, nil
}
