package parser

import (
	"fmt"
	"testing"
)

// TestIDSet checks what Rescue relies on: an identity never met is new
// (its first record always passes), one met within the last few
// identities is not, and the set forgets little of a working set far
// below its size, as a kubelet names pods (a few at a time).
func TestIDSet(t *testing.T) {
	var s idSet
	id := func(i int) []byte { return fmt.Appendf(nil, "default/web-%d-%08x", i, i*2654435761) }
	// Every identity of 200,000, twelve times the table, is new once.
	for i := range 200000 {
		if !s.insert(id(i)) {
			t.Fatalf("identity %d, never met, taken as met", i)
		}
		// An identity met again after fewer than idWays others is still
		// there, whatever their sets.
		if i >= idWays-1 && s.insert(id(i-(idWays-1))) {
			t.Fatalf("identity %d forgotten after %d others", i-(idWays-1), idWays-1)
		}
	}
	// A working set of 2,000 identities named over and over: met again,
	// all but a handful (a set of four that five of them share).
	var t2 idSet
	again := 0
	for round := range 10 {
		for i := range 2000 {
			if t2.insert(id(1000000+i)) && round > 0 {
				again++
			}
		}
	}
	if again > 200 {
		t.Errorf("%d of 18,000 lookups of a working set of 2,000 forgot the identity", again)
	}
}
