// Package trace turns flows into traces for tracing tools.
//
// chrome.go builds Chrome Trace Event JSON (ui.perfetto.dev,
// chrome://tracing): a process per node, a thread per pod holding a span
// for the whole flow with its stages nested inside (laneSpans keeps them
// strictly nested, as the viewers require: a stage that overlaps another
// goes to a further thread of the pod), and a thread per container.
// ChromeEvents gives the events one at a time so that cmd can stream them.
//
// otlp.go builds OTLP/JSON spans: a resource per node (Nodes, Resource),
// a trace per pod (TraceID from the pod UID), a root span syncPod and a
// child per stage named like the kubelet's own tracing spans
// (kubeletSpanName); Spans gives one pod's spans.
//
// Neither writes bytes: cmd/trace.go frames the events and spans as JSON.
package trace
