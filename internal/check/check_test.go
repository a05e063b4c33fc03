package check

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/timeline"
)

// hostileResult is a failing pod whose log text tries to break every format.
func hostileResult() *Result {
	evil := "boom 100% done\n::set-output name=x::y\r\n::error::forged\x00\x1b[31mred\x0b]]><script>alert(1)</script> | a,b:c"
	f := timeline.Flow{Pod: timeline.PodRef{Namespace: "default", Name: "evil%0A::warning::x"}, Verdict: timeline.VerdictFailed,
		StalledAt: "containers", Reason: evil, Diagnosis: "Failed: " + evil, Waited: timeline.Duration(time.Minute),
		Evidence: []timeline.Evidence{{Input: "logs/node,1:x/kubelet.log", Line: 42, Text: evil}}}
	fl := &timeline.FlowList{APIVersion: timeline.APIVersion, Kind: timeline.KindFlowList, Items: []timeline.Flow{f}}
	r := Rules{FailOn: map[timeline.Verdict]bool{timeline.VerdictFailed: true}, FailOrder: []timeline.Verdict{timeline.VerdictFailed}}
	return Judge(fl, r, nil)
}

// TestJUnitHostile: characters XML 1.0 forbids are removed, markup escaped.
func TestJUnitHostile(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteJUnit(&buf, hostileResult()); err != nil {
		t.Fatal(err)
	}
	var back JUnitSuites
	if err := xml.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatalf("hostile junit does not parse: %v\n%s", err, buf.String())
	}
	f := back.Suites[0].Cases[0].Failure
	if f == nil || !strings.Contains(f.Text, "<script>") || strings.ContainsAny(f.Text, "\x00\x1b\x0b") || !strings.Contains(f.Text, "]]>") {
		t.Errorf("hostile failure text: %q", f)
	}
}

func TestGitHubHostile(t *testing.T) {
	var buf bytes.Buffer
	WriteGitHub(&buf, hostileResult())
	out := buf.String()
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("want one annotation line, got %d:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !strings.HasPrefix(l, "::error file=") {
			t.Errorf("line does not start with the annotation: %q", l)
		}
		if strings.ContainsAny(l, "\r\x00\x1b") {
			t.Errorf("raw control characters in %q", l)
		}
	}
	for _, w := range []string{"file=logs/node%2C1%3Ax/kubelet.log,line=42,title=default/evil%250A%3A%3Awarning%3A%3Ax Failed", "100%25 done%0A::set-output", "y%0A::error::forgedred"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestMarkdownEscapes(t *testing.T) {
	var buf bytes.Buffer
	WriteMarkdown(&buf, hostileResult())
	out := buf.String()
	if strings.Contains(out, "<script>") || strings.Contains(out, "\x1b") || !strings.Contains(out, "&lt;script&gt;") {
		t.Errorf("markdown not escaped:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| default/evil") && strings.Count(strings.ReplaceAll(l, `\|`, ""), "|") != 5 {
			t.Errorf("table row broken: %q", l)
		}
	}
}
