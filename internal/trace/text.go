package trace

import (
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// stageLabel is f's STAGE column (Flow.StageLabel), cleaned for output.
func stageLabel(f *timeline.Flow) string { return sanitize.OneLine(f.StageLabel()) }
