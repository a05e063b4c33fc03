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

// stageLabel names where a flow stopped, as get pods' STAGE column does:
// the stalled stage, as containers/NAME:STAGE when inside a container,
// else the last stage.
func stageLabel(f *timeline.Flow) string {
	st := f.StalledAt
	if st == "" {
		st = f.Stage
	}
	if f.StalledAt != "" && f.Container != "" {
		cs := f.ContainerStage
		if cs == "" {
			cs = "?"
		}
		return st + "/" + sanitize.OneLine(f.Container) + ":" + cs
	}
	if st == "" {
		return "-"
	}
	return st
}
