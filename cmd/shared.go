package cmd

// Helpers the commands share: --color and completions, the pod-name
// filters, inputs told from names, and the analysis with its progress
// line (the printing itself is internal/printers). Other commands may call
// these; keep the names stable.

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// colorMode values for --color.
var colorModes = []string{"auto", "always", "never"}

// addColorFlag registers --color.
func addColorFlag(c *cobra.Command, mode *string) {
	c.Flags().StringVar(mode, "color", "auto", "colour output: auto (on a terminal, unless NO_COLOR is set), always or never")
	_ = c.RegisterFlagCompletionFunc("color", fixedCompletion(colorModes...))
}

// fixedCompletion completes a flag from a fixed list.
func fixedCompletion(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return vals, cobra.ShellCompDirectiveNoFileComp
	}
}

// outputCompletion completes -o: a template format (jsonpath=, …) is
// completed without the space after it, since its template follows.
func outputCompletion(vals ...string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		var out []string
		noSpace := true
		for _, v := range vals {
			if strings.HasPrefix(v, toComplete) {
				out = append(out, v)
				noSpace = noSpace && strings.HasSuffix(v, "=")
			}
		}
		if noSpace && len(out) > 0 {
			return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
		}
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// PodFilter selects flows by pod name. Each pattern is an exact name, a
// namespace/name, a UID, or else a regular expression matched against the
// name (and against namespace/name when the pattern holds a "/").
type PodFilter struct {
	exact []string
	res   []*regexp.Regexp
}

// NewPodFilter compiles name patterns; an empty list matches every pod.
func NewPodFilter(patterns []string) (*PodFilter, error) {
	f := &PodFilter{}
	for _, p := range patterns {
		p = strings.TrimPrefix(strings.TrimPrefix(p, "pods/"), "pod/")
		if p == "" {
			continue
		}
		f.exact = append(f.exact, p)
		re, err := regexp.Compile(p)
		if err != nil {
			return nil, usageErrorf("pod name %q: not a name or a valid regular expression: %v", p, err)
		}
		f.res = append(f.res, re)
	}
	return f, nil
}

// Empty reports whether the filter lets everything through.
func (f *PodFilter) Empty() bool { return f == nil || len(f.exact) == 0 }

// Match reports whether the flow's pod matches one of the patterns.
func (f *PodFilter) Match(fl *timeline.Flow) bool {
	if f.Empty() {
		return true
	}
	for i, p := range f.exact {
		if p == fl.Pod.Name || p == fl.Pod.Key() || (fl.Pod.UID != "" && p == fl.Pod.UID) {
			return true
		}
		subject := fl.Pod.Name
		if strings.Contains(p, "/") {
			subject = fl.Pod.Key()
		}
		if f.res[i].MatchString(subject) {
			return true
		}
	}
	return false
}

// splitInputsAndNames separates positional arguments into inputs (existing
// files or directories, "-", or anything that looks like a path: starting
// with / ./ ../ or ~, ending in /, or named like a log file, so that a
// mistyped path is reported rather than taken for a pod name) and
// pod-name patterns (anything else).
func splitInputsAndNames(args []string) (inputs, names []string) {
	for _, a := range args {
		if a == "-" || looksLikePath(a) {
			inputs = append(inputs, a)
			continue
		}
		if _, err := os.Lstat(a); err == nil {
			// (Lstat: a link that leads nowhere or in a loop is an input
			// to report, not a pod name.)
			inputs = append(inputs, a)
			continue
		}
		names = append(names, a)
	}
	return inputs, names
}

var logSuffix = regexp.MustCompile(`\.(log|gz|zst|txt|json)(\.[0-9]+)?$|\.log\.[0-9]+`)

func looksLikePath(a string) bool {
	return strings.HasPrefix(a, "/") || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") ||
		strings.HasPrefix(a, "~") || strings.HasSuffix(a, "/") || logSuffix.MatchString(a)
}

// progressThreshold is the input size above which a progress line is shown
// on a terminal.
const progressThreshold = 16 << 20

// progressAfter is how long standard input (or a compressed input, whose
// size read is unknown) is read before its progress line shows: a small
// one is done before.
var progressAfter = 500 * time.Millisecond

// analyze runs Analyze with a progress line on stderr when stderr is a
// terminal and the inputs are large (percent, bytes and time left; for
// standard input and compressed inputs the bytes read), prints input
// warnings, and returns the analysis.
func analyze(ioS *IO, paths []string, o LoadOptions) (*Analysis, error) {
	var pr *progress
	if ioS.ErrTTY {
		total, known := inputSize(paths), len(paths) > 0
		for _, p := range paths {
			known = known && p != "-" && !compressed(p)
		}
		start := time.Now()
		switch {
		case known && total >= progressThreshold:
			pr = &progress{w: ioS.RawErrOut(), total: total, now: time.Now, start: start}
		case !known:
			pr = &progress{w: ioS.RawErrOut(), now: time.Now, start: start, notBefore: start.Add(progressAfter)}
		}
		if pr != nil {
			o.progress = pr.poll
		}
	}
	a, err := Analyze(ioS, paths, o)
	if pr != nil {
		pr.done()
	}
	if err != nil {
		return nil, err
	}
	a.warn(ioS)
	return a, nil
}

// inputSize sums the sizes of files and directories named (stdin counts 0).
func inputSize(paths []string) int64 {
	var n int64
	for _, p := range paths {
		if p == "-" {
			continue
		}
		_ = filepath.WalkDir(p, func(_ string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if !d.IsDir() {
				if fi, err := d.Info(); err == nil {
					n += fi.Size()
				}
			}
			return nil
		})
	}
	return n
}

// humanBytes prints a size: 512 B, 3.4 KiB, 120 MiB.
func humanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	if v >= 100 {
		return fmt.Sprintf("%.0f %ciB", v, "KMGTPE"[exp])
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTPE"[exp])
}

// underWay reports whether the flow was still under way when the log
// ended (timeline's definition).
func underWay(f *timeline.Flow) bool { return f.UnderWay() }

// inputsPhrase names the inputs of an analysis for a message: each, or
// for many the count and the first.
func inputsPhrase(inputs []string) string {
	if len(inputs) <= 3 {
		return strings.Join(inputs, ", ")
	}
	return fmt.Sprintf("%d inputs (%s, …)", len(inputs), inputs[0])
}

// timeArg parses --since/--until: RFC3339, or a duration back from end.
func timeArg(flag, v string, end time.Time) (time.Time, error) {
	if v == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(v); err == nil && d >= 0 {
		return end.Add(-d), nil
	}
	return time.Time{}, usageErrorf("--%s %q: want an RFC3339 time (2026-11-22T06:08:00Z) or a duration back from the end of the log (10m)", flag, v)
}

// stageLabel is f's STAGE column (Flow.StageLabel), cleaned for output.
func stageLabel(f *timeline.Flow) string { return sanitize.OneLine(f.StageLabel()) }
