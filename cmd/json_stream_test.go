package cmd

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"go.yaml.in/yaml/v3"
)

// TestStreamedFlowListIsOneDocument: -o json and -o yaml write a FlowList
// item by item; the bytes must be those of the whole list written as one
// document, on the corpus, on logs full of hostile text and on block
// scalars with empty, indented and key-like lines.
func TestStreamedFlowListIsOneDocument(t *testing.T) {
	synthetic := &timeline.FlowList{APIVersion: timeline.APIVersion, Kind: timeline.KindFlowList, Items: []timeline.Flow{
		{Pod: timeline.PodRef{Name: "a"}, Reason: "first\n\n  indented\nitems: []\ntrailing \n", Diagnosis: "one\n\n\ntwo"},
		{Pod: timeline.PodRef{Name: "b"}, Reason: "- dash\n# hash\n"},
		{Pod: timeline.PodRef{Name: "true", Namespace: "123", UID: ""}, Reason: "null", Diagnosis: "~",
			Findings: yamlTricky, Hidden: []string{"a\r\nb", " lead", "trail ", "a: b", "{x}", "[y]", "'q'", "\"dq\""}},
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
	// More pods than a batch of encodeInOrder, and not a multiple of it.
	many := *lists["corpus"]
	many.Items = nil
	for len(many.Items) < 150 {
		many.Items = append(many.Items, lists["corpus"].Items...)
	}
	many.Items = many.Items[:150]
	lists["many"] = &many
	formats := []struct {
		name          string
		stream, whole func(io.Writer, any) error
	}{
		{"json", printJSON, writeJSON},
		{"yaml", printYAML, writeYAML},
		{"yaml against the YAML parser", printYAML, yamlViaParser},
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

// yamlTricky are strings YAML must quote, escape or drop characters of.
var yamlTricky = []string{"true", "false", "yes", "no", "on", "null", "Null", "~", "", "0", "-1", "1.5", "1e3", "0x1F",
	"0o17", ".inf", "-.Inf", ".nan", "2026-11-22", "12:30:00", "- x", ": a", "? q", "#c", "&a", "*b", "!t", "|", ">", "%d",
	"@x", "`y", "a #b", "a: b", "tab\there", "del\x7f", "c1\u0085x", "nonchar\ufffe\uffff", "bidi\u202eevil", "esc\x1b[31mred",
	"line\u2028sep", "<>&", "日本語", "emoji 🚀", "bell\a", "nul\x00", "multi\nline\n", "\n", "  \n  "}

// yamlViaParser is how writeYAML made its node tree before yamlNode: the
// JSON text read by the YAML parser, then restyled. yamlNode must give
// the same bytes.
func yamlViaParser(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = bytes.Map(func(r rune) rune {
		if r >= 0x7f && (sanitize.Unsafe(r) || r == 0xfffe || r == 0xffff) {
			return -1
		}
		return r
	}, b)
	var n yaml.Node
	if err := yaml.Unmarshal(b, &n); err != nil {
		return err
	}
	blockStyle(&n)
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return err
	}
	return enc.Close()
}

func blockStyle(n *yaml.Node) {
	switch n.Kind {
	case yaml.MappingNode, yaml.SequenceNode:
		n.Style = 0
	case yaml.ScalarNode:
		if n.Style == yaml.DoubleQuotedStyle {
			n.Style = 0 // the encoder quotes again where YAML needs it
		}
		n.Value = sanitize.SanitizeLines(n.Value)
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// TestStreamedTraceIsOneDocument: trace -o chrome writes its events one by
// one, and -o otlp its spans; the bytes must be those of the whole trace
// written as one document.
func TestStreamedTraceIsOneDocument(t *testing.T) {
	for _, in := range [][]string{{corpus}, writeHostileLogs(t).paths} {
		ioS, _, _, _ := NewTestIO(false)
		a, err := Analyze(ioS, in, LoadOptions{MaxPods: 1000})
		if err != nil {
			t.Fatal(err)
		}
		tr := buildChrome(a.Flows.Items)
		if len(tr.TraceEvents) == 0 {
			t.Fatalf("%v: no trace events", in)
		}
		var want, got bytes.Buffer
		if err := writeJSON(&want, tr); err != nil {
			t.Fatal(err)
		}
		if err := writeChrome(&got, a.Flows.Items); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("%v: streamed trace differs from the whole document (%d bytes, want %d)", in, got.Len(), want.Len())
		}
		// -o otlp: spans in a list in a list in a list, a resource per
		// node (the corpus has several), and no pods at all.
		if nodes, _ := otlpNodes(a.Flows.Items); in[0] == corpus && len(nodes) < 2 {
			t.Errorf("the corpus has %d nodes: the test needs several", len(nodes))
		}
		for _, flows := range [][]timeline.Flow{a.Flows.Items, nil} {
			want.Reset()
			got.Reset()
			if err := writeJSON(&want, buildOTLP(flows)); err != nil {
				t.Fatal(err)
			}
			if err := writeOTLP(&got, flows); err != nil {
				t.Fatal(err)
			}
			if flows == nil {
				// And an empty Chrome trace.
				if err := writeJSON(&want, buildChrome(flows)); err != nil {
					t.Fatal(err)
				}
				if err := writeChrome(&got, flows); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				g, w := got.Bytes(), want.Bytes()
				i := 0
				for i < min(len(g), len(w)) && g[i] == w[i] {
					i++
				}
				t.Errorf("%v, %d pods: streamed OTLP differs at byte %d of %d:\n got …%q…\nwant …%q…", in, len(flows), i, len(w),
					g[max(i-80, 0):min(i+80, len(g))], w[max(i-80, 0):min(i+80, len(w))])
			}
		}
	}
}
