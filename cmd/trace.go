package cmd

import (
	"io"
	"os"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/failure"
	"github.com/podflow/podflow/internal/printers"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/internal/trace"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// TraceOptions holds what `podflow trace` needs.
type TraceOptions struct {
	IO   *IO
	Load LoadOptions

	Paths  []string
	Select podSelection // -p, -n, --node, --verdict, --since, --until
	Output string       // chrome or otlp
	File   string       // -f: write here instead of stdout
}

var traceOutputs = []string{"chrome", "otlp"}

// NewCmdTrace builds `podflow trace`.
func NewCmdTrace(ioS *IO, runF func(*TraceOptions) error) *cobra.Command {
	opts := &TraceOptions{IO: ioS, Output: "chrome"}
	cmd := &cobra.Command{
		Use:   "trace [FILE|DIR|-]...",
		Short: "Export the flows as a Chrome trace (Perfetto) or OTLP/JSON spans",
		Long: `Export every pod's flow as a trace.

-o chrome writes Chrome Trace Event JSON, which ui.perfetto.dev and
chrome://tracing open: one process per node, one thread per pod holding a
span for the whole flow with its stages nested inside, and one thread per
container holding that container's stages. Times are microseconds from
the earliest flow start, which otherData.startTime gives as an absolute
time (RFC 3339; startTimeUnixMicros in microseconds since the epoch). Each
log line of a stage that shows a failed attempt or a back-off is an instant
event on that thread ("failed attempt", "back-off"), with the line.

-o otlp writes OTLP/JSON (an ExportTraceServiceRequest): one resource per
node (service.name=kubelet, k8s.node.name), one trace per pod (trace ID
from the pod UID), a root span syncPod and a child span per stage, named
like the kubelet's own tracing spans where one exists (RunPodSandbox,
PullImage, CreateContainer, StartContainer); stalled and failed stages
have status code 2 (error) and the reason as message. Send it with
curl -H 'Content-Type: application/json' --data @trace.json
http://collector:4318/v1/traces.

Use -p/--pod to export only some pods (name, namespace/name, UID or
regex), and -n, --node, --verdict, --since and --until as get pods takes
them.`,
		Example: `  podflow trace -o chrome -f trace.json kubelet.log
  podflow trace -o otlp kubelet.log
  podflow trace -p payments -f payments.json ./kind-logs/
  podflow trace -o chrome --node kind-worker --since 30m > trace.json`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			if !contains(traceOutputs, opts.Output) {
				return usageErrorf("unknown output format %q; allowed: %s", opts.Output, strings.Join(traceOutputs, ", "))
			}
			if err := opts.Select.check(ioS, &opts.Load.live); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return traceRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", opts.Output, "trace format: chrome or otlp")
	f.StringVarP(&opts.File, "file", "f", "", "write the trace to this file instead of standard output")
	addPodSelectionFlags(cmd, &opts.Select, true)
	addLoadFlags(cmd, &opts.Load)
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion(traceOutputs...))
	return cmd
}

func traceRun(o *TraceOptions) error {
	ioS := o.IO
	names, err := NewPodFilter(redactAll(ioS.Redact, o.Select.Names))
	if err != nil {
		return err
	}
	o.Load.trim = traceTrim(ioS, names, o.Output)
	a, err := analyze(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	fl, err := o.Select.apply(ioS, a)
	if err != nil {
		return err
	}
	flows := fl.Items
	var w io.Writer = ioS.Out
	if o.File != "" && o.File != "-" {
		f, err := os.Create(o.File)
		if err != nil {
			return inputError(err)
		}
		defer f.Close()
		w = f
	}
	if o.Output == "otlp" {
		return writeOTLP(w, flows)
	}
	return writeChrome(w, flows)
}

// traceTrim keeps the timing of the pods the trace exports (and, for a
// Chrome trace, the lines that show failures, its instant events: OTLP
// spans carry no evidence, and picking those lines was 6% of
// trace -o otlp's instructions) and only the row of the others. Under
// --redact the names are matched once the flows are masked, after the
// trim, so every pod keeps its timing.
func traceTrim(ioS *IO, names *PodFilter, output string) func(*timeline.Flow) {
	keep := timingAndFailures
	if output == "otlp" {
		keep = timingOnly
	}
	if names.Empty() || ioS.Redact != nil {
		return keep
	}
	return func(f *timeline.Flow) {
		if names.Match(f) {
			keep(f)
		} else {
			rowOnly(f)
		}
	}
}

// stageEnd is when a stage of f ended, or the flow's end for a stage
// still open (describe, lines pod and stats draw stages as the trace does).
func stageEnd(f *timeline.Flow, s *timeline.Stage) time.Time {
	if s.End != nil {
		return *s.End
	}
	return f.End
}

// traceMaxFailures bounds the failure lines a stage keeps for the trace
// (a crash loop of a day logs thousands).
const traceMaxFailures = 50

// timingAndFailures is timingOnly keeping, of each stage's evidence, the
// lines that show a failure (at most traceMaxFailures).
func timingAndFailures(f *timeline.Flow) {
	keep := func(stages []timeline.Stage) [][]timeline.Evidence {
		out := make([][]timeline.Evidence, len(stages))
		for i := range stages {
			out[i] = failure.Only(stages[i].Evidence, traceMaxFailures)
		}
		return out
	}
	pod := keep(f.Stages)
	cs := make([][][]timeline.Evidence, len(f.Containers))
	for i := range f.Containers {
		cs[i] = keep(f.Containers[i].Stages)
	}
	timingOnly(f)
	for i := range f.Stages {
		f.Stages[i].Evidence = pod[i]
	}
	for i := range f.Containers {
		for j := range f.Containers[i].Stages {
			f.Containers[i].Stages[j].Evidence = cs[i][j]
		}
	}
}

// ---- Chrome Trace Event format (internal/trace builds the events) ----

// buildChrome is the whole Chrome trace of flows, as writeChrome streams it.
func buildChrome(flows []timeline.Flow) trace.ChromeTrace { return trace.BuildChrome(flows) }

// writeChrome writes buildChrome(flows) as printJSON would, byte for
// byte, but an event at a time, never holding them all.
func writeChrome(w io.Writer, flows []timeline.Flow) error {
	return printers.Buffered(w, func(w io.Writer) error { return writeChromeTo(w, flows) })
}

func writeChromeTo(w io.Writer, flows []timeline.Flow) error {
	w = sanitize.JSONWriter(w)
	err := printers.StreamJSONIn(w, trace.ChromeEnvelope(flows), "traceEvents", 0, func(l *printers.JSONList) error {
		return trace.ChromeEvents(flows, func(e *trace.ChromeEvent) error { return l.AddJSON(e.AppendJSON) })
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// ---- OTLP/JSON (internal/trace builds the spans) ----

// buildOTLP is the whole OTLP request of flows, as writeOTLP streams it.
func buildOTLP(flows []timeline.Flow) trace.OTLPTraces { return trace.BuildOTLP(flows, Version) }

// otlpNodes groups flows by node (trace.Nodes).
func otlpNodes(flows []timeline.Flow) ([]string, [][]int) { return trace.Nodes(flows) }

// writeOTLP writes buildOTLP(flows) as printJSON would, byte for byte,
// but a pod's spans at a time: the whole document took 1.2 GB for a log
// of 10,000 pods.
func writeOTLP(w io.Writer, flows []timeline.Flow) error {
	return printers.Buffered(w, func(w io.Writer) error { return writeOTLPTo(w, flows) })
}

func writeOTLPTo(w io.Writer, flows []timeline.Flow) error {
	nodes, members := trace.Nodes(flows)
	w = sanitize.JSONWriter(w)
	var spans trace.SpanAppender
	err := printers.StreamJSONIn(w, trace.OTLPTraces{ResourceSpans: []trace.OTLPResourceSpans{}}, "resourceSpans", 0, func(l *printers.JSONList) error {
		for ri, node := range nodes {
			r := trace.Resource(node, Version)
			scope := r.ScopeSpans[0]
			r.ScopeSpans = []trace.OTLPScopeSpans{}
			err := l.Nest(r, "scopeSpans", func(l *printers.JSONList) error {
				return l.Nest(scope, "spans", func(l *printers.JSONList) error {
					for _, i := range members[ri] {
						if err := spans.Each(&flows[i], l.AddJSON); err != nil {
							return err
						}
					}
					return nil
				})
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}
