// Package cmd holds podflow's cobra commands. Commands stay thin: flags and
// printing here, everything else in parser and timeline.
package cmd

import (
	"errors"
	"fmt"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/spf13/cobra"
)

// Version is set at build time with -ldflags "-X github.com/podflow/podflow/cmd.Version=…".
var Version = "dev"

// NewRootCmd builds the command tree over ioS.
func NewRootCmd(ioS *IO) *cobra.Command {
	name := "podflow"
	root := &cobra.Command{
		Use:   name,
		Short: "Replay kubelet logs into a per-pod flow trace",
		Long: `podflow reads kubelet logs (files, journalctl output, kind/CAPI/must-gather
dumps, gzip or zstd, or - for stdin), rebuilds every pod's journey through the
kubelet against a reference pipeline, and shows where each pod stalled, for how
long, and the log line that proves it.

Log text is untrusted: every output removes terminal escape sequences,
control and hidden (bidi, zero-width) characters and neutralises GitHub
workflow commands; JSON keeps such characters as \u escapes. --redact
masks addresses, host names and secrets for sharing.

Exit status:
  0  success
  1  podflow check: a rule was broken
  2  bad flags, or no input could be read (each bad input is named, with
     what to do about it)
  3  podflow check: nothing to judge
  4  internal error (the terminal UI could not run)
  5  output printed, but some inputs could not be read: each is named in
     a warning on standard error`,
		Example: `  podflow get pods kubelet.log
  journalctl -u kubelet | podflow get pods -
  podflow describe pod web-7d9f8c6b5-x2kqp ./kind-logs/
  podflow check ./kind-logs/ --max-startup 30s -o junit=report.xml`,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// --version without cobra's -v shorthand: a kubectl user reads -v as
	// verbosity. Cobra uses a flag of this name when one exists.
	root.Flags().Bool("version", false, "print podflow's version (as 'podflow version' does)")
	ioS.protect()
	root.SetIn(ioS.In)
	root.SetOut(ioS.Out)
	root.SetErr(ioS.ErrOut)
	var redactOn bool
	var redactKeyFile string
	root.PersistentFlags().BoolVar(&redactOn, "redact", false, redactHelp)
	root.PersistentFlags().StringVar(&redactKeyFile, "redact-key-file", "", "--redact's key: a file holding a secret of 16 bytes or more, shared by a team so that their masks agree (default: $"+redactKeyFileEnv+", else a key podflow creates for you in your configuration directory)")
	var prof profileFlags
	addProfileFlags(root, &prof)
	root.PersistentPreRunE = func(*cobra.Command, []string) error {
		if redactKeyFile != "" && !redactOn {
			return usageErrorf("--redact-key-file without --redact: add --redact")
		}
		if redactOn && ioS.Redact == nil {
			r, err := newRedactor(ioS, redactKeyFile)
			if err != nil {
				return err
			}
			ioS.Redact = r
		}
		return prof.start()
	}
	root.PersistentPostRunE = func(*cobra.Command, []string) error { return prof.finish() }
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usageErrorf("%w\nSee '%s --help'.", noVersionShorthand(err), c.CommandPath())
	})

	get := newResourceGroup("get", "List pods or nodes with their verdicts")
	describe := newResourceGroup("describe", "Show one pod's flow, or one node, in detail")
	lines := newResourceGroup("lines", "Print every raw log line that belongs to a pod")
	// kubectl's word for a pod's output is logs: "podflow logs" says to
	// use lines (cobra's "Did you mean this?").
	lines.SuggestFor = []string{"logs", "log"}
	root.AddCommand(get, describe, lines)
	// Each command file registers itself here; keep one line per command.
	// register: commands
	root.AddCommand(NewCmdStats(ioS, nil))
	root.AddCommand(NewCmdTrace(ioS, nil))
	get.AddCommand(NewCmdGetPods(ioS, nil))
	get.AddCommand(NewCmdGetNodes(ioS, nil))
	get.AddCommand(NewCmdGetEvents(ioS, nil))
	describe.AddCommand(NewCmdDescribePod(ioS, nil))
	describe.AddCommand(NewCmdDescribeNode(ioS, nil))
	lines.AddCommand(NewCmdLinesPod(ioS, nil))
	root.AddCommand(NewCmdPipeline(ioS, nil))
	root.AddCommand(NewCmdTUI(ioS, nil))
	root.AddCommand(NewCmdCheck(ioS, nil))
	root.AddCommand(NewCmdReport(ioS, nil))
	root.AddCommand(NewCmdParse(ioS, nil))
	root.AddCommand(NewCmdVersion(ioS, nil))
	return root
}

// Main runs podflow with args (args[0] is the program name) and returns the
// exit code. Only Main prints errors.
func Main(ioS *IO, args []string) int {
	root := NewRootCmd(ioS)
	if strings.HasPrefix(filepath.Base(args[0]), "kubectl-") {
		// As a kubectl plugin every usage line and example reads "kubectl
		// podflow …" (the display name reaches subcommands' paths too).
		root.Use = "podflow"
		if root.Annotations == nil {
			root.Annotations = map[string]string{}
		}
		root.Annotations[cobra.CommandDisplayNameAnnotation] = "kubectl podflow"
		var plugin func(c *cobra.Command)
		plugin = func(c *cobra.Command) {
			c.Example = strings.NewReplacer("  podflow ", "  kubectl podflow ", "| podflow ", "| kubectl podflow ").Replace(c.Example)
			for _, sub := range c.Commands() {
				plugin(sub)
			}
		}
		plugin(root)
	}
	root.SetArgs(splitTypeName(root, args[1:]))
	err := root.Execute()
	if werr := ioS.OutputErr(); werr != nil && (err == nil || !errors.Is(err, werr)) {
		// Output that could not be written is never success, whichever
		// layer of the printing path met the error first.
		err = &ExitError{Code: ExitUsage, Err: fmt.Errorf("writing standard output: %w", werr)}
	}
	if err == nil {
		if ioS.partial {
			return ExitPartial
		}
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) && ee.Err == nil {
		return ee.Code
	}
	// The message may hold a file name or log text: cleaned here, since the
	// terminal layer under ErrOut lets podflow's own colours through.
	fmt.Fprintf(ioS.ErrOut, "%s: %s\n", "podflow", sanitize.SanitizeLines(ioS.Redact.Text(err.Error())))
	var ue *usageError
	if !errors.As(err, &ue) && !errors.As(err, &ee) && strings.HasPrefix(err.Error(), "unknown command") {
		return ExitUsage
	}
	return exitCode(err)
}

// versionString is Version, or for a build from a checkout (Version still
// "dev") the module version or commit Go recorded in the binary.
func versionString() string {
	if Version != "dev" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Version
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v // go install github.com/podflow/podflow/cmd/podflow@vX
	}
	var rev, at, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return Version
	}
	return fmt.Sprintf("dev (%s%s, %s)", rev, dirty, at)
}

// newResourceGroup is a kubectl-style verb (get, describe, lines) whose
// subcommands are the resource types. Cobra would print the help and exit 0
// for `podflow get` or `podflow get deploy`; a script should see exit 2 and
// the types it can use instead.
func newResourceGroup(verb, short string) *cobra.Command {
	return &cobra.Command{
		Use:                        verb,
		Short:                      short,
		Args:                       cobra.ArbitraryArgs,
		SuggestionsMinimumDistance: 2,
		RunE: func(c *cobra.Command, args []string) error {
			var types []string
			for _, sub := range c.Commands() {
				if sub.IsAvailableCommand() {
					types = append(types, sub.Name())
				}
			}
			known := strings.Join(types, ", ")
			if len(args) == 0 {
				return usageErrorf("%s needs a resource type: %s\nSee '%s --help'.", c.CommandPath(), known, c.CommandPath())
			}
			msg := fmt.Sprintf("unknown resource type %q for %q; %s knows: %s", args[0], c.CommandPath(), c.CommandPath(), known)
			if s := c.SuggestionsFor(args[0]); len(s) > 0 {
				msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
			}
			return usageErrorf("%s\nSee '%s --help'.", msg, c.CommandPath())
		},
	}
}

// splitTypeName lets a resource be named as kubectl names it, TYPE/NAME:
// "describe pod/web-1 …" runs as "describe pod web-1 …" (and "get
// pods/web-1", "lines po/web-1", "describe node/kb-node-1"). Only the
// first argument after a resource verb is split, and only when TYPE is
// one of that verb's resource types.
func splitTypeName(root *cobra.Command, args []string) []string {
	verb := -1
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			verb = i
			break
		}
	}
	if verb < 0 || verb+1 >= len(args) {
		return args
	}
	group, _, err := root.Find(args[verb : verb+1])
	if err != nil || group == root || len(group.Commands()) == 0 {
		return args
	}
	typ, name, ok := strings.Cut(args[verb+1], "/")
	if !ok || typ == "" || name == "" {
		return args
	}
	for _, sub := range group.Commands() {
		if sub.Name() == typ || sub.HasAlias(typ) {
			out := append(append([]string{}, args[:verb+1]...), typ, name)
			return append(out, args[verb+2:]...)
		}
	}
	return args
}
