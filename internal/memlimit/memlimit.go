// Package memlimit keeps podflow's heap close to what it holds live. Go's
// default collector lets the heap grow to twice the live heap between
// collections; on a big log most of the live heap is the flows being built,
// which stay until the end, so that doubling is pure waste. A soft memory
// limit a little above the live heap, raised as the live heap grows, makes
// the collector run sooner only when memory is actually at stake.
package memlimit

import (
	"math"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"time"
)

const (
	// Floor is the limit while the live heap is small: under it Go's
	// default pacing (heap up to twice the live heap) is left alone, since
	// collecting sooner would cost CPU to save memory nobody misses.
	Floor = 92 << 20
	// minHeadroom is the smallest room for garbage above the live heap:
	// below it collections would come too often for the memory they save.
	minHeadroom = 24 << 20
	interval    = 50 * time.Millisecond
)

// Headroom is the garbage allowed above a live heap of live bytes: a
// quarter of it, at least minHeadroom (Go's default allows all of it).
func Headroom(live uint64) uint64 { return max(minHeadroom, live/4) }

// Limit is the soft memory limit for a live heap of live bytes.
func Limit(live uint64) uint64 { return max(Floor, live+Headroom(live)) }

// Start follows the live heap and keeps the soft memory limit at
// Limit(live) until stop is called, which restores the limit it
// found. With GOMEMLIMIT set it does nothing: the user chose.
func Start() (stop func()) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
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
	}
}
