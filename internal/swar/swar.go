// Package swar holds the word-at-a-time helpers (SIMD within a register)
// that podflow's byte scanners share: eight bytes of a string read as one
// word, and masks that flag the bytes of a word equal to a byte or at or
// above DEL. A mask is exact for the lowest byte it flags; a borrow runs
// upward only, so a byte above it may be flagged by mistake: First of a
// mask is right, the rest of it is a hint.
package swar

import "math/bits"

const (
	Ones  = 0x0101010101010101 // a one in each byte
	Highs = 0x8080808080808080 // each byte's high bit
)

// Word is the eight bytes of s from i, the first the lowest (one load:
// the compiler joins the bytes of a slice it knows is eight long, where
// binary.LittleEndian on []byte(s[i:i+8]) costs eight instructions more).
func Word(s string, i int) uint64 {
	t := s[i : i+8]
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// Eq flags the bytes of w equal to c.
func Eq(w uint64, c byte) uint64 {
	x := w ^ uint64(c)*Ones
	return (x - Ones) &^ x & Highs
}

// High flags the bytes of w at or above DEL (0x7f): w+Ones carries out of
// a byte only from 0xff, itself flagged.
func High(w uint64) uint64 { return (w | (w + Ones)) & Highs }

// First is the index of the lowest byte m flags.
func First(m uint64) int { return bits.TrailingZeros64(m) >> 3 }
