package cmd

import (
	"strconv"
	"strings"

	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// PipelineOptions holds what `podflow pipeline` needs.
type PipelineOptions struct {
	IO        *IO
	Output    string // "", json, yaml
	NoHeaders bool
}

var pipelineOutputs = []string{"json", "yaml"}

// NewCmdPipeline builds `podflow pipeline`.
func NewCmdPipeline(ioS *IO, runF func(*PipelineOptions) error) *cobra.Command {
	opts := &PipelineOptions{IO: ioS}
	cmd := &cobra.Command{
		Use:   "pipeline",
		Short: "Print the reference pipeline: stages and the log lines that move them",
		Long: `Print the reference pipeline podflow judges every pod against.

STAGES lists each stage in order with its scope (pod, container,
termination), what completes and what fails it, its budget (a stage
begun and not finished within its budget is Stalled; change it with
--budget STAGE=DURATION on the other commands) and the lowest kubelet -v
at which its completion is logged.

MARKERS lists every log message podflow recognises: the stage it moves,
its effect (begin, complete, fail, retry, observe), how it is matched
(exact structured message, printf prefix, event reason, or a substring of
the "Error syncing pod" error), the -v it needs and the kubelet versions
that write it.`,
		Example: `  podflow pipeline
  podflow pipeline -o json | jq '.stages[] | {id, budget}'`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if opts.Output != "" && !contains(pipelineOutputs, opts.Output) {
				return usageErrorf("unknown output format %q; allowed: %s", opts.Output, strings.Join(pipelineOutputs, ", "))
			}
			if runF != nil {
				return runF(opts)
			}
			return pipelineRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "output format: json or yaml")
	cmd.Flags().BoolVar(&opts.NoHeaders, "no-headers", false, "do not print section titles and header rows")
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion(pipelineOutputs...))
	return cmd
}

func pipelineRun(o *PipelineOptions) error {
	ioS := o.IO
	switch o.Output {
	case "json":
		return printJSON(ioS.Out, timeline.Reference)
	case "yaml":
		return printYAML(ioS.Out, timeline.Reference)
	}
	p := timeline.Reference
	st := &Table{Headers: []string{"STAGE", "SCOPE", "BUDGET", "MIN -V", "TITLE", "COMPLETES", "FAILS"}, NoHeader: o.NoHeaders, Flex: -1}
	for _, s := range p.Stages {
		st.Rows = append(st.Rows, []string{s.ID, string(s.Scope), dash(s.BudgetStr), strconv.Itoa(s.MinV), s.Title, s.Completes, dash(s.Fails)})
	}
	mt := &Table{Headers: []string{"STAGE", "EFFECT", "MATCH", "-V", "VERSIONS", "SPECIAL"}, NoHeader: o.NoHeaders, Flex: -1}
	for _, m := range p.Markers {
		mt.Rows = append(mt.Rows, []string{dash(m.Stage), string(m.Effect), markerMatch(m), strconv.Itoa(m.V), m.Versions, dash(string(m.Special))})
	}
	if !o.NoHeaders {
		ioS.Out.Write([]byte("STAGES\n"))
	}
	st.Print(ioS.Out, false)
	ioS.Out.Write([]byte("\n"))
	if !o.NoHeaders {
		ioS.Out.Write([]byte("MARKERS\n"))
	}
	mt.Print(ioS.Out, false)
	return nil
}

// markerMatch describes how a marker is matched.
func markerMatch(m timeline.Marker) string {
	switch {
	case m.Msg != "":
		return "msg " + strconv.Quote(m.Msg)
	case m.Prefix != "":
		return "prefix " + strconv.Quote(m.Prefix)
	case m.Event != "" && m.EventMsg != "":
		return "event " + m.Event + " " + strconv.Quote(m.EventMsg+"…")
	case m.Event != "":
		return "event " + m.Event
	case m.ErrHas != "":
		return "err has " + strconv.Quote(m.ErrHas)
	}
	return "-"
}
