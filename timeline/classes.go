package timeline

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/podflow/podflow/internal/catalog"
	"github.com/podflow/podflow/parser"
)

// Every catalog message (internal/catalog) that can carry a pod is
// classified: a Reference marker reads it, or a row of classes.tsv says
// what it is. The rows are data for the engine's semantics, not matched
// per record: evidence rows say which stage a message is evidence of
// (for the generic attachment of lines that name a pod, which needs no
// marker of its own), findings are the node's, routine rows move
// nothing. `podflow pipeline --coverage` counts them per version, and a
// test fails on any pod-bearing message with neither.

// Class is what a catalog message means to a pod's flow.
type Class string

const (
	ClassMarker   Class = "marker"   // a Reference marker reads it (Marker says which)
	ClassEvidence Class = "evidence" // evidence of a stage (Stage)
	ClassFinding  Class = "finding"  // a finding on the node, not a step of the pod's
	ClassRoutine  Class = "routine"  // names a pod, moves no stage
)

// Classification is one row of classes.tsv, or a marker's claim.
type Classification struct {
	Class     Class   `json:"class"`
	Stage     string  `json:"stage,omitempty"` // evidence (and a marker's stage)
	Component string  `json:"component"`
	Kind      string  `json:"kind"`
	Reason    string  `json:"reason,omitempty"` // events
	Text      string  `json:"text"`
	Why       string  `json:"why,omitempty"`
	Marker    *Marker `json:"-"`
}

//go:embed classes.tsv
var classesTSV string

type classTable struct {
	rows  []Classification
	byKey map[string]*Classification
}

func classKey(comp, kind, reason, text string) string {
	return comp + "\x00" + kind + "\x00" + reason + "\x00" + text
}

var loadClasses = sync.OnceValues(func() (*classTable, error) { return parseClasses(classesTSV) })

// Classes returns the classification rows (classes.tsv): every
// pod-bearing catalog message no Reference marker reads, with its class.
// Keyed to the catalog by component, kind, reason and text
// (ClassOf looks one up).
func Classes() ([]Classification, error) {
	t, err := loadClasses()
	if err != nil {
		return nil, err
	}
	return t.rows, nil
}

func parseClasses(text string) (*classTable, error) {
	t := &classTable{byKey: map[string]*Classification{}}
	stages := map[string]bool{}
	for _, s := range Reference.Stages {
		stages[s.ID] = true
	}
	for n, line := range strings.Split(text, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("classes.tsv:%d: %d fields, want 7 (class stage component kind reason text why)", n+1, len(f))
		}
		c := Classification{Class: Class(f[0]), Stage: f[1], Component: f[2], Kind: f[3], Reason: unescTSV(f[4]), Text: unescTSV(f[5]), Why: f[6]}
		switch c.Class {
		case ClassEvidence:
			if !stages[c.Stage] {
				return nil, fmt.Errorf("classes.tsv:%d: evidence of unknown stage %q", n+1, c.Stage)
			}
		case ClassFinding, ClassRoutine:
			if c.Stage != "" {
				return nil, fmt.Errorf("classes.tsv:%d: a %s row has no stage", n+1, c.Class)
			}
		default:
			return nil, fmt.Errorf("classes.tsv:%d: unknown class %q", n+1, f[0])
		}
		k := classKey(c.Component, c.Kind, c.Reason, c.Text)
		if _, dup := t.byKey[k]; dup {
			return nil, fmt.Errorf("classes.tsv:%d: %s %q is classified twice", n+1, c.Component, c.Text)
		}
		t.rows = append(t.rows, c)
		t.byKey[k] = &t.rows[len(t.rows)-1]
	}
	return t, nil
}

func unescTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	return strings.NewReplacer(`\\`, `\`, `\t`, "\t", `\n`, "\n", `\r`, "\r").Replace(s)
}

// EscTSV writes a text as a classes.tsv (and catalog) field.
func EscTSV(s string) string {
	return strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`, "\r", `\r`).Replace(s)
}

// ClassOf classifies a catalog message: by the Reference marker that
// reads it, else by its row. ok is false for an unclassified one.
func ClassOf(e *catalog.Entry) (Classification, bool) {
	if mk := MarkerOf(e); mk != nil {
		return Classification{Class: ClassMarker, Stage: mk.Stage, Component: e.Component, Kind: string(e.Kind), Reason: e.Reason, Text: e.Text, Marker: mk}, true
	}
	t, err := loadClasses()
	if err != nil {
		return Classification{}, false
	}
	if c, ok := t.byKey[classKey(e.Component, string(e.Kind), e.Reason, e.Text)]; ok {
		return *c, true
	}
	return Classification{}, false
}

// MarkerOf returns the first Reference marker that reads the message's
// lines, nil if none: a Msg marker its exact structured message, a
// Prefix marker a message whose literal head starts with the prefix (or
// the prefix runs on past the head into a verb), an Event marker an
// event of its reason (and message prefix). ErrHas markers read a part
// of an error, not a message, and claim none.
func MarkerOf(e *catalog.Entry) *Marker {
	for i := range Reference.Markers {
		if markerReads(&Reference.Markers[i], e) {
			return &Reference.Markers[i]
		}
	}
	return nil
}

func markerReads(m *Marker, e *catalog.Entry) bool {
	if markerComponent(m) != e.Component && !(e.Component == catalog.KubeletLegacy && markerComponent(m) == catalog.Kubelet) {
		return false
	}
	switch {
	case m.Msg != "":
		return e.Kind == catalog.KindMsg && e.Text == m.Msg
	case m.Prefix != "":
		return (e.Kind == catalog.KindMsg || e.Kind == catalog.KindPrintf) && e.Head() != "" && e.CanStartWith(m.Prefix)
	case m.Event != "":
		if e.Kind != catalog.KindEvent {
			return false
		}
		if r, fam := strings.CutSuffix(m.Event, "*"); fam {
			if !strings.HasPrefix(e.Reason, r) {
				return false
			}
		} else if e.Reason != m.Event {
			return false
		}
		return m.EventMsg == "" || e.CanStartWith(m.EventMsg)
	}
	return false
}

// markerComponent says whose lines a marker reads, from its Versions.
func markerComponent(m *Marker) string {
	switch {
	case strings.HasPrefix(m.Versions, "CRI-O"):
		return catalog.CRIO
	case strings.HasPrefix(m.Versions, "containerd"):
		return catalog.Containerd
	case strings.HasPrefix(m.Versions, "kube-controller-manager"):
		return catalog.KubeControllerManager
	}
	return catalog.Kubelet
}

// MarkerComponent says which component's catalog a marker's message is
// checked against.
func MarkerComponent(m *Marker) string { return markerComponent(m) }

// MarkerLogged says some version in the catalog logs the marker's
// message (ErrHas markers read an error's text and are not checked).
func MarkerLogged(c *catalog.Catalog, m *Marker) (checked, logged bool) {
	if m.ErrHas != "" && m.Msg == "" && m.Prefix == "" && m.Event == "" {
		return false, false
	}
	for _, e := range c.Entries {
		if markerReads(m, e) {
			return true, true
		}
	}
	return true, false
}

// lineClasses is classes.tsv's kubelet evidence rows as the fallback
// looks a line up (lineClass): a structured message by its text, a printf
// line among the formats whose literal head begins with its first byte (a
// format that begins with a verb, under 0, is tried for every line).
type lineClasses struct {
	exact  map[string]string // message → stage
	printf [256][]printfClass
}

type printfClass struct {
	pat   catalog.Pattern
	stage string
}

// loadLineClasses builds the lookup once, on the fallback's first class
// question, from the rows' text as embedded: it reads only the evidence
// rows of the kubelet and keeps substrings of the table, so that a log
// that asks pays little for it (Classes, which keeps every row, is for
// tests and the coverage report).
var loadLineClasses = sync.OnceValue(func() *lineClasses {
	lc := &lineClasses{exact: make(map[string]string, 512)}
	for rest := classesTSV; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		rest = after
		stage, ok := strings.CutPrefix(line, "evidence\t")
		if !ok {
			continue
		}
		// stage, component, kind, reason, text, why
		var f [6]string
		for i := range f {
			if i == len(f)-1 {
				f[i] = stage
				break
			}
			f[i], stage, _ = strings.Cut(stage, "\t")
		}
		if f[1] != catalog.Kubelet {
			continue
		}
		text, _, _ := strings.Cut(f[4], "\t") // (the why follows)
		text = unescTSV(text)
		switch catalog.Kind(f[2]) {
		case catalog.KindMsg:
			lc.exact[text] = f[0]
		case catalog.KindPrintf:
			p := catalog.Compile(text)
			var k byte
			if h := p.Head(); h != "" {
				k = h[0]
			}
			lc.printf[k] = append(lc.printf[k], printfClass{pat: p, stage: f[0]})
		}
	}
	return lc
})

// lineClass is the stage a kubelet line's message is evidence of by its
// row of classes.tsv, "" when no evidence row has it (a message of no
// version in the catalog, a routine or finding row, or one a marker
// reads). Asked only of lines the fallback attaches to a pod.
func lineClass(rec *parser.Record) string {
	lc := loadLineClasses()
	if rec.Structured() {
		return lc.exact[rec.Msg]
	}
	msg := rec.Msg
	if msg == "" {
		return ""
	}
	for _, k := range [2]byte{msg[0], 0} {
		for _, pc := range lc.printf[k] {
			if pc.pat.Match(msg) {
				return pc.stage
			}
		}
		if msg[0] == 0 {
			break
		}
	}
	return ""
}
