//go:build race

package redact_test

// raceEnabled: the race detector is on, some ten times slower; tests that
// sweep every offset sweep fewer under it (the plain run sweeps them all,
// and the race run is there for races, not for offsets).
const raceEnabled = true
