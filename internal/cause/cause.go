// Package cause groups failed pods by their cause: the stage they stopped
// at and their reason with the names, IDs, numbers and quoted values that
// tell pods apart masked, so that 1,214 failed pods read as the three or
// four causes they are. get pods (a summary on a terminal), stats --by
// cause, the report's first table and check's summary use it.
package cause

import (
	"cmp"
	"regexp"
	"slices"
	"strings"

	"github.com/podflow/podflow/timeline"
)

// Group is the failed pods of one cause.
type Group struct {
	Stage    string                   `json:"stage"` // where they stopped, the container masked: containers/*:image
	Cause    string                   `json:"cause"` // the reason, masked
	Pods     int                      `json:"pods"`
	Verdicts map[timeline.Verdict]int `json:"verdicts"`
	Example  string                   `json:"example"` // one pod's namespace/name, to describe
}

// Failing reports whether f is a failure to group: Failed, Stalled or
// Rejected.
func Failing(f *timeline.Flow) bool {
	switch f.Verdict {
	case timeline.VerdictFailed, timeline.VerdictStalled, timeline.VerdictRejected:
		return true
	}
	return false
}

var (
	quotedRE = regexp.MustCompile(`\\?"(?:[^"\\]|\\.)*\\?"`)
	uuidRE   = regexp.MustCompile(`\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b`)
	hexRE    = regexp.MustCompile(`\b[0-9a-fA-F]{12,}\b`)
	ipRE     = regexp.MustCompile(`\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b`)
	numRE    = regexp.MustCompile(`\d+(?:\.\d+)*`)
	spaceRE  = regexp.MustCompile(`\s+`)
)

// Mask is reason with what tells one pod's failure from another's of the
// same cause masked: the pod's own names (its name, namespace, UID, node
// and container names) as *, quoted values as "*", UIDs, long hex IDs and
// IP addresses as *, and numbers as N.
func Mask(f *timeline.Flow, reason string) string {
	s := reason
	names := []string{f.Pod.UID, f.Pod.Key(), f.Pod.Name + "_" + f.Pod.Namespace, f.Pod.Name, f.Node}
	for _, c := range f.Containers {
		// Not its image: the views that print rows do not keep it, and
		// every view must group alike.
		names = append(names, c.Name)
	}
	// Longest first: a pod name holds its container's name often.
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	for _, n := range names {
		if len(n) >= 3 {
			s = replaceWord(s, n)
		}
	}
	s = quotedRE.ReplaceAllString(s, `"*"`)
	s = uuidRE.ReplaceAllString(s, "*")
	s = hexRE.ReplaceAllString(s, "*")
	s = ipRE.ReplaceAllString(s, "*")
	s = numRE.ReplaceAllString(s, "N")
	return strings.TrimSpace(spaceRE.ReplaceAllString(s, " "))
}

// replaceWord replaces n in s by * where it stands as a word of its own
// (not inside a longer name: container "api" in "shop-api-84d7f9c6d").
func replaceWord(s, n string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, n)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(n)
		if (i == 0 || !nameByte(s[i-1])) && (end == len(s) || !nameByte(s[end])) {
			b.WriteString(s[:i])
			b.WriteString("*")
		} else {
			b.WriteString(s[:end])
		}
		s = s[end:]
	}
}

func nameByte(c byte) bool {
	return c == '-' || c == '.' || c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// Key is f's cause: the stage it stopped at with its container masked,
// and its masked reason ("-" when it has none).
func Key(f *timeline.Flow) (stage, cause string) {
	stage = f.StalledAt
	if stage == "" {
		stage = f.Stage
	}
	if f.Container != "" && f.StalledAt != "" {
		cs := f.ContainerStage
		if cs == "" {
			cs = "?"
		}
		stage += "/*:" + cs
	}
	if stage == "" {
		stage = "-"
	}
	cause = Mask(f, f.Reason)
	if cause == "" {
		cause = "-"
	}
	return stage, cause
}

// Groups groups the flows failing says are failures by cause, the
// largest first (then by stage and cause, so the order is the same for
// the same input).
func Groups(items []timeline.Flow, failing func(*timeline.Flow) bool) []Group {
	if failing == nil {
		failing = Failing
	}
	type key struct{ stage, cause string }
	at := map[key]int{}
	var out []Group
	for i := range items {
		f := &items[i]
		if !failing(f) {
			continue
		}
		st, c := Key(f)
		k := key{st, c}
		j, ok := at[k]
		if !ok {
			j = len(out)
			at[k] = j
			out = append(out, Group{Stage: st, Cause: c, Verdicts: map[timeline.Verdict]int{}, Example: f.Pod.Key()})
		}
		out[j].Pods++
		out[j].Verdicts[f.Verdict]++
	}
	slices.SortStableFunc(out, func(a, b Group) int {
		if a.Pods != b.Pods {
			return b.Pods - a.Pods
		}
		return cmp.Or(cmp.Compare(a.Stage, b.Stage), cmp.Compare(a.Cause, b.Cause))
	})
	return out
}

// Total is the pods the groups hold.
func Total(gs []Group) int {
	n := 0
	for _, g := range gs {
		n += g.Pods
	}
	return n
}
