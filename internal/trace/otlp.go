package trace

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

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

// TraceID derives a pod's 32-hex trace ID: its UID without dashes, or a
// hash of namespace/name (and incarnation) when the UID is not a UUID.
func TraceID(f *timeline.Flow) string {
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
	return f.End
}

func stageStatus(s *timeline.Stage) OTLPStatus {
	switch s.Status {
	case timeline.StatusFailed, timeline.StatusStalled:
		msg := sanitize.OneLine(s.Reason)
		if msg == "" {
			msg = string(s.Status)
		}
		return OTLPStatus{Code: 2, Message: msg}
	case timeline.StatusDone:
		return OTLPStatus{Code: 1}
	}
	return OTLPStatus{}
}

// Nodes groups flows by node, nodes in the order of their first flow:
// a resource each.
func Nodes(flows []timeline.Flow) (nodes []string, members [][]int) {
	byNode := map[string]int{}
	for i := range flows {
		node := sanitize.OneLine(flows[i].Node)
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

// Resource is the resource of node's spans, with no spans yet.
func Resource(node, version string) OTLPResourceSpans {
	return OTLPResourceSpans{
		Resource:   OTLPResource{Attributes: []OTLPKeyValue{strAttr("service.name", "kubelet"), strAttr("k8s.node.name", node)}},
		ScopeSpans: []OTLPScopeSpans{{Scope: OTLPScope{Name: "github.com/podflow/podflow", Version: version}, Spans: []OTLPSpan{}}},
	}
}

func BuildOTLP(flows []timeline.Flow, version string) OTLPTraces {
	out := OTLPTraces{ResourceSpans: []OTLPResourceSpans{}}
	nodes, members := Nodes(flows)
	for ri, node := range nodes {
		r := Resource(node, version)
		for _, i := range members[ri] {
			r.ScopeSpans[0].Spans = append(r.ScopeSpans[0].Spans, Spans(&flows[i])...)
		}
		out.ResourceSpans = append(out.ResourceSpans, r)
	}
	return out
}

// Spans are the spans of one pod: the root syncPod and a child per
// stage that began.
func Spans(f *timeline.Flow) []OTLPSpan {
	tid := TraceID(f)
	podAttrs := []OTLPKeyValue{strAttr("k8s.pod.name", sanitize.OneLine(f.Pod.Name)), strAttr("k8s.namespace.name", sanitize.OneLine(f.Pod.Namespace))}
	if f.Pod.UID != "" {
		podAttrs = append(podAttrs, strAttr("k8s.pod.uid", sanitize.OneLine(f.Pod.UID)))
	}
	rootID := spanID(tid, "syncPod")
	root := OTLPSpan{TraceID: tid, SpanID: rootID, Name: "syncPod", Kind: spanKindInternal,
		StartTimeUnixNano: nanos(f.Start), EndTimeUnixNano: nanos(f.End),
		Attributes: append(append([]OTLPKeyValue{}, podAttrs...), strAttr("podflow.verdict", string(f.Verdict))),
	}
	switch f.Verdict {
	case timeline.VerdictStalled, timeline.VerdictFailed, timeline.VerdictRejected:
		root.Status = OTLPStatus{Code: 2, Message: fmt.Sprintf("%s at %s: %s", f.Verdict, stageLabel(f), sanitize.OneLine(f.Reason))}
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
			attrs := append(append([]OTLPKeyValue{}, podAttrs...), strAttr("k8s.container.name", sanitize.OneLine(c.Name)),
				strAttr("podflow.stage", s.ID), strAttr("podflow.status", string(s.Status)))
			if c.Image != "" {
				attrs = append(attrs, strAttr("container.image.name", sanitize.OneLine(c.Image)))
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
