package cmd

import (
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/parser"
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

// reNodeIn finds a node's name in a record's text: the kubelet's `on node
// "NAME"` (volumes), node="NAME" (not --register-node="true": a flag's
// value is no name), `Node NAME status is now` (events) and
// --hostname-override=NAME.
var reNodeIn = regexp.MustCompile(`(?:\bon node \\?"|(?:^|[^-\w])node=\\?"?|--hostname-override[= ]\\?"?|\bNode )([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(\\?"? status is now)?`)

// nodeLearner learns, for --redact, the node names a record gives (its
// journald host, its node fields, its text), so that an excerpt without
// the kubelet's start-up lines has its node masked wherever it appears
// (a static pod's name ends in it).
type nodeLearner struct {
	r    *redact.Redactor
	seen map[string]bool
}

func (l *nodeLearner) learn(rec *parser.Record) {
	if l == nil || l.r == nil {
		return
	}
	l.host(rec.Host)
	for i := range rec.Fields {
		switch f := &rec.Fields[i]; strings.ToLower(f.Key) {
		case "node", "nodename", "hostname":
			if f.Value.Kind != parser.KindObject {
				l.host(f.Value.Str)
			}
		}
	}
	for _, t := range []string{rec.Msg, rec.Err} {
		if !strings.Contains(t, "ode") && !strings.Contains(t, "hostname-override") {
			continue
		}
		for _, m := range reNodeIn.FindAllStringSubmatch(t, -1) {
			if strings.HasPrefix(m[0], "Node ") && m[2] == "" {
				continue // "Node became not ready": only "Node NAME status is now" names one
			}
			l.host(m[1])
		}
	}
}

// host registers name once (the record's memory is the reader's: it is
// copied).
func (l *nodeLearner) host(name string) {
	if name == "" || l.seen[name] || !plausibleHost(name) {
		return
	}
	name = strings.Clone(name)
	l.seen[name] = true
	l.r.Host(name)
}

// plausibleHost rejects what a node= key holds that names no node.
func plausibleHost(name string) bool {
	switch strings.ToLower(name) {
	case "true", "false", "none", "null", "nil", "<nil>", "unknown", "-":
		return false
	}
	return len(name) <= 253 && strings.IndexFunc(name, func(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }) >= 0
}
