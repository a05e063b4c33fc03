package cmd

import (
	"bytes"
	"fmt"
	"os"

	"github.com/podflow/podflow/internal/check"
	"github.com/podflow/podflow/internal/report"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/spf13/cobra"
)

// ReportOptions holds what `podflow report` needs.
type ReportOptions struct {
	IO *IO

	Paths      []string
	Load       LoadOptions
	Output     string // path; "" or "-" for standard output
	Pods       []string
	Namespaces []string
	Ignore     []string
	Select     podSelection // --node, --verdict, --since, --until

	rules check.Rules
}

// NewCmdReport builds `podflow report`. runF, when set, replaces reportRun.
func NewCmdReport(ioS *IO, runF func(*ReportOptions) error) *cobra.Command {
	opts := &ReportOptions{IO: ioS}
	cmd := &cobra.Command{
		Use:   "report FILE|DIR... -o report.html",
		Short: "Write a self-contained HTML report with a Gantt chart of every pod",
		Long: `Write one self-contained HTML file (inline CSS, JavaScript and SVG; no
network access, no external assets). It leads with what needs attention:
node findings (the kubelet's routine start-up notes are folded at the end)
and the worst pods, failed ones red, recovered ones (running after failed
attempts) yellow. Then a Gantt chart per node on its own time axis, with
zoom, of each pod's stages and its containers' stages (hover a bar for its
evidence lines, click a pod for its details), each stall's diagnosis and
the raw evidence lines. The 300 worst pods are drawn in full; the others
are counted under their node. Attach it to CI runs as an artifact.`,
		Example: `  podflow report ./logs -o report.html
  podflow report kubelet.log --ignore '^kube-system/' -o - > report.html
  podflow report --node kind-worker --since 2h -o report.html`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			co := &CheckOptions{Pods: opts.Pods, Namespaces: opts.Namespaces, Ignore: opts.Ignore, Load: opts.Load}
			if err := co.resolve(nil); err != nil {
				return err
			}
			opts.rules = check.Rules{Pods: co.rules.Pods, Namespaces: co.rules.Namespaces, Ignore: co.rules.Ignore}
			if err := opts.Select.check(ioS, &opts.Load.live); err != nil {
				return err
			}
			if opts.Output == "" && opts.IO.OutTTY {
				return usageErrorf("refusing to write HTML to a terminal: give -o report.html (or -o - to force)")
			}
			if runF != nil {
				return runF(opts)
			}
			return reportRun(opts)
		},
	}
	addPodSelectionFlags(cmd, &opts.Select, false)
	addLoadFlags(cmd, &opts.Load)
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "write the HTML to PATH (- for standard output)")
	f.StringArrayVarP(&opts.Pods, "pod", "p", nil, "only pods whose name matches (name, namespace/name, UID or REGEX; repeatable)")
	f.StringArrayVarP(&opts.Namespaces, "namespace", "n", nil, "only pods in NAMESPACE (repeatable)")
	f.StringArrayVar(&opts.Ignore, "ignore", nil, "leave out pods whose namespace/name matches REGEX (repeatable)")
	return cmd
}

func reportRun(opts *ReportOptions) error {
	opts.Load.keep = keepEvery() // (the evidence lines it prints)
	a, err := Analyze(opts.IO, opts.Paths, opts.Load)
	if err != nil {
		return err
	}
	a.warn(opts.IO)
	fl, err := opts.Select.apply(opts.IO, a)
	if err != nil {
		return err
	}
	items, _ := opts.rules.Select(fl.Items)
	data := report.Build(report.Input{Flows: fl, Items: items, ReadRaws: a.ReadRaws, Version: Version})
	var buf bytes.Buffer
	if err := report.Write(&buf, data); err != nil {
		return err
	}
	if opts.Output == "" || opts.Output == "-" {
		_, err := opts.IO.Out.Write(buf.Bytes())
		return err
	}
	// As on standard output, a workflow command from the log is inert in
	// the file (a CI step may print it).
	if err := os.WriteFile(opts.Output, []byte(sanitize.Defuse(buf.String())), 0o644); err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	return nil
}
