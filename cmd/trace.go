package cmd

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// TraceOptions holds what `podflow trace` needs.
type TraceOptions struct {
	IO   *IO
	Load LoadOptions

	Paths  []string
	Names  []string
	Output string // chrome or otlp
	File   string // -f: write here instead of stdout
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
the earliest flow start.

-o otlp writes OTLP/JSON (an ExportTraceServiceRequest): one resource per
node (service.name=kubelet, k8s.node.name), one trace per pod (trace ID
from the pod UID), a root span syncPod and a child span per stage, named
like the kubelet's own tracing spans where one exists (RunPodSandbox,
PullImage, CreateContainer, StartContainer); stalled and failed stages
have status code 2 (error) and the reason as message. Send it with
curl -H 'Content-Type: application/json' --data @trace.json
http://collector:4318/v1/traces.

Use -p/--pod to export only some pods (name, namespace/name, UID or
regex).`,
		Example: `  podflow trace -o chrome -f trace.json kubelet.log
  podflow trace -o otlp kubelet.log
  podflow trace -p payments -f payments.json ./kind-logs/`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			if !contains(traceOutputs, opts.Output) {
				return usageErrorf("unknown output format %q; allowed: %s", opts.Output, strings.Join(traceOutputs, ", "))
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
	f.StringArrayVarP(&opts.Names, "pod", "p", nil, "only pods whose name matches (repeatable)")
	addLoadFlags(cmd, &opts.Load)
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion(traceOutputs...))
	return cmd
}

func traceRun(o *TraceOptions) error {
	ioS := o.IO
	names, err := NewPodFilter(redactAll(ioS.Redact, o.Names))
	if err != nil {
		return err
	}
	o.Load.trim = traceTrim(ioS, names)
	a, err := analyze(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	var flows []timeline.Flow
	for i := range a.Flows.Items {
		if names.Match(&a.Flows.Items[i]) {
			flows = append(flows, a.Flows.Items[i])
		}
	}
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

// traceTrim keeps the timing of the pods the trace exports and only the
// row of the others. Under --redact the names are matched once the flows
// are masked, after the trim, so every pod keeps its timing.
func traceTrim(ioS *IO, names *PodFilter) func(*timeline.Flow) {
	if names.Empty() || ioS.Redact != nil {
		return timingOnly
	}
	return func(f *timeline.Flow) {
		if names.Match(f) {
			timingOnly(f)
		} else {
			rowOnly(f)
		}
	}
}

// ---- Chrome Trace Event format ----

// ChromeEvent is one Trace Event.
type ChromeEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   int64          `json:"ts"`
	Dur  *int64         `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	Args map[string]any `json:"args,omitempty"`
}

// ChromeTrace is the JSON object form of a Chrome trace.
type ChromeTrace struct {
	TraceEvents     []ChromeEvent `json:"traceEvents"`
	DisplayTimeUnit string        `json:"displayTimeUnit"`
}

// traceSpan is an interval in µs for one thread, before nesting is enforced.
type traceSpan struct {
	name     string
	cat      string
	from, to int64
	args     map[string]any
}

// nestSpans makes a thread's spans strictly nested under the first one
// (the parent) and sequential among themselves: each child is clipped to
// the parent and starts no earlier than the previous child ended.
func nestSpans(parent traceSpan, children []traceSpan) []traceSpan {
	out := []traceSpan{parent}
	prev := parent.from
	for _, c := range children {
		if c.from < prev {
			c.from = prev
		}
		if c.to > parent.to {
			c.to = parent.to
		}
		if c.to < c.from {
			continue
		}
		out = append(out, c)
		prev = c.to
	}
	return out
}

func stageSpans(stages []timeline.Stage, end time.Time, us func(time.Time) int64) []traceSpan {
	var out []traceSpan
	for _, s := range stages {
		if s.Start == nil {
			continue
		}
		e := end
		if s.End != nil {
			e = *s.End
		}
		args := map[string]any{"status": string(s.Status)}
		if s.Attempts > 0 {
			args["attempts"] = s.Attempts
		}
		if s.Reason != "" {
			args["reason"] = oneLine(s.Reason)
		}
		out = append(out, traceSpan{name: s.ID, cat: "stage", from: us(*s.Start), to: us(e), args: args})
	}
	return out
}

func buildChrome(flows []timeline.Flow) ChromeTrace {
	tr := ChromeTrace{TraceEvents: []ChromeEvent{}, DisplayTimeUnit: "ms"}
	_ = chromeEvents(flows, func(e *ChromeEvent) error {
		tr.TraceEvents = append(tr.TraceEvents, *e)
		return nil
	})
	return tr
}

// writeChrome writes buildChrome(flows) as printJSON would, byte for
// byte, but an event at a time, never holding them all.
func writeChrome(w io.Writer, flows []timeline.Flow) error {
	w = sanitize.JSONWriter(w)
	err := streamJSONIn(w, ChromeTrace{TraceEvents: []ChromeEvent{}, DisplayTimeUnit: "ms"}, "traceEvents", 0, func(l *jsonList) error {
		return chromeEvents(flows, func(e *ChromeEvent) error { return l.add(e) })
	})
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// chromeEvents gives the events of the Chrome trace of flows to out, in
// order, and stops at out's first error.
func chromeEvents(flows []timeline.Flow, out func(*ChromeEvent) error) error {
	var base time.Time
	for i := range flows {
		if base.IsZero() || flows[i].Start.Before(base) {
			base = flows[i].Start
		}
	}
	us := func(t time.Time) int64 { return t.Sub(base).Microseconds() }
	pids := map[string]int{}
	nextTid := map[int]int{}
	var err error
	meta := func(name string, pid, tid int, args map[string]any) {
		if err == nil {
			err = out(&ChromeEvent{Name: name, Ph: "M", Pid: pid, Tid: tid, Args: args})
		}
	}
	emit := func(pid, tid int, spans []traceSpan) {
		for _, s := range spans {
			d := s.to - s.from
			if err == nil {
				err = out(&ChromeEvent{Name: s.name, Cat: s.cat, Ph: "X", Ts: s.from, Dur: &d, Pid: pid, Tid: tid, Args: s.args})
			}
		}
	}
	for i := 0; i < len(flows) && err == nil; i++ {
		f := &flows[i]
		node := dash(oneLine(f.Node))
		pid, ok := pids[node]
		if !ok {
			pid = len(pids) + 1
			pids[node] = pid
			meta("process_name", pid, 0, map[string]any{"name": node})
			meta("process_sort_index", pid, 0, map[string]any{"sort_index": pid})
		}
		nextTid[pid]++
		tid := nextTid[pid]
		key := oneLine(f.Pod.Key())
		meta("thread_name", pid, tid, map[string]any{"name": key})
		meta("thread_sort_index", pid, tid, map[string]any{"sort_index": tid})
		root := traceSpan{name: key, cat: "pod", from: us(f.Start), to: us(flowEnd(f)), args: map[string]any{
			"verdict": string(f.Verdict), "uid": oneLine(f.Pod.UID), "stage": stageLabel(f), "reason": oneLine(f.Reason)}}
		emit(pid, tid, nestSpans(root, stageSpans(f.Stages, flowEnd(f), us)))
		for _, c := range f.Containers {
			cs := stageSpans(c.Stages, flowEnd(f), us)
			if len(cs) == 0 {
				continue
			}
			nextTid[pid]++
			ctid := nextTid[pid]
			meta("thread_name", pid, ctid, map[string]any{"name": key + " " + oneLine(c.Name)})
			meta("thread_sort_index", pid, ctid, map[string]any{"sort_index": ctid})
			cr := traceSpan{name: oneLine(c.Name), cat: "container", from: cs[0].from, to: cs[0].to, args: map[string]any{
				"type": c.Type, "image": oneLine(c.Image), "restarts": c.Restarts}}
			for _, s := range cs {
				cr.from, cr.to = min(cr.from, s.from), max(cr.to, s.to)
			}
			emit(pid, ctid, nestSpans(cr, cs))
		}
	}
	return err
}

// ---- OTLP/JSON ----

// OTLP/JSON types (opentelemetry-proto, JSON encoding: lowerCamelCase
// names, 64-bit integers as strings, IDs as hex).
type (
	OTLPTraces struct {
		ResourceSpans []OTLPResourceSpans `json:"resourceSpans"`
	}
	OTLPResourceSpans struct {
		Resource   OTLPResource     `json:"resource"`
		ScopeSpans []OTLPScopeSpans `json:"scopeSpans"`
	}
	OTLPResource struct {
		Attributes []OTLPKeyValue `json:"attributes"`
	}
	OTLPScopeSpans struct {
		Scope OTLPScope  `json:"scope"`
		Spans []OTLPSpan `json:"spans"`
	}
	OTLPScope struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	}
	OTLPSpan struct {
		TraceID           string         `json:"traceId"`
		SpanID            string         `json:"spanId"`
		ParentSpanID      string         `json:"parentSpanId,omitempty"`
		Name              string         `json:"name"`
		Kind              int            `json:"kind"`
		StartTimeUnixNano string         `json:"startTimeUnixNano"`
		EndTimeUnixNano   string         `json:"endTimeUnixNano"`
		Attributes        []OTLPKeyValue `json:"attributes,omitempty"`
		Status            OTLPStatus     `json:"status"`
	}
	OTLPStatus struct {
		Code    int    `json:"code,omitempty"` // 0 unset, 1 ok, 2 error
		Message string `json:"message,omitempty"`
	}
	OTLPKeyValue struct {
		Key   string    `json:"key"`
		Value OTLPValue `json:"value"`
	}
	OTLPValue struct {
		StringValue *string `json:"stringValue,omitempty"`
		IntValue    *string `json:"intValue,omitempty"`
	}
)

// OTLP span kinds.
const (
	spanKindInternal = 1
	spanKindClient   = 3
)

func strAttr(k, v string) OTLPKeyValue {
	return OTLPKeyValue{Key: k, Value: OTLPValue{StringValue: &v}}
}
func intAttr(k string, v int) OTLPKeyValue {
	s := strconv.Itoa(v)
	return OTLPKeyValue{Key: k, Value: OTLPValue{IntValue: &s}}
}

// traceID derives a pod's 32-hex trace ID: its UID without dashes, or a
// hash of namespace/name (and incarnation) when the UID is not a UUID.
func traceID(f *timeline.Flow) string {
	u := strings.ToLower(strings.ReplaceAll(f.Pod.UID, "-", ""))
	if len(u) == 32 {
		if _, err := hex.DecodeString(u); err == nil && strings.Trim(u, "0") != "" {
			return u
		}
	}
	h := sha256.Sum256([]byte(f.Pod.Key() + "#" + strconv.Itoa(f.Incarnation) + "#" + f.Pod.UID))
	return hex.EncodeToString(h[:16])
}

// spanID derives a deterministic 16-hex span ID.
func spanID(trace, path string) string {
	h := sha256.Sum256([]byte(trace + "/" + path))
	return hex.EncodeToString(h[:8])
}

// kubeletSpanName names a stage like the kubelet's own tracing spans.
func kubeletSpanName(id string) (string, int) {
	switch id {
	case timeline.StSandbox:
		return "RunPodSandbox", spanKindClient
	case timeline.CStImage:
		return "PullImage", spanKindClient
	case timeline.CStCreated:
		return "CreateContainer", spanKindClient
	case timeline.CStStarted:
		return "StartContainer", spanKindClient
	case timeline.StStopped:
		return "StopContainer", spanKindClient
	case timeline.StTerminated:
		return "StopPodSandbox", spanKindClient
	}
	return id, spanKindInternal
}

func nanos(t time.Time) string { return strconv.FormatInt(t.UnixNano(), 10) }

// stageEnd is when a stage of f ended, or the flow's end for a stage
// still open.
func stageEnd(f *timeline.Flow, s *timeline.Stage) time.Time {
	if s.End != nil {
		return *s.End
	}
	return flowEnd(f)
}

func stageStatus(s *timeline.Stage) OTLPStatus {
	switch s.Status {
	case timeline.StatusFailed, timeline.StatusStalled:
		msg := oneLine(s.Reason)
		if msg == "" {
			msg = string(s.Status)
		}
		return OTLPStatus{Code: 2, Message: msg}
	case timeline.StatusDone:
		return OTLPStatus{Code: 1}
	}
	return OTLPStatus{}
}

// otlpNodes groups flows by node, nodes in the order of their first flow:
// a resource each.
func otlpNodes(flows []timeline.Flow) (nodes []string, members [][]int) {
	byNode := map[string]int{}
	for i := range flows {
		node := oneLine(flows[i].Node)
		ri, ok := byNode[node]
		if !ok {
			ri = len(nodes)
			byNode[node] = ri
			nodes, members = append(nodes, node), append(members, nil)
		}
		members[ri] = append(members[ri], i)
	}
	return nodes, members
}

// otlpResource is the resource of node's spans, with no spans yet.
func otlpResource(node string) OTLPResourceSpans {
	return OTLPResourceSpans{
		Resource:   OTLPResource{Attributes: []OTLPKeyValue{strAttr("service.name", "kubelet"), strAttr("k8s.node.name", node)}},
		ScopeSpans: []OTLPScopeSpans{{Scope: OTLPScope{Name: "github.com/podflow/podflow", Version: Version}, Spans: []OTLPSpan{}}},
	}
}

func buildOTLP(flows []timeline.Flow) OTLPTraces {
	out := OTLPTraces{ResourceSpans: []OTLPResourceSpans{}}
	nodes, members := otlpNodes(flows)
	for ri, node := range nodes {
		r := otlpResource(node)
		for _, i := range members[ri] {
			r.ScopeSpans[0].Spans = append(r.ScopeSpans[0].Spans, otlpSpans(&flows[i])...)
		}
		out.ResourceSpans = append(out.ResourceSpans, r)
	}
	return out
}

// writeOTLP writes buildOTLP(flows) as printJSON would, byte for byte,
// but a pod's spans at a time: the whole document took 1.2 GB for a log
// of 10,000 pods.
func writeOTLP(w io.Writer, flows []timeline.Flow) error {
	nodes, members := otlpNodes(flows)
	w = sanitize.JSONWriter(w)
	err := streamJSONIn(w, OTLPTraces{ResourceSpans: []OTLPResourceSpans{}}, "resourceSpans", 0, func(l *jsonList) error {
		for ri, node := range nodes {
			r := otlpResource(node)
			scope := r.ScopeSpans[0]
			r.ScopeSpans = []OTLPScopeSpans{}
			err := l.nest(r, "scopeSpans", func(l *jsonList) error {
				return l.nest(scope, "spans", func(l *jsonList) error {
					for _, i := range members[ri] {
						for _, sp := range otlpSpans(&flows[i]) {
							if err := l.add(&sp); err != nil {
								return err
							}
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

// otlpSpans are the spans of one pod: the root syncPod and a child per
// stage that began.
func otlpSpans(f *timeline.Flow) []OTLPSpan {
	tid := traceID(f)
	podAttrs := []OTLPKeyValue{strAttr("k8s.pod.name", oneLine(f.Pod.Name)), strAttr("k8s.namespace.name", oneLine(f.Pod.Namespace))}
	if f.Pod.UID != "" {
		podAttrs = append(podAttrs, strAttr("k8s.pod.uid", oneLine(f.Pod.UID)))
	}
	rootID := spanID(tid, "syncPod")
	root := OTLPSpan{TraceID: tid, SpanID: rootID, Name: "syncPod", Kind: spanKindInternal,
		StartTimeUnixNano: nanos(f.Start), EndTimeUnixNano: nanos(flowEnd(f)),
		Attributes: append(append([]OTLPKeyValue{}, podAttrs...), strAttr("podflow.verdict", string(f.Verdict))),
	}
	switch f.Verdict {
	case timeline.VerdictStalled, timeline.VerdictFailed, timeline.VerdictRejected:
		root.Status = OTLPStatus{Code: 2, Message: fmt.Sprintf("%s at %s: %s", f.Verdict, stageLabel(f), oneLine(f.Reason))}
	case timeline.VerdictIncomplete:
	default:
		root.Status = OTLPStatus{Code: 1}
	}
	spans := []OTLPSpan{root}
	stageIDs := map[string]string{}
	for j := range f.Stages {
		s := &f.Stages[j]
		if s.Start == nil {
			continue
		}
		name, kind := kubeletSpanName(s.ID)
		id := spanID(tid, "stage/"+s.ID)
		stageIDs[s.ID] = id
		attrs := append(append([]OTLPKeyValue{}, podAttrs...), strAttr("podflow.stage", s.ID), strAttr("podflow.status", string(s.Status)))
		if s.Attempts > 0 {
			attrs = append(attrs, intAttr("podflow.failed_attempts", s.Attempts))
		}
		spans = append(spans, OTLPSpan{TraceID: tid, SpanID: id, ParentSpanID: rootID, Name: name, Kind: kind,
			StartTimeUnixNano: nanos(*s.Start), EndTimeUnixNano: nanos(stageEnd(f, s)), Attributes: attrs, Status: stageStatus(s)})
	}
	for _, c := range f.Containers {
		parent := rootID
		group := timeline.StContainers
		if c.Type == timeline.ContainerInit {
			group = timeline.StInitContainers
		}
		if id, ok := stageIDs[group]; ok {
			parent = id
		}
		for j := range c.Stages {
			s := &c.Stages[j]
			if s.Start == nil {
				continue
			}
			name, kind := kubeletSpanName(s.ID)
			attrs := append(append([]OTLPKeyValue{}, podAttrs...), strAttr("k8s.container.name", oneLine(c.Name)),
				strAttr("podflow.stage", s.ID), strAttr("podflow.status", string(s.Status)))
			if c.Image != "" {
				attrs = append(attrs, strAttr("container.image.name", oneLine(c.Image)))
			}
			if s.Attempts > 0 {
				attrs = append(attrs, intAttr("podflow.failed_attempts", s.Attempts))
			}
			spans = append(spans, OTLPSpan{TraceID: tid, SpanID: spanID(tid, "container/"+c.Name+"/"+s.ID), ParentSpanID: parent,
				Name: name, Kind: kind, StartTimeUnixNano: nanos(*s.Start), EndTimeUnixNano: nanos(stageEnd(f, s)), Attributes: attrs, Status: stageStatus(s)})
		}
	}
	return spans
}
