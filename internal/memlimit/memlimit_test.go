package memlimit

import (
	"math"
	"runtime/debug"
	"testing"
	"time"
)

func TestLimit(t *testing.T) {
	for _, tc := range []struct {
		live, want uint64
	}{
		{0, Floor},
		{30 << 20, Floor},     // small heaps: the floor, above Go's goal
		{Floor / 2, Floor},    // where Go's goal reaches the floor
		{80 << 20, 160 << 20}, // above it: Go's own goal, twice the live heap
		{1 << 40, 1 << 41},    // no overflow on absurd sizes
		{math.MaxUint64 / 3 * 2, math.MaxUint64},
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

func TestStartSetsAndRestoresTheGCGoal(t *testing.T) {
	t.Setenv("GOGC", "")
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	stop := Start()
	got := debug.SetGCPercent(-1)
	debug.SetGCPercent(got)
	stop()
	if got != GCPercent {
		t.Errorf("GC percent while running = %d, want %d", got, GCPercent)
	}
	if after := debug.SetGCPercent(100); after != 100 {
		t.Errorf("GC percent after stop = %d, want the one found (100)", after)
	}

	t.Setenv("GOGC", "200")
	debug.SetGCPercent(200)
	stop = Start()
	got = debug.SetGCPercent(-1)
	debug.SetGCPercent(got)
	stop()
	if got != 200 {
		t.Errorf("with GOGC=200, GC percent while running = %d, want 200", got)
	}
}
