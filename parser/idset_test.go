package parser

import (
	"fmt"
	"testing"
)

// TestIDSet checks idSet against a map: an identity is new once, met
// again after, however long ago it was met (the cache of recent hashes
// evicts and the table grows many times over 20,000 identities).
func TestIDSet(t *testing.T) {
	var s idSet
	seen := map[string]bool{}
	// Runs of one identity, bursts that come back to a few, and
	// identities far apart, as a kubelet log names pods.
	ids := func(i int) []string {
		return []string{
			fmt.Sprintf("default/web-%d", i),
			fmt.Sprintf("default/web-%d", i),
			fmt.Sprintf("default/web-%d", i/3),
			fmt.Sprintf("%08x-1111-2222-3333-%012d", i, i),
			fmt.Sprintf("default/web-%d", (i*7919)%20000),
		}
	}
	for i := range 20000 {
		for _, id := range ids(i) {
			got := s.insert([]byte(id))
			if want := !seen[id]; got != want {
				t.Fatalf("insert(%q) at %d = %v, want %v", id, i, got, want)
			}
			seen[id] = true
		}
	}
	if s.n != len(seen) {
		t.Errorf("n = %d, want %d", s.n, len(seen))
	}
	for id := range seen {
		if s.insert([]byte(id)) {
			t.Fatalf("insert(%q) = true after it was met", id)
		}
	}
}
