package cmd

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/check"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
	"go.yaml.in/yaml/v3"
)

// CheckOptions holds what `podflow check` needs. RunE resolves the config
// file and the flags into the rule fields; checkRun only judges and prints.
type CheckOptions struct {
	IO *IO

	Paths      []string
	Load       LoadOptions // --year, --tz, --budget (the budgets are both engine budgets and a rule)
	ConfigPath string

	FailOn        []string
	MaxStartup    time.Duration
	SLO           []string     // pNN=duration
	Pods          []string     // --pod regexes (any matches)
	Namespaces    []string     // -n
	Ignore        []string     // regexes on ns/name
	Select        podSelection // --node, --verdict, --since, --until
	Outputs       []string     // FORMAT or FORMAT=PATH
	Baseline      string
	Regression    string // "20%"
	RegressionMin time.Duration

	// Resolved by RunE.
	rules check.Rules
	outs  []checkOutput
}

type checkOutput struct {
	Format string
	Path   string // "" or "-": standard output
}

var checkFormats = []string{"github", "json", "junit", "markdown", "text"}

var defaultFailOn = []string{"Stalled", "Failed", "Rejected"}

// CheckConfig is the YAML shape of --config (podflow-check.yaml). Flags
// given on the command line override it; budgets merge per stage.
type CheckConfig struct {
	FailOn        []string          `yaml:"failOn"`
	MaxStartup    string            `yaml:"maxStartup"`
	Budgets       map[string]string `yaml:"budgets"`
	SLO           map[string]string `yaml:"slo"`
	Pods          []string          `yaml:"pods"`
	Namespaces    []string          `yaml:"namespaces"`
	Ignore        []string          `yaml:"ignore"`
	Outputs       []string          `yaml:"outputs"`
	Baseline      string            `yaml:"baseline"`
	Regression    string            `yaml:"regression"`
	RegressionMin string            `yaml:"regressionMin"`
}

const checkLong = `Judge the pods in captured kubelet logs against rules, for CI.

Rules:
  --fail-on VERDICTS    pods with one of these verdicts break the rule
                        (Stalled, Failed, Rejected, Terminating, Incomplete;
                        default Stalled,Failed,Rejected)
  --max-startup DUR     per pod, end to end: the kubelet-observed startup
                        (podCreationTimestamp to watchObservedRunningTime) when
                        the log has it, else the flow's start to the end of its
                        running stage; a pod not yet running breaks it once it
                        has waited longer
  --budget STAGE=DUR    per stage (pod stages and container stages such as
                        image); repeatable; also the engine's stall budget
  --slo pNN=DUR         across pods, the Kubernetes pod-startup SLO figure:
                        end to end minus the union of the pod's image pulls and
                        minus its init containers' run time (as kubelet 1.33+
                        counts podStartSLOduration); p50, p90, p99 or any pNN
                        (nearest rank); pods that never ran are left out
  --baseline FILE       compare per-stage p50/p90 with the -o json output of an
                        earlier check, get pods or stats; fail on a rise beyond
                        --regression (20%) that is also longer than
                        --regression-min (100ms)

Select pods with --pod REGEX and -n NAMESPACE; drop known noise with
--ignore REGEX (matched on namespace/name). A --config YAML file can hold
the same rules (failOn, maxStartup, budgets, slo, pods, namespaces, ignore,
outputs, baseline, regression, regressionMin); flags override it.

Outputs (-o, repeatable, FORMAT or FORMAT=PATH; at most one to stdout):
text (default), json (the FlowList plus rules), junit, github (workflow
annotations, at most 10, plus a table appended to $GITHUB_STEP_SUMMARY),
markdown.

Exit codes:
  0  every rule passed
  1  a rule was broken
  2  usage or input error (bad flags, config, or unreadable logs)
  3  nothing to judge: no pods (after --pod/-n/--ignore), or the log's
     kubelet verbosity hides a stage a rule needs (the message says which
     -v is needed); a broken rule still exits 1
  5  the rules passed on the inputs that could be read, but some could
     not (each is named in a warning on standard error)`

// NewCmdCheck builds `podflow check`. runF, when set, replaces checkRun.
func NewCmdCheck(ioS *IO, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{IO: ioS, FailOn: defaultFailOn, Regression: "20%", RegressionMin: 100 * time.Millisecond}
	cmd := &cobra.Command{
		Use:   "check FILE|DIR... [flags]",
		Short: "Judge pods in kubelet logs against CI rules",
		Long:  checkLong,
		Example: `  podflow check ./logs --max-startup 30s --budget image=60s
  podflow check ./logs -o github -o junit=podflow.xml
  podflow check ./logs --slo p99=5s --ignore '^kube-system/'
  podflow check ./logs -o json=run.json && podflow check ./logs --baseline run.json
  podflow check --node kind-worker --since 15m --max-startup 30s   # a live node`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			if err := opts.resolve(c); err != nil {
				return err
			}
			if err := opts.Select.check(ioS, &opts.Load.live); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
	f := cmd.Flags()
	addPodSelectionFlags(cmd, &opts.Select, false)
	addLoadFlags(cmd, &opts.Load)
	f.StringVar(&opts.ConfigPath, "config", "", "YAML file with rules (flags override it)")
	f.StringSliceVar(&opts.FailOn, "fail-on", opts.FailOn, "verdicts that break the check: Stalled,Failed,Rejected,Terminating,Incomplete")
	f.DurationVar(&opts.MaxStartup, "max-startup", 0, "maximum end-to-end startup per pod (0: no rule)")
	f.StringArrayVar(&opts.SLO, "slo", nil, "startup SLO across pods, e.g. p99=5s (repeatable)")
	f.StringArrayVarP(&opts.Pods, "pod", "p", nil, "judge only pods whose name matches (name, namespace/name, UID or REGEX; repeatable)")
	f.StringArrayVarP(&opts.Namespaces, "namespace", "n", nil, "judge only pods in NAMESPACE (repeatable)")
	f.StringArrayVar(&opts.Ignore, "ignore", nil, "skip pods whose namespace/name matches REGEX (repeatable)")
	f.StringArrayVarP(&opts.Outputs, "output", "o", nil, "FORMAT or FORMAT=PATH: text, json, junit, github, markdown (repeatable)")
	f.StringVar(&opts.Baseline, "baseline", "", "-o json output of an earlier check, get pods or stats run to compare stage latencies with")
	f.StringVar(&opts.Regression, "regression", opts.Regression, "allowed rise of a stage's p50/p90 over the baseline")
	f.DurationVar(&opts.RegressionMin, "regression-min", opts.RegressionMin, "ignore rises shorter than this")
	return cmd
}

// resolve merges the config file and the flags and validates them.
func (o *CheckOptions) resolve(c *cobra.Command) error {
	changed := func(name string) bool { return c != nil && c.Flags().Changed(name) }
	if o.ConfigPath != "" {
		cfg, err := readCheckConfig(o.ConfigPath)
		if err != nil {
			return err
		}
		if len(cfg.FailOn) > 0 && !changed("fail-on") {
			o.FailOn = cfg.FailOn
		}
		if cfg.MaxStartup != "" && !changed("max-startup") {
			d, err := time.ParseDuration(cfg.MaxStartup)
			if err != nil {
				return usageErrorf("%s: maxStartup %q: %v", o.ConfigPath, cfg.MaxStartup, err)
			}
			o.MaxStartup = d
		}
		// Budgets merge: the config's first, so a flag for the same stage wins.
		var bs []string
		for _, k := range checkSortedKeys(cfg.Budgets) {
			bs = append(bs, k+"="+cfg.Budgets[k])
		}
		o.Load.Budgets = append(bs, o.Load.Budgets...)
		if !changed("slo") {
			for _, k := range checkSortedKeys(cfg.SLO) {
				o.SLO = append(o.SLO, k+"="+cfg.SLO[k])
			}
		}
		if !changed("pod") {
			o.Pods = append(o.Pods, cfg.Pods...)
		}
		if !changed("namespace") {
			o.Namespaces = append(o.Namespaces, cfg.Namespaces...)
		}
		o.Ignore = append(cfg.Ignore, o.Ignore...) // ignores add up
		if !changed("output") {
			o.Outputs = append(o.Outputs, cfg.Outputs...)
		}
		if cfg.Baseline != "" && !changed("baseline") {
			o.Baseline = cfg.Baseline
		}
		if cfg.Regression != "" && !changed("regression") {
			o.Regression = cfg.Regression
		}
		if cfg.RegressionMin != "" && !changed("regression-min") {
			d, err := time.ParseDuration(cfg.RegressionMin)
			if err != nil {
				return usageErrorf("%s: regressionMin %q: %v", o.ConfigPath, cfg.RegressionMin, err)
			}
			o.RegressionMin = d
		}
	}
	r := check.Rules{FailOn: map[timeline.Verdict]bool{}, Namespaces: map[string]bool{}, RegressionMin: o.RegressionMin}
	allowed := []timeline.Verdict{timeline.VerdictStalled, timeline.VerdictFailed, timeline.VerdictRejected, timeline.VerdictTerminating, timeline.VerdictIncomplete}
	for _, v := range o.FailOn {
		v = strings.TrimSpace(v)
		if v == "" || strings.EqualFold(v, "none") {
			continue
		}
		ok := false
		for _, a := range allowed {
			if strings.EqualFold(v, string(a)) {
				if !r.FailOn[a] {
					r.FailOrder = append(r.FailOrder, a)
				}
				r.FailOn[a], ok = true, true
			}
		}
		if !ok {
			return usageErrorf("--fail-on %q: unknown verdict; allowed: Stalled, Failed, Rejected, Terminating, Incomplete", v)
		}
	}
	if o.MaxStartup < 0 {
		return usageErrorf("--max-startup %v: must not be negative", o.MaxStartup)
	}
	r.MaxStartup = o.MaxStartup
	budgets, err := o.Load.budgets()
	if err != nil {
		return err
	}
	r.Budgets = budgets
	for _, s := range timeline.Reference.Stages { // pipeline order
		if _, ok := budgets[s.ID]; ok {
			r.BudgetOrder = append(r.BudgetOrder, s.ID)
		}
	}
	for _, s := range o.SLO {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return usageErrorf("--slo %q: want pNN=duration, e.g. p99=5s", s)
		}
		k = strings.ToLower(strings.TrimSpace(k))
		p, err := strconv.ParseFloat(strings.TrimPrefix(k, "p"), 64)
		if !strings.HasPrefix(k, "p") || err != nil || !(p > 0 && p <= 100) { // NaN fails both
			return usageErrorf("--slo %q: want a percentile p1…p100, e.g. p99", s)
		}
		d, err := time.ParseDuration(strings.TrimSpace(v))
		if err != nil || d <= 0 {
			return usageErrorf("--slo %q: bad duration %q", s, v)
		}
		r.SLO = append(r.SLO, check.SLORule{Pct: p, Label: k, Limit: d})
	}
	for _, p := range o.Pods {
		re, err := regexp.Compile(p)
		if err != nil {
			return usageErrorf("--pod %q: %v", p, err)
		}
		r.Pods = append(r.Pods, re)
	}
	for _, n := range o.Namespaces {
		r.Namespaces[n] = true
	}
	for _, p := range o.Ignore {
		re, err := regexp.Compile(p)
		if err != nil {
			return usageErrorf("--ignore %q: %v", p, err)
		}
		r.Ignore = append(r.Ignore, re)
	}
	if o.Baseline != "" {
		pct, err := checkParsePercent(o.Regression)
		if err != nil {
			return usageErrorf("--regression %q: %v", o.Regression, err)
		}
		r.Regression = pct
	}
	o.rules = r
	outs, err := parseCheckOutputs(o.Outputs, checkFormats)
	if err != nil {
		return err
	}
	o.outs = outs
	return nil
}

func checkParsePercent(s string) (float64, error) {
	s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 {
		return 0, errors.New("want a percentage such as 20%")
	}
	return f / 100, nil
}

func parseCheckOutputs(specs []string, formats []string) ([]checkOutput, error) {
	if len(specs) == 0 {
		specs = []string{"text"}
	}
	var outs []checkOutput
	stdout := ""
	for _, s := range specs {
		f, p, _ := strings.Cut(s, "=")
		f = strings.ToLower(strings.TrimSpace(f))
		if !contains(formats, f) {
			return nil, usageErrorf("unknown output format %q; allowed: %s", f, strings.Join(formats, ", "))
		}
		if p == "" || p == "-" {
			if stdout != "" {
				return nil, usageErrorf("-o %s and -o %s both write to standard output; give one of them a path (FORMAT=PATH)", stdout, f)
			}
			stdout, p = f, ""
		}
		outs = append(outs, checkOutput{Format: f, Path: p})
	}
	return outs, nil
}

func readCheckConfig(path string) (*CheckConfig, error) {
	b, err := readSideFile(path)
	if err != nil {
		return nil, usageErrorf("--config: %v", err)
	}
	var cfg CheckConfig
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
		return nil, usageErrorf("--config %s: %v", path, err)
	}
	return &cfg, nil
}

func checkSortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func checkRun(opts *CheckOptions) error {
	start := opts.IO.Now()
	a, err := Analyze(opts.IO, opts.Paths, opts.Load)
	if err != nil {
		return err
	}
	a.warn(opts.IO)
	var base *check.Baseline
	if opts.Baseline != "" {
		base, err = readBaseline(opts.Baseline)
		if err != nil {
			return err
		}
	}
	fl, err := opts.Select.apply(opts.IO, a)
	if err != nil {
		return err
	}
	res := check.Judge(fl, opts.rules, base)
	var incomplete []string
	for _, w := range a.Warnings {
		incomplete = append(incomplete, sanitize.OneLine(opts.IO.Redact.Text(w.Error())))
	}
	res.Partial(incomplete)
	elapsed := opts.IO.Now().Sub(start) // the analysis: JUnit's suite time
	for _, o := range opts.outs {
		if err := writeCheckOutput(opts.IO, o, res, elapsed); err != nil {
			return err
		}
	}
	switch res.ExitCode {
	case check.ExitPass, check.ExitPartial:
		return nil // (a.warn marked the run partial: exit 5)
	case check.ExitNothing:
		return &ExitError{Code: ExitNothing, Err: fmt.Errorf("nothing to judge: %s", strings.Join(res.Nothing, "; "))}
	}
	return &ExitError{Code: res.ExitCode}
}

// writeCheckOutput writes one format to its file or to standard output.
func writeCheckOutput(ioS *IO, o checkOutput, res *check.Result, elapsed time.Duration) error {
	var buf bytes.Buffer
	raw := false // github: real workflow commands, escaped by writeCheckGitHub
	switch o.Format {
	case "text":
		check.WriteText(&buf, res)
	case "json":
		if err := check.WriteJSON(&buf, res); err != nil {
			return err
		}
	case "junit":
		if err := check.WriteJUnit(&buf, res, elapsed); err != nil {
			return err
		}
	case "markdown":
		check.WriteMarkdown(&buf, res)
	case "github":
		check.WriteGitHub(&buf, res)
		raw = true
		if p := ioS.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
			var md bytes.Buffer
			check.WriteMarkdown(&md, res)
			if err := checkAppendFile(p, md.Bytes()); err != nil {
				return fmt.Errorf("write $GITHUB_STEP_SUMMARY: %w", err)
			}
		}
	}
	if o.Path == "" {
		out := ioS.Out
		if raw {
			out = ioS.RawOut()
		}
		_, err := out.Write(buf.Bytes())
		return err
	}
	b := buf.Bytes()
	if !raw {
		// A file is printed by CI too (cat podflow.md): a workflow command
		// in it is made as inert as on standard output.
		b = []byte(sanitize.Defuse(string(b)))
	}
	if err := os.WriteFile(o.Path, b, 0o644); err != nil {
		return fmt.Errorf("write %s output: %w", o.Format, err)
	}
	return nil
}

func checkAppendFile(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func readBaseline(path string) (*check.Baseline, error) {
	b, err := readSideFile(path)
	if err != nil {
		return nil, inputError(fmt.Errorf("--baseline: %w", err))
	}
	base, err := check.DecodeBaseline(path, b)
	if err != nil {
		return nil, inputError(err)
	}
	return base, nil
}
