package cmd

import (
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/podflow/podflow/internal/redact"
)

// lines pod --redact masks the one flow it prints and the names of all
// (to match its argument), not every flow's texts: on the 1 GiB bench log
// walking ten thousand flows took longer than the analysis (3.7 s against
// 1.7 s without --redact). With the secrets' pull failure and the corpus's
// twenty pods: the names are masked alike for all, the api pod unwalked
// still holds its secrets, and walked alone it is masked as FlowList
// masks it.
func TestLinesPodRedactsOneFlow(t *testing.T) {
	secret, _ := secretLog(t)
	in := filepath.Join("..", "testdata", "corpus", "v1.36.3", "07-twenty-pods.log")
	full := &IO{Out: io.Discard, ErrOut: io.Discard, Redact: testRedactor(t), Getenv: func(string) string { return "" }}
	all, err := analyze(full, []string{secret, in}, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	one := &IO{Out: io.Discard, ErrOut: io.Discard, Redact: testRedactor(t), Getenv: func(string) string { return "" }}
	part, err := analyze(one, []string{secret, in}, LoadOptions{oneFlow: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Flows.Items) != len(part.Flows.Items) || len(all.Flows.Items) < 21 {
		t.Fatalf("%d and %d flows, want the same, 21 or more", len(all.Flows.Items), len(part.Flows.Items))
	}
	raw, api := 0, -1
	for i := range part.Flows.Items {
		a, p := &all.Flows.Items[i], &part.Flows.Items[i]
		if a.Pod != p.Pod || a.Node != p.Node {
			t.Errorf("flow %d: names %v on %s, want %v on %s as every command masks them", i, p.Pod, p.Node, a.Pod, a.Node)
		}
		if !reflect.DeepEqual(p, a) {
			raw++
		}
		if strings.HasPrefix(a.Pod.Name, "api-") {
			api = i
		}
	}
	if raw == 0 {
		t.Error("every flow masked: the flows not printed were walked too")
	}
	if api < 0 {
		t.Fatal("no api pod")
	}
	f := &part.Flows.Items[api]
	redact.Flow(part.redact, f)
	if a := &all.Flows.Items[api]; !reflect.DeepEqual(f, a) {
		t.Errorf("printed flow masked otherwise than FlowList masks it:\n%+v\nwant\n%+v", f.Evidence, a.Evidence)
	}
}
