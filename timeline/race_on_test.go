//go:build race

package timeline

// raceEnabled: the race detector is on. It changes what some tests
// measure (sync.Pool drops items at random, the heap holds more), so their
// bounds are set for it, not skipped.
const raceEnabled = true
