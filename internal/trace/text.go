package trace

import (
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
)

// oneLine sanitizes untrusted text and folds it onto one line (as the
// tables of cmd do: the same names in the trace as in get pods).
func oneLine(s string) string {
	if folded(s) {
		return s
	}
	return strings.Join(strings.Fields(sanitize.Sanitize(strings.ReplaceAll(s, "\n", " "))), " ")
}

// folded reports whether oneLine would give s back as it is: printable
// ASCII words with one space between them.
func folded(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if i == 0 || i == len(s)-1 || s[i-1] == ' ' {
				return false
			}
		case c < '!' || c > '~':
			return false
		}
	}
	return true
}

// flowEnd is when a flow ended as its duration counts it (a flow still
// under way when the log ends runs to the log's end), as every view draws
// it.
func flowEnd(f *timeline.Flow) time.Time {
	return f.Start.Add(time.Duration(f.Duration))
}

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
		return st + "/" + oneLine(f.Container) + ":" + cs
	}
	if st == "" {
		return "-"
	}
	return st
}
