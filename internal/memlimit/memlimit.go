// Package memlimit bounds all the memory podflow's Go runtime holds, not
// only the heap goal. Go's collector aims at twice the live heap but the
// process holds more: the heap overshoots the goal while a collection runs,
// and freed pages go back to the system only slowly. A soft memory limit
// counts all of it and makes the runtime return pages as the limit nears.
//
// The limit is twice the live heap, Go's own goal, so collections come no
// more often than by default and time stays linear in the log; but at least
// Floor, so that a small run is not made to collect more than it would
// anyway. In between, from half the floor to the floor, the limit is what
// keeps a log of some ten thousand pods under 100 MiB.
//
// Start also sets the collector's goal to GCPercent (GOGC=75) unless GOGC
// is set: the peak comes at the end of a big log's read, the live heap
// plus the garbage the goal lets pile up, and a goal of 1.75 times the
// live heap, not twice, took 5 MiB off the peak RSS of the 1 GiB bench
// log (86 to 81 MiB, 7 paired runs) for 0.7% more CPU and no change in
// wall time; collections still grow by a ratio, so time stays linear.
package memlimit

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

const (
	// Floor is the smallest limit.
	Floor    = 92 << 20
	interval = 50 * time.Millisecond
	// GCPercent is the collector's goal Start sets (GOGC).
	GCPercent = 75
)

// Limit is the soft memory limit for a live heap of live bytes.
func Limit(live uint64) uint64 {
	if live > math.MaxUint64/2 {
		return math.MaxUint64
	}
	return max(Floor, 2*live)
}

// Start follows the live heap and keeps the soft memory limit at
// Limit(live) until stop is called, which restores the limit it
// found, and the collector's goal. With GOMEMLIMIT set it leaves the
// limit alone, and with GOGC set the goal: the user chose.
func Start() (stop func()) {
	prevGC := -1
	if os.Getenv("GOGC") == "" {
		prevGC = debug.SetGCPercent(GCPercent)
	}
	restoreGC := func() {
		if prevGC >= 0 {
			debug.SetGCPercent(prevGC)
		}
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		return restoreGC
	}
	prev := debug.SetMemoryLimit(-1)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 {
				live := sample[0].Value.Uint64()
				debug.SetMemoryLimit(int64(min(Limit(live), math.MaxInt64)))
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		debug.SetMemoryLimit(prev)
		restoreGC()
	}
}
