package cmd

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/internal/trace"
)

func TestTraceChromeNesting(t *testing.T) {
	for _, log := range []string{"v1.36.3/07-twenty-pods.log", "v1.36.3/04-sandbox-failure.log", "v1.36.3/10-init-container-crashloop.log", "v1.36.3/06-pod-deletion-api.log"} {
		t.Run(log, func(t *testing.T) {
			out, errOut, code := runPodflow(t, false, "trace", "-o", "chrome", corpus+log)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var tr trace.ChromeTrace
			if err := json.Unmarshal([]byte(out), &tr); err != nil {
				t.Fatal(err)
			}
			type key struct{ pid, tid int }
			threads := map[key][]trace.ChromeEvent{}
			names := map[key]bool{}
			xs := 0
			for _, e := range tr.TraceEvents {
				switch e.Ph {
				case "X":
					if e.Dur == nil || *e.Dur < 0 {
						t.Fatalf("bad dur in %+v", e)
					}
					threads[key{e.Pid, e.Tid}] = append(threads[key{e.Pid, e.Tid}], e)
					xs++
				case "M":
					if e.Name == "thread_name" {
						names[key{e.Pid, e.Tid}] = true
					}
				}
			}
			if xs == 0 {
				t.Fatal("no complete events")
			}
			for k, evs := range threads {
				if !names[k] {
					t.Errorf("thread %v has no thread_name", k)
				}
				// Strict nesting: any two events on a thread are disjoint or
				// one contains the other.
				for i := range evs {
					for j := i + 1; j < len(evs); j++ {
						a, b := evs[i], evs[j]
						ae, be := a.Ts+*a.Dur, b.Ts+*b.Dur
						disjoint := ae <= b.Ts || be <= a.Ts
						nested := a.Ts <= b.Ts && be <= ae || b.Ts <= a.Ts && ae <= be
						if !disjoint && !nested {
							t.Errorf("thread %v: %s [%d,%d] overlaps %s [%d,%d]", k, a.Name, a.Ts, ae, b.Name, b.Ts, be)
						}
					}
				}
			}
		})
	}
}

func TestTraceOTLP(t *testing.T) {
	out, errOut, code := runPodflow(t, false, "trace", "-o", "otlp", corpus+"v1.36.3/02-image-pull-failure.log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The OTLP/JSON schema: 64-bit nanosecond times are strings.
	var req struct {
		ResourceSpans []struct {
			Resource struct {
				Attributes []struct {
					Key   string `json:"key"`
					Value struct {
						StringValue string `json:"stringValue"`
					} `json:"value"`
				} `json:"attributes"`
			} `json:"resource"`
			ScopeSpans []struct {
				Scope struct {
					Name string `json:"name"`
				} `json:"scope"`
				Spans []struct {
					TraceID           string `json:"traceId"`
					SpanID            string `json:"spanId"`
					ParentSpanID      string `json:"parentSpanId"`
					Name              string `json:"name"`
					Kind              int    `json:"kind"`
					StartTimeUnixNano string `json:"startTimeUnixNano"`
					EndTimeUnixNano   string `json:"endTimeUnixNano"`
					Status            struct {
						Code    int    `json:"code"`
						Message string `json:"message"`
					} `json:"status"`
				} `json:"spans"`
			} `json:"scopeSpans"`
		} `json:"resourceSpans"`
	}
	if err := json.Unmarshal([]byte(out), &req); err != nil {
		t.Fatal(err)
	}
	if len(req.ResourceSpans) != 1 {
		t.Fatalf("%d resources", len(req.ResourceSpans))
	}
	attrs := map[string]string{}
	for _, a := range req.ResourceSpans[0].Resource.Attributes {
		attrs[a.Key] = a.Value.StringValue
	}
	if attrs["service.name"] != "kubelet" || attrs["k8s.node.name"] != "kb-node-pullfail" {
		t.Errorf("resource attributes %v", attrs)
	}
	hex32, hex16 := regexp.MustCompile(`^[0-9a-f]{32}$`), regexp.MustCompile(`^[0-9a-f]{16}$`)
	ids := map[string]string{}
	byName := map[string]int{}
	spans := req.ResourceSpans[0].ScopeSpans[0].Spans
	for _, s := range spans {
		ids[s.SpanID] = s.Name
		byName[s.Name]++
	}
	for _, s := range spans {
		if s.TraceID != "0380ddec5d834b90989ee5515152b65d" || !hex32.MatchString(s.TraceID) {
			t.Errorf("traceId %q", s.TraceID)
		}
		if !hex16.MatchString(s.SpanID) {
			t.Errorf("spanId %q", s.SpanID)
		}
		if s.Name != "syncPod" && ids[s.ParentSpanID] == "" {
			t.Errorf("%s: parent %q not in trace", s.Name, s.ParentSpanID)
		}
		st, err1 := strconv.ParseInt(s.StartTimeUnixNano, 10, 64)
		en, err2 := strconv.ParseInt(s.EndTimeUnixNano, 10, 64)
		if err1 != nil || err2 != nil || en < st || st < 1e18 {
			t.Errorf("%s: times %q %q", s.Name, s.StartTimeUnixNano, s.EndTimeUnixNano)
		}
		if s.Name == "PullImage" && (s.Status.Code != 2 || s.Status.Message == "") {
			t.Errorf("PullImage status %+v", s.Status)
		}
		if s.Name == "syncPod" && s.Status.Code != 2 {
			t.Errorf("syncPod status %+v", s.Status)
		}
	}
	for _, n := range []string{"syncPod", "RunPodSandbox", "PullImage", "containers"} {
		if byName[n] != 1 {
			t.Errorf("%d spans named %s", byName[n], n)
		}
	}
	// Deterministic.
	again, _, _ := runPodflow(t, false, "trace", "-o", "otlp", corpus+"v1.36.3/02-image-pull-failure.log")
	if again != out {
		t.Error("otlp output differs between runs")
	}
}

// TestTraceChromeFailuresAndStart: the Chrome trace says when ts 0 is
// (otherData.startTime, the earliest flow start) and marks each failed
// attempt and back-off as an instant event on its pod's or container's
// thread, at the line's time, naming the line.
func TestTraceChromeFailuresAndStart(t *testing.T) {
	tests := []struct {
		log       string
		start     string
		name      string // of an instant
		stage     string
		line      string
		instants  int // at least
		noInstant bool
	}{
		{"v1.36.3/04-sandbox-failure.log", "2026-11-22T06:08:06.733484Z", trace.InstantFailed, "sandbox", "04-sandbox-failure.log:769", 4, false},
		{"v1.36.3/05-crashloop-backoff.log", "2026-11-22T06:09:33.514244Z", trace.InstantBackOff, "started", "05-crashloop-backoff.log:1466", 3, false},
		{"v1.36.3/01-happy-path.log", "2026-11-22T", "", "", "", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.log, func(t *testing.T) {
			out, errOut, code := runPodflow(t, false, "trace", "-o", "chrome", corpus+tt.log)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var tr trace.ChromeTrace
			if err := json.Unmarshal([]byte(out), &tr); err != nil {
				t.Fatal(err)
			}
			start, _ := tr.OtherData["startTime"].(string)
			micros, _ := tr.OtherData["startTimeUnixMicros"].(float64)
			st, err := time.Parse(time.RFC3339Nano, start)
			if !strings.HasPrefix(start, tt.start) || err != nil || st.UnixMicro() != int64(micros) {
				t.Errorf("otherData %v: want startTime %s…, the same instant in micros", tr.OtherData, tt.start)
			}
			n, found := 0, false
			for _, e := range tr.TraceEvents {
				if e.Ph != "i" {
					continue
				}
				n++
				if e.S != "t" || e.Cat != "failure" {
					t.Errorf("instant %+v: want thread scope, category failure", e)
				}
				if e.Name == tt.name && e.Args["stage"] == tt.stage && strings.HasSuffix(e.Args["line"].(string), tt.line) {
					found = true
				}
			}
			if tt.noInstant && n > 0 {
				t.Errorf("%d instants on a log with no failure", n)
			}
			if !tt.noInstant && (n < tt.instants || !found) {
				t.Errorf("%d instants (want %d or more), none %q of stage %s at %s", n, tt.instants, tt.name, tt.stage, tt.line)
			}
		})
	}
}
