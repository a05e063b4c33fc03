package cmd

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// TestStreamedFlowListIsEncodingJSON: -o json writes a FlowList item by
// item; the bytes must be what encoding/json writes for the whole list, on
// the corpus and on logs full of hostile text.
func TestStreamedFlowListIsEncodingJSON(t *testing.T) {
	inputs := [][]string{{corpus}, {corpus + "v1.36.3/04-sandbox-failure.log"}, writeHostileLogs(t).paths}
	for _, in := range inputs {
		ioS, _, _, _ := NewTestIO(false)
		a, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Flows.Items) == 0 {
			t.Fatalf("%v: no pods", in)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(sanitize.JSONWriter(&want))
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(a.Flows); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := printJSON(&got, a.Flows); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Errorf("%v: streamed JSON differs at byte %d of %d:\n got …%q…\nwant …%q…", in, i, want.Len(),
				got.Bytes()[max(i-80, 0):min(i+80, got.Len())], want.Bytes()[max(i-80, 0):min(i+80, want.Len())])
		}
	}
}

// TestStreamedFlowListIsOneYAMLDocument: -o yaml writes a FlowList item by
// item; the bytes must be those of the whole list as one document, on the
// corpus and on logs full of hostile text (multi-line errors included).
func TestStreamedFlowListIsOneYAMLDocument(t *testing.T) {
	inputs := [][]string{{corpus}, {corpus + "v1.36.3/04-sandbox-failure.log"}, writeHostileLogs(t).paths, nil}
	for _, in := range inputs {
		ioS, _, _, _ := NewTestIO(false)
		a := &Analysis{Flows: &timeline.FlowList{APIVersion: timeline.APIVersion, Kind: timeline.KindFlowList, Items: []timeline.Flow{
			// Block scalars with empty lines, indented lines and
			// trailing space, and a key-like line.
			{Pod: timeline.PodRef{Name: "a"}, Reason: "first\n\n  indented\nitems: []\ntrailing \n", Diagnosis: "one\n\n\ntwo"},
			{Pod: timeline.PodRef{Name: "b"}, Reason: "- dash\n# hash\n"},
		}}}
		if in != nil {
			var err error
			if a, err = Analyze(ioS, in, LoadOptions{MaxPods: 1000}); err != nil {
				t.Fatal(err)
			}
		}
		var want, got bytes.Buffer
		if err := writeYAML(&want, a.Flows); err != nil {
			t.Fatal(err)
		}
		if err := printYAML(&got, a.Flows); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			i := 0
			for i < min(got.Len(), want.Len()) && got.Bytes()[i] == want.Bytes()[i] {
				i++
			}
			t.Errorf("%v: streamed YAML differs at byte %d of %d:\n got …%q…\nwant …%q…", in, i, want.Len(),
				got.Bytes()[max(i-80, 0):min(i+80, got.Len())], want.Bytes()[max(i-80, 0):min(i+80, want.Len())])
		}
	}
}
