package multimatch

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// naive is what Found must equal: one strings.Contains per pair.
func naive(patterns, texts []string) []bool {
	out := make([]bool, len(patterns))
	for i, p := range patterns {
		for _, t := range texts {
			if strings.Contains(t, p) {
				out[i] = true
				break
			}
		}
	}
	return out
}

func TestFound(t *testing.T) {
	tests := []struct {
		name     string
		patterns []string
		texts    []string
		want     []bool
	}{
		{"none", nil, []string{"abc"}, []bool{}},
		{"no texts", []string{"abc", ""}, nil, []bool{false, false}},
		{"empty pattern", []string{""}, []string{"x"}, []bool{true}},
		{"at start, middle, end", []string{"failed to pull", "not found", "rpc error"},
			[]string{"rpc error: code = NotFound", "image: failed to pull and unpack: not found"}, []bool{true, true, true}},
		{"absent", []string{"connection refused"}, []string{"dial tcp: i/o timeout"}, []bool{false}},
		{"longer than every text", []string{"a long pattern here"}, []string{"short"}, []bool{false}},
		{"same window, different rest", []string{"timeout waiting for A", "timeout waiting for B"},
			[]string{"x: timeout waiting for B"}, []bool{false, true}},
		{"a pattern across two texts is not found", []string{"abcdef"}, []string{"abc", "def"}, []bool{false}},
		{"windows of the shortest", []string{"ab", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"},
			[]string{"xxab", strings.Repeat("z", 40)}, []bool{true, true}},
		{"unicode", []string{"échec réseau"}, []string{"erreur: échec réseau (…)"}, []bool{true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Found(tt.patterns, tt.texts)
			if len(got) != len(tt.want) {
				t.Fatalf("len = %d, want %d", len(got), len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("pattern %q: found %v, want %v", tt.patterns[i], got[i], tt.want[i])
				}
			}
		})
	}
}

// TestFoundAgainstNaive draws patterns from the texts themselves (so that
// most occur) and from a small alphabet (so that windows collide).
func TestFoundAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab:c "[r.IntN(5)]
		}
		return string(b)
	}
	for round := range 500 {
		texts := make([]string, r.IntN(6))
		for i := range texts {
			texts[i] = word(r.IntN(60))
		}
		patterns := make([]string, r.IntN(8))
		for i := range patterns {
			if len(texts) > 0 && r.IntN(2) == 0 {
				tx := texts[r.IntN(len(texts))]
				a := r.IntN(len(tx) + 1)
				b := a + r.IntN(len(tx)-a+1)
				patterns[i] = tx[a:b]
			} else {
				patterns[i] = word(1 + r.IntN(12))
			}
		}
		got, want := Found(patterns, texts), naive(patterns, texts)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("round %d: pattern %q in %q: found %v, want %v", round, patterns[i], texts, got[i], want[i])
			}
		}
	}
}

func FuzzFound(f *testing.F) {
	f.Add("timeout waiting", "x: timeout waiting for B", "rpc error")
	f.Add("", "abc", "c")
	f.Fuzz(func(t *testing.T, p1, t1, p2 string) {
		patterns, texts := []string{p1, p2}, []string{t1, p1 + t1}
		got, want := Found(patterns, texts), naive(patterns, texts)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("pattern %q in %q: found %v, want %v", patterns[i], texts, got[i], want[i])
			}
		}
	})
}

func BenchmarkFound(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	texts := make([]string, 1500)
	for i := range texts {
		texts[i] = "failed to \"StartContainer\" for \"app\" with CrashLoopBackOff: back-off " + strings.Repeat(string(rune('a'+r.IntN(26))), 20+r.IntN(80))
	}
	patterns := make([]string, 140)
	for i := range patterns {
		patterns[i] = "rpc error: code = Unknown desc = " + strings.Repeat(string(rune('a'+r.IntN(26))), 12)
	}
	b.Run("Found", func(b *testing.B) {
		for b.Loop() {
			Found(patterns, texts)
		}
	})
	b.Run("naive", func(b *testing.B) {
		for b.Loop() {
			naive(patterns, texts)
		}
	})
}
