package memlimit

import (
	"runtime/debug"
	"testing"
	"time"
)

func TestLimit(t *testing.T) {
	for _, tc := range []struct {
		live, want uint64
	}{
		{0, Floor},
		{40 << 20, Floor},                // small heaps keep Go's own pacing
		{Floor - minHeadroom, Floor},     // the floor is where headroom starts to bind
		{80 << 20, 80<<20 + minHeadroom}, // minimum headroom
		{400 << 20, 400<<20 + 100<<20},   // a quarter of a big live heap
		{1 << 40, 1<<40 + 1<<38},         // no overflow on absurd sizes
	} {
		if got := Limit(tc.live); got != tc.want {
			t.Errorf("Limit(%d MiB) = %d MiB, want %d MiB", tc.live>>20, got>>20, tc.want>>20)
		}
	}
}

func TestStartSetsAndRestoresTheLimit(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "")
	before := debug.SetMemoryLimit(-1)
	stop := Start()
	deadline := time.Now().Add(5 * time.Second)
	for debug.SetMemoryLimit(-1) == before && time.Now().Before(deadline) {
		time.Sleep(interval / 5)
	}
	got := debug.SetMemoryLimit(-1)
	stop()
	if got < Floor || got == before {
		t.Errorf("limit while running = %d, want at least Floor (%d)", got, Floor)
	}
	if after := debug.SetMemoryLimit(-1); after != before {
		t.Errorf("limit after stop = %d, want the one found (%d)", after, before)
	}
}

func TestGOMEMLIMITWins(t *testing.T) {
	t.Setenv("GOMEMLIMIT", "1GiB")
	before := debug.SetMemoryLimit(-1)
	stop := Start()
	time.Sleep(3 * interval)
	got := debug.SetMemoryLimit(-1)
	stop()
	if got != before {
		t.Errorf("with GOMEMLIMIT set the limit changed: %d -> %d", before, got)
	}
}
