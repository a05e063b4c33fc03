package redact_test

import (
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/internal/redact/redacttest"
	"github.com/podflow/podflow/timeline"
)

// TestDiagnosisCutEverywhere plants every kind of secret in a long reason
// at every offset, so that the diagnosis's cut (its beginning and end
// kept, the middle dropped: timeline.DiagnosisText) falls before, in and
// after the secret's key and value, and holds the masked flow to this: no
// 6-byte run of the secret in the diagnosis, the reason or the trouble's
// error. Before issue #28, a key in the dropped middle (Bearer, password:,
// --password, "value":) left its value in the kept end unmasked.
func TestDiagnosisCutEverywhere(t *testing.T) {
	const filler = "failed to pull and unpack the image because the registry answered with an error again and again "
	step := 1
	if testing.Short() || raceEnabled {
		step = 5
	}
	for _, p := range redacttest.Plants {
		r := redact.New()
		for o := 0; o <= 480; o += step {
			before := strings.Repeat(filler, 6)[:o]
			reason := before + " " + p.Text + " " + strings.Repeat(filler, 6)[:480-o]
			fl := &timeline.FlowList{Items: []timeline.Flow{{
				Verdict: timeline.VerdictStalled, StalledAt: "containers", Waited: timeline.Duration(time.Minute),
				Reason:  reason,
				Trouble: []timeline.Trouble{{Stage: "sandbox", Error: reason, Attempts: 2, Recovered: true}},
			}}}
			f := &fl.Items[0]
			f.Diagnosis = "Stalled at containers for 1m0s: " + strings.TrimSuffix(timeline.DiagnosisText(reason), ".") +
				". sandbox needed 2 failed attempts first: " + timeline.DiagnosisText(reason) + "."
			redact.FlowList(r, fl)
			for _, s := range p.Secrets {
				for i := 0; i+6 <= len(s); i++ {
					w := s[i : i+6]
					if strings.Contains(filler, w) {
						continue
					}
					for _, got := range []string{f.Diagnosis, f.Reason, f.Trouble[0].Error} {
						if strings.Contains(got, w) {
							t.Fatalf("%s at offset %d: %q survives in\n%s", p.Kind, o, w, got)
						}
					}
				}
			}
		}
	}
}
