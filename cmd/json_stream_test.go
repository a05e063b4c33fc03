package cmd

import (
	"bytes"
	"io"
	"testing"

	"github.com/podflow/podflow/timeline"
)

// TestStreamedFlowListIsOneDocument: -o json and -o yaml write a FlowList
// item by item; the bytes must be those of the whole list written as one
// document, on the corpus, on logs full of hostile text and on block
// scalars with empty, indented and key-like lines.
func TestStreamedFlowListIsOneDocument(t *testing.T) {
	synthetic := &timeline.FlowList{APIVersion: timeline.APIVersion, Kind: timeline.KindFlowList, Items: []timeline.Flow{
		{Pod: timeline.PodRef{Name: "a"}, Reason: "first\n\n  indented\nitems: []\ntrailing \n", Diagnosis: "one\n\n\ntwo"},
		{Pod: timeline.PodRef{Name: "b"}, Reason: "- dash\n# hash\n"},
	}}
	lists := map[string]*timeline.FlowList{"synthetic": synthetic}
	for name, in := range map[string][]string{
		"corpus":  {corpus},
		"sandbox": {corpus + "v1.36.3/04-sandbox-failure.log"},
		"hostile": writeHostileLogs(t).paths,
	} {
		ioS, _, _, _ := NewTestIO(false)
		a, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000})
		if err != nil {
			t.Fatal(err)
		}
		lists[name] = a.Flows
	}
	formats := []struct {
		name          string
		stream, whole func(io.Writer, any) error
	}{
		{"json", printJSON, writeJSON},
		{"yaml", printYAML, writeYAML},
	}
	for name, fl := range lists {
		for _, f := range formats {
			var want, got bytes.Buffer
			if err := f.whole(&want, fl); err != nil {
				t.Fatal(err)
			}
			if err := f.stream(&got, fl); err != nil {
				t.Fatal(err)
			}
			if g, w := got.Bytes(), want.Bytes(); !bytes.Equal(g, w) {
				i := 0
				for i < min(len(g), len(w)) && g[i] == w[i] {
					i++
				}
				t.Errorf("%s -o %s: streamed output differs at byte %d of %d:\n got …%q…\nwant …%q…", name, f.name, i, len(w),
					g[max(i-80, 0):min(i+80, len(g))], w[max(i-80, 0):min(i+80, len(w))])
			}
		}
	}
}
