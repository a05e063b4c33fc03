package timeline

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/podflow/podflow/parser"
)

// Snapshot mid-stream gives a list that later records do not change, and
// the final Finish equals a build in one go: a live view can take snapshots.
func TestFinishIsASnapshot(t *testing.T) {
	for _, name := range []string{"v1.36.3/05-crashloop-backoff.log", "v1.36.3/04-sandbox-failure.log", "v1.36.3/07-twenty-pods.log"} {
		data, err := os.ReadFile(filepath.Join(corpus, name))
		if err != nil {
			t.Fatal(err)
		}
		b := NewBuilder(Options{})
		r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: filepath.Base(name), Year: 2026, Want: b.Want})
		var recs []*parser.Record
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			recs = append(recs, rec)
		}
		// Snapshots at every tenth of the log, each checked at the end.
		var snaps []*FlowList
		var before [][]byte
		next := 0
		for i, rec := range recs {
			if i == next*len(recs)/10 && next < 10 {
				snap := b.Snapshot()
				js, _ := json.Marshal(snap)
				snaps, before = append(snaps, snap), append(before, js)
				next++
			}
			b.Add(rec)
		}
		final := b.Finish()
		for i, snap := range snaps {
			after, _ := json.Marshal(snap)
			if !bytes.Equal(before[i], after) {
				t.Errorf("%s: the snapshot at %d/10 changed as records came in", name, i)
			}
		}
		whole := NewBuilder(Options{})
		for _, rec := range recs {
			whole.Add(rec)
		}
		got, _ := json.Marshal(final)
		want, _ := json.Marshal(whole.Finish())
		if !bytes.Equal(got, want) {
			t.Errorf("%s: Finish after a snapshot differs from one Finish", name)
		}
		if bytes.Equal(before[5], got) {
			t.Errorf("%s: the half-way snapshot equals the end: test proves nothing", name)
		}
	}
}

// A repeated event bumps its count in the builder, never in a list Finish
// returned before.
func TestSnapshotKeepsItsEventCounts(t *testing.T) {
	ev := `I1122 06:09:38.960000    2001 event.go:389] "Event occurred" object="default/w-1" fieldPath="spec.containers{app}" kind="Pod" apiVersion="v1" type="Warning" reason="BackOff" message="Back-off restarting failed container app in pod w-1_default(u-1)"` + "\n"
	log := `I1122 06:09:30.000000    2001 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/w-1"]` + "\n" + ev + ev
	b := NewBuilder(Options{})
	r := parser.NewReader(bytes.NewReader([]byte(log)), parser.Options{Name: "x", Year: 2026, Want: b.Want})
	var snap *FlowList
	for i := 0; ; i++ {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if i == 2 {
			snap = b.Snapshot()
		}
		b.Add(rec)
	}
	final := b.Finish()
	if got := snap.Items[0].Events[0].Count; got != 1 {
		t.Errorf("snapshot event count %d, want 1", got)
	}
	if got := final.Items[0].Events[0].Count; got != 2 {
		t.Errorf("final event count %d, want 2", got)
	}
}
