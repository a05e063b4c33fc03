package timeline

import (
	"strings"
	"testing"

	"github.com/podflow/podflow/internal/catalog"
)

// This file's name sorts last so that its tests, which load the catalog
// and keep the classification table, run after the tests that measure
// the heap (bounds, finisheach, many): a few MiB kept alive before those
// skew their deltas.

// loadCatalog parses the catalog for one test: this binary also measures
// its heap (TestFinishEachBoundsMemory), which a few MiB kept alive by an
// earlier test skew.
func loadCatalog(t *testing.T) *catalog.Catalog {
	t.Helper()
	c, err := catalog.ParseEmbedded()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestEveryPodMessageClassified holds `podflow pipeline --coverage` at
// 0 unclassified: every catalog message that can name a pod has a
// marker or a classes.tsv row. A new version's messages fail it; the
// failure lists them as proposed rows (review each before adding it).
func TestEveryPodMessageClassified(t *testing.T) {
	if _, err := Classes(); err != nil {
		t.Fatal(err)
	}
	cov := ComputeCoverage(loadCatalog(t))
	if cov.Total.PodBearing < 1000 {
		t.Fatalf("only %d pod-bearing messages: the catalog lost its sources", cov.Total.PodBearing)
	}
	for _, u := range cov.Unclassified {
		s := u.Suggest
		t.Errorf("unclassified %s %s (%s): proposed row:\n%s", u.Entry.Component, u.Versions, strings.Join(u.Files, ","),
			strings.Join([]string{string(s.Class), s.Stage, s.Component, s.Kind, EscTSV(s.Reason), EscTSV(s.Text), s.Why}, "\t"))
	}
	if cov.Total.Classified+cov.Total.Unclassified != cov.Total.PodBearing {
		t.Errorf("total %+v does not add up", cov.Total)
	}
}

// TestClassRowsNameCatalogMessages: a row is for a message some version
// logs and that can name a pod, and no marker already reads it (the
// marker's word is the engine's; a row beside it would be dead).
func TestClassRowsNameCatalogMessages(t *testing.T) {
	c := loadCatalog(t)
	rows, err := Classes()
	if err != nil {
		t.Fatal(err)
	}
	type key struct{ comp, kind, reason, text string }
	entries := map[key]*catalog.Entry{}
	for _, e := range c.Entries {
		entries[key{e.Component, string(e.Kind), e.Reason, e.Text}] = e
	}
	for _, r := range rows {
		e, ok := entries[key{r.Component, r.Kind, r.Reason, r.Text}]
		switch {
		case !ok:
			t.Errorf("row %s %s %q: no such message in the catalog", r.Class, r.Component, r.Text)
		case !e.PodBearing():
			t.Errorf("row %s %s %q: the message names no pod", r.Class, r.Component, r.Text)
		case MarkerOf(e) != nil:
			t.Errorf("row %s %s %q: marker %q already reads it", r.Class, r.Component, r.Text, markerLabel(MarkerOf(e)))
		}
	}
}

func markerLabel(m *Marker) string {
	switch {
	case m.Msg != "":
		return m.Msg
	case m.Prefix != "":
		return m.Prefix + "…"
	case m.Event != "":
		return "event " + m.Event + " " + m.EventMsg
	}
	return m.ErrHas
}

// markerExceptions are Reference markers whose message no catalog
// version logs, each with why it is still right.
var markerExceptions = map[string]string{
	// CRI-O before 1.34: the proxy serves only a few of its tags.
	"Attempting to run pod sandbox with infra container: …": "CRI-O ≤1.15, a version the proxy does not serve",
	"attempting to run pod sandbox with infra container: …": "CRI-O 1.16–1.18.2, a version the proxy does not serve",
	"ran pod sandbox …":          "CRI-O 1.16–1.18.2, a version the proxy does not serve",
	"response error: …":          "CRI-O 1.16–1.21's gRPC interceptor (log_level debug), a version the proxy does not serve",
	"Error reserving pod name …": "CRI-O's capitalised form, seen in real logs of versions the proxy does not serve",
	"error reserving pod name …": "CRI-O's reservation error: 1.34+ return it to the kubelet (its RunPodSandbox line carries it) rather than log it",
	// Admission reasons named outside the kubelet's tree.
	"event NodeAffinity ":    schedulerReason,
	"event NodeName ":        schedulerReason,
	"event NodePorts ":       schedulerReason,
	"event TaintToleration ": schedulerReason,
	// Texts of errors, not messages: the error is the line.
	", failed to \"…":                  "a later line of a ≤1.20 sync error split at a newline: the error's text",
	"init container &Container{…":      "an error kuberuntime_manager.go hands to utilruntime.HandleError (≤1.30 logs the error's text)",
	"ephemeral container &Container{…": "an error kuberuntime_manager.go hands to utilruntime.HandleError (≤1.30 logs the error's text)",
	// A verb before the text.
	"Startup probe for …": `prober.go's "%s probe for %q failed (%v): %s": the probe type is a verb, and no prefix of a format starting with one is checked`,
}

const schedulerReason = "the scheduler plugin's name (pkg/scheduler, outside the kubelet's tree) that lifecycle/predicate.go returns as the reason of rejectPod's event"

// TestMarkersLoggedByCatalog: every Reference marker that names a
// message (Msg, Prefix, Event) matches one some version in the catalog
// logs, checked against its component (CRI-O's, containerd's and
// kube-controller-manager's markers against theirs, the kubelet's
// against 1.1, 1.5 and 1.11 on); a marker for a version outside the
// catalog is in markerExceptions with its reason. ErrHas markers read a
// part of an error, not a logged message.
func TestMarkersLoggedByCatalog(t *testing.T) {
	c := loadCatalog(t)
	used := map[string]bool{}
	for i := range Reference.Markers {
		m := &Reference.Markers[i]
		checked, logged := MarkerLogged(c, m)
		if !checked {
			continue
		}
		label := markerLabel(m)
		if _, ok := markerExceptions[label]; ok {
			used[label] = true
			if logged {
				t.Errorf("marker %q is an exception but %s logs it: drop the exception", label, MarkerComponent(m))
			}
			continue
		}
		if !logged {
			t.Errorf("marker %q (%s, versions %q): no %s version in the catalog logs it", label, m.Stage, m.Versions, MarkerComponent(m))
		}
	}
	for label := range markerExceptions {
		if !used[label] {
			t.Errorf("exception %q names no marker", label)
		}
	}
}

func TestClassesParseErrors(t *testing.T) {
	bad := []string{
		"evidence\tnowhere\tkubelet\tmsg\t\tx\twhy",                        // unknown stage
		"routine\tvolumes\tkubelet\tmsg\t\tx\twhy",                         // a stage on routine
		"maybe\t\tkubelet\tmsg\t\tx\twhy",                                  // unknown class
		"routine\t\tkubelet\tmsg\tx",                                       // short
		"routine\t\tkubelet\tmsg\t\tx\ta\nfinding\t\tkubelet\tmsg\t\tx\tb", // twice
	}
	for _, b := range bad {
		if _, err := parseClasses(b); err == nil {
			t.Errorf("parseClasses(%q) succeeded", b)
		}
	}
	good := "# comment\nevidence\tvolumes\tkubelet\tprintf\t\ta\\tb %v\tthe volume manager\n"
	tab, err := parseClasses(good)
	if err != nil {
		t.Fatal(err)
	}
	if r := tab.rows[0]; r.Text != "a\tb %v" || r.Stage != StVolumes {
		t.Errorf("row read as %+v", r)
	}
}
