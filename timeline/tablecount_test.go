package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An events table's row counts its event's reports (issue #19, gap 3):
// kubectl's "(x5 over 47s)" is the kubelet's reports of that event so far,
// of which the log's own lines of it are some. Corpus 05 logs three
// BackOff events for the worker (lines 990, 1466, 2275: 10s, 20s, 40s);
// `kubectl describe pod` pasted after it (the describe form of the wild
// corpus's excerpts, its row's message 05's own) says how many there were
// by then: the same three, or five, two more.
func TestEventsTableCountsItsRows(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "v1.36.3/05-crashloop-backoff.log"))
	if err != nil {
		t.Fatal(err)
	}
	const describe = "Name:             worker-5d8f7b9c4-m2v6n\nNamespace:        default\nEvents:\n" +
		"  Type     Reason   Age               From     Message\n" +
		"  ----     ------   ----              ----     -------\n" +
		"  Warning  BackOff  3s %s  kubelet  Back-off restarting failed container worker in pod worker-5d8f7b9c4-m2v6n_default(5c18c6f7-a0eb-41a1-8101-c7db6cf1e29f)\n"
	for _, tc := range []struct {
		count string
		want  int
	}{
		{"(x3 over 44s)", 3},
		{"(x5 over 47s)", 5},
	} {
		in := append(append([]byte{}, data...), strings.Replace(describe, "%s", tc.count, 1)...)
		f := onlyFlow(t, buildBytes(t, "05-described.log", in), "worker-5d8f7b9c4-m2v6n")
		c := containerOf(f, "worker")
		var events int
		for _, e := range f.Events {
			if e.Reason == "BackOff" {
				events += e.Count
			}
		}
		if c.BackOffs != tc.want || events != tc.want {
			t.Errorf("row %s: %d back-offs, %d BackOff events; want %d", tc.count, c.BackOffs, events, tc.want)
		}
		if f.Verdict != VerdictFailed || c.Restarts != 4 {
			t.Errorf("row %s: %s, %d restarts; want Failed, 4", tc.count, f.Verdict, c.Restarts)
		}
	}
}
