package redact_test

import (
	"strings"
	"testing"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/redact/redacttest"
)

// TestPlants masks every planted kind whole, and cut at every byte as the
// engine cuts texts (the first n bytes and "…"): no 6-byte run of a
// secret survives.
func TestPlants(t *testing.T) {
	if n := len(redacttest.Plants); n < 40 {
		t.Fatalf("%d kinds planted, want at least 40", n)
	}
	for _, p := range redacttest.Plants {
		r := redact.New()
		r.SetKey([]byte("test"))
		for n := len(p.Text); n > 0; n-- {
			in := p.Text[:n]
			if n < len(p.Text) {
				in += "…"
			}
			for _, line := range []string{in, `err="failed: ` + in + `"`} {
				got := r.Text(line)
				for _, s := range p.Secrets {
					for i := 0; i+6 <= len(s); i++ {
						if w := s[i : i+6]; strings.Contains(got, w) && strings.Contains(line, w) {
							t.Errorf("%s: %q leaks %q:\n%s", p.Kind, line, w, got)
						}
					}
				}
				if again := r.Text(got); again != got {
					t.Errorf("%s: not idempotent: %q -> %q", p.Kind, got, again)
				}
			}
		}
	}
}
