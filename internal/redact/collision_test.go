package redact

import (
	"fmt"
	"testing"
)

// TestMasksNeverShared masks 2^18 addresses with one key in two runs that
// meet them in opposite orders, as two commands may: every value gets one
// mask, the same in both runs, and no two values share one. With 32-bit
// masks this many values share some (eight pairs expected), and the run
// that met the second of a pair first gave the masks the other way round:
// one mask meant two addresses in two commands (issue #28).
func TestMasksNeverShared(t *testing.T) {
	n := 1 << 18
	if testing.Short() {
		n = 1 << 16
	}
	key := []byte("collision-test-key-0123456789abcdef")
	fwd, rev := New(), New()
	fwd.SetKey(key)
	rev.SetKey(key)
	values := make([]string, n)
	for i := range values {
		values[i] = fmt.Sprintf("10.%d.%d.%d", i>>16, i>>8&0xff, i&0xff)
	}
	got := make([]string, n)
	for i, v := range values {
		got[i] = fwd.mask(KindIP, v)
	}
	owner := make(map[string]string, n)
	for i := n - 1; i >= 0; i-- {
		m := rev.mask(KindIP, values[i])
		if m != got[i] {
			t.Fatalf("%s: %s in one run, %s in the other", values[i], got[i], m)
		}
		if o, ok := owner[m]; ok {
			t.Fatalf("%s and %s share the mask %s", o, values[i], m)
		}
		owner[m] = values[i]
	}
}
