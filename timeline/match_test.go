package timeline

import (
	"bytes"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/podflow/podflow/parser"
)

// wantLoop is want as a plain loop over every exact message and prefix:
// the tables of want must answer the same.
func (m *matcher) wantLoop(msg []byte) bool {
	if _, ok := m.exact[string(msg)]; ok {
		return true
	}
	for _, p := range m.wantPrefixes {
		if bytes.HasPrefix(msg, p) {
			return true
		}
	}
	for _, p := range extraWanted {
		if bytes.HasPrefix(msg, []byte(p)) {
			return true
		}
	}
	return false
}

// TestWantTables compares want with wantLoop on the raw message of every
// record of the corpus and the format fixtures (as the parser passes it),
// and on each exact message and prefix cut and lengthened by a byte.
func TestWantTables(t *testing.T) {
	m := newMatcher(&Reference)
	var mu sync.Mutex
	msgs := map[string]bool{"": true, strings.Repeat("x", 300): true}
	record := func(msg []byte) bool {
		mu.Lock()
		msgs[string(msg)] = true
		mu.Unlock()
		return true
	}
	srcs, errs := parser.Discover([]string{filepath.Join("..", "testdata", "corpus"), filepath.Join("..", "testdata", "formats")}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	rd := parser.NewMultiReader(srcs, parser.Options{Want: record})
	for {
		if _, err := rd.Next(); err != nil {
			break
		}
	}
	rd.Close()
	if len(msgs) < 500 {
		t.Fatalf("only %d messages read from testdata", len(msgs))
	}
	var known []string
	for msg := range m.exact {
		known = append(known, msg)
	}
	for _, p := range m.wantPrefixes {
		known = append(known, string(p))
	}
	known = append(known, extraWanted...)
	for _, k := range known {
		for _, v := range []string{k, k[:len(k)-1], k + " ", k + strings.Repeat("x", 256), strings.ToLower(k[:1]) + k[1:]} {
			msgs[v] = true
		}
	}
	wanted := 0
	for msg := range msgs {
		got, want := m.want([]byte(msg)), m.wantLoop([]byte(msg))
		if got != want {
			t.Errorf("want(%q) = %v, the loop says %v", msg, got, want)
		}
		if got {
			wanted++
		}
	}
	if wanted == 0 || wanted == len(msgs) {
		t.Errorf("%d of %d messages wanted", wanted, len(msgs))
	}
}

// want must answer as wantLoop for any message: its word test declines
// only messages that a prefix's first bytes (or the message's length)
// rule out, short messages and NUL bytes included.
func FuzzWant(f *testing.F) {
	m := newMatcher(&Reference)
	for _, p := range append([]string{"", "P", "PLEG\x00", "Event occurred\x00"}, extraWanted...) {
		f.Add(p)
		f.Add(p[:len(p)/2])
	}
	for _, p := range m.wantPrefixes {
		f.Add(string(p) + "x")
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if got, want := m.want([]byte(msg)), m.wantLoop([]byte(msg)); got != want {
			t.Fatalf("want(%q) = %v, the loop says %v", msg, got, want)
		}
	})
}

// syncErrorLoop is syncError as a plain loop: strings.Contains for each
// marker.
func (m *matcher) syncErrorLoop(err string) []*Marker {
	var out []*Marker
	for _, mk := range m.syncErrs {
		if strings.Contains(err, mk.ErrHas) {
			out = append(out, mk)
		}
	}
	return out
}

// syncError must match the markers the loop matches, in their order:
// "with " found once per text, overlapping texts, several parts.
func FuzzSyncErrorMarkers(f *testing.F) {
	for _, e := range fuzzErrs {
		f.Add(e)
	}
	for _, e := range []string{"", "with", "with ", "with with ErrImagePull", "wwith CrashLoopBackOff", "with CreateContainerErrorwith ErrImagePull",
		`[failed to "StartContainer" for "a" with RunContainerError: "x", failed to "StartContainer" for "b" with CrashLoopBackOff: "y", failed to "KillPodSandbox" for "p" with KillPodSandboxError: "z"]`,
		"unmounted volumes=[a], with ImagePullBackOff with ErrImageNeverPull with PostStartHookError with PreCreateHookError with CreateContainerConfigError"} {
		f.Add(e)
	}
	m := newMatcher(&Reference)
	f.Fuzz(func(t *testing.T, err string) {
		got := append([]*Marker(nil), m.syncError(err)...)
		want := m.syncErrorLoop(err)
		if len(got) != len(want) {
			t.Fatalf("%q: %d markers, the loop finds %d", err, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q: marker %d is %q, the loop's %q", err, i, got[i].ErrHas, want[i].ErrHas)
			}
		}
	})
}
