package cmd

// The printing (tables, colour, times, text fitting, JSON and YAML, the
// jsonpath and custom-columns templates) lives in internal/printers, as
// kubectl's lives in cli-runtime's printers. These names keep the
// commands' call sites as they were while other work on cmd/ is merged; a
// later mechanical rename (gofmt -r 'paint -> printers.Paint', …) can
// inline them.

import (
	"errors"
	"io"
	"iter"
	"reflect"
	"time"

	"github.com/podflow/podflow/internal/printers"
	"github.com/podflow/podflow/timeline"
)

const (
	ansiReset  = printers.Reset
	ansiRed    = printers.Red
	ansiGreen  = printers.Green
	ansiYellow = printers.Yellow
	ansiGrey   = printers.Grey
	ansiBold   = printers.Bold

	templateOutputsHelp = printers.TemplateOutputsHelp
)

type Table = printers.Table

// fitStep is printers.FitStep: column col shrinks to at most width to,
// or is left out (drop), or, with col -1, the gap becomes to.
type fitStep struct {
	col  int
	to   int
	drop bool
}

var templateOutputs = printers.TemplateOutputs

func verdictColor(v timeline.Verdict) string        { return printers.VerdictColor(v) }
func flowColor(f *timeline.Flow) string             { return printers.FlowColor(f) }
func statusColor(s timeline.Status) string          { return printers.StatusColor(s) }
func paint(on bool, color, s string) string         { return printers.Paint(on, color, s) }
func humanDuration(d time.Duration) string          { return printers.HumanDuration(d) }
func relDuration(d time.Duration) string            { return printers.RelDuration(d) }
func clock(t time.Time) string                      { return printers.Clock(t) }
func stamp(t time.Time) string                      { return printers.Stamp(t) }
func textWidth(s string) int                        { return printers.TextWidth(s) }
func truncate(s string, n int) string               { return printers.Truncate(s, n) }
func wrap(s string, width int) []string             { return printers.Wrap(s, width) }
func didYouMean(name string, names []string) string { return printers.DidYouMean(name, names) }
func cutHost(s string, n int) string                { return printers.CutHost(s, n) }
func cutStage(s string, n int) string               { return printers.CutStage(s, n) }
func cutWords(s string, n int) string               { return printers.CutWords(s, n) }
func truncateWords(s string, n int) string          { return printers.TruncateWords(s, n) }
func printJSON(w io.Writer, v any) error            { return printers.PrintJSON(w, v) }
func printYAML(w io.Writer, v any) error            { return printers.PrintYAML(w, v) }
func writeJSON(w io.Writer, v any) error            { return printers.WriteJSON(w, v) }
func writeYAML(w io.Writer, v any) error            { return printers.WriteYAML(w, v) }
func each[T any](s []T) iter.Seq[any]               { return printers.Each(s) }

func fitWidths(nat []int, gap, flex int, steps []fitStep, limit int) ([]int, int) {
	ps := make([]printers.FitStep, len(steps))
	for i, s := range steps {
		ps[i] = printers.FitStep{Col: s.col, To: s.to, Drop: s.drop}
	}
	return printers.FitWidths(nat, gap, flex, ps, limit)
}

// templateOutput is a parsed -o jsonpath or -o custom-columns
// (printers.Template), its errors cmd's usage errors.
type templateOutput struct{ t *printers.Template }

// outputFormat reads an -o value: one of fixed, a template output or ""
// (the table); nil for no template.
func outputFormat(output string, fixed []string) (*templateOutput, error) {
	t, err := printers.OutputFormat(output, fixed, readSideFile)
	if err != nil || t == nil {
		return nil, usageErr(err)
	}
	return &templateOutput{t}, nil
}

// parseTemplateOutput is printers.ParseTemplateOutput reading files as
// every side file is read.
func parseTemplateOutput(output string) (*templateOutput, bool, error) {
	t, ok, err := printers.ParseTemplateOutput(output, readSideFile)
	if err != nil || t == nil {
		return nil, ok, usageErr(err)
	}
	return &templateOutput{t}, ok, nil
}

func (t *templateOutput) checkKeys(doc reflect.Type) error { return usageErr(t.tmpl().CheckKeys(doc)) }
func (t *templateOutput) rowsOnly() bool                   { return t.tmpl().RowsOnly() }
func (t *templateOutput) print(w io.Writer, head any, items iter.Seq[any], noHeaders bool) error {
	return usageErr(t.tmpl().Print(w, head, items, noHeaders))
}

// tmpl is the template; nil (no template) is as nil a *printers.Template,
// whose methods hold for none.
func (t *templateOutput) tmpl() *printers.Template {
	if t == nil {
		return nil
	}
	return t.t
}

// usageErr makes a printers.UsageError cmd's usage error (exit 2, with
// a hint to --help); other errors pass as they are.
func usageErr(err error) error {
	var ue *printers.UsageError
	if errors.As(err, &ue) {
		return usageErrorf("%v", ue.Unwrap())
	}
	return err
}
