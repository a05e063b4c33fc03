package redact_test

import (
	"strings"
	"testing"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/redact/redacttest"
)

// TestRecordWrappedEverywhere hard-wraps a record holding each planted
// secret at every width, as a terminal does, so that a line end falls at
// every byte of the secret, and masks the lines as lines pod, the
// report's evidence and the TUI's lines view do (Bytes): no 6-byte run
// of the secret survives, and the record keeps its lines. Before issue
// #28 each line was masked alone and the second half of a wrapped secret
// survived.
func TestRecordWrappedEverywhere(t *testing.T) {
	const head = `E1122 06:05:37.451036   25019 pod_workers.go:1301] "Error syncing pod, skipping" err="failed: `
	for _, p := range redacttest.Plants {
		r := redact.New()
		rec := head + p.Text + ` end"`
		for at := len(head) + 1; at < len(head)+len(p.Text); at++ {
			wrapped := rec[:at] + "\n" + rec[at:]
			got := string(r.Bytes([]byte(wrapped)))
			if strings.Count(got, "\n") != 1 {
				t.Errorf("%s wrapped at %d: %d lines, want 2:\n%s", p.Kind, at, strings.Count(got, "\n")+1, got)
			}
			for _, s := range p.Secrets {
				for i := 0; i+6 <= len(s); i++ {
					if w := s[i : i+6]; strings.Contains(got, w) {
						t.Fatalf("%s wrapped at %d: %q survives in\n%s", p.Kind, at, w, got)
					}
				}
			}
		}
	}
}
