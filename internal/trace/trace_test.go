package trace

import (
	"reflect"
	"testing"

	"github.com/podflow/podflow/timeline"
)

func TestNestSpans(t *testing.T) {
	parent := span{name: "pod", from: 10, to: 100}
	tests := []struct {
		name     string
		children []span
		want     [][2]int64 // from, to of the children kept
	}{
		{"sequential kept", []span{{from: 10, to: 20}, {from: 20, to: 50}}, [][2]int64{{10, 20}, {20, 50}}},
		{"clipped to the parent", []span{{from: 0, to: 20}, {from: 90, to: 200}}, [][2]int64{{10, 20}, {90, 100}}},
		{"overlap starts at the previous end", []span{{from: 10, to: 40}, {from: 30, to: 60}}, [][2]int64{{10, 40}, {40, 60}}},
		{"swallowed child dropped", []span{{from: 10, to: 60}, {from: 20, to: 50}}, [][2]int64{{10, 60}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := nestSpans(parent, tt.children)
			if out[0].name != "pod" {
				t.Fatalf("the parent is not first: %+v", out)
			}
			var got [][2]int64
			for _, s := range out[1:] {
				got = append(got, [2]int64{s.from, s.to})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("children %v, want %v", got, tt.want)
			}
		})
	}
}

func TestTraceID(t *testing.T) {
	uuid := &timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "a", UID: "0380DDEC-5D83-4B90-989E-E5515152B65D"}}
	if got := TraceID(uuid); got != "0380ddec5d834b90989ee5515152b65d" {
		t.Errorf("a UUID gives %q", got)
	}
	static := &timeline.Flow{Pod: timeline.PodRef{Namespace: "kube-system", Name: "etcd-node", UID: "c0ffee"}}
	again := *static
	again.Incarnation = 2
	if a, b := TraceID(static), TraceID(&again); len(a) != 32 || a == b {
		t.Errorf("hashed trace IDs %q and %q: want 32 hex digits, one per incarnation", a, b)
	}
}
