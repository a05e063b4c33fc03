package cmd

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/internal/cause"
	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"github.com/spf13/cobra"
)

// StatsOptions holds what `podflow stats` needs.
type StatsOptions struct {
	IO   *IO
	Load LoadOptions

	Paths     []string
	Output    string // "", json
	OverTime  bool
	Bucket    time.Duration // 0: auto
	NoHeaders bool
	By        string // "stage" (default) or "cause"
	Select    podSelection
}

var (
	statsOutputs = []string{"json"}
	statsBy      = []string{"stage", "cause"}
)

// NewCmdStats builds `podflow stats`.
func NewCmdStats(ioS *IO, runF func(*StatsOptions) error) *cobra.Command {
	opts := &StatsOptions{IO: ioS}
	cmd := &cobra.Command{
		Use:   "stats [FILE|DIR|-]...",
		Short: "Per-stage latency percentiles across pods, and pods per stage over time",
		Long: `Print, for every stage, how many pods completed it and the 50th, 90th and
99th percentile and the maximum of its duration (nearest rank; stages
that did not complete are left out). Container stages (image, created,
started, completed) are aggregated over every container of every pod.

Stages no pod spent any time in (every figure 0s: markers written in the
same instant) are left out.

--by cause groups the failed pods (Failed, Stalled, Rejected) by their
cause instead: the stage they stopped at and their reason, with names,
IDs, numbers and quoted values masked, the largest group first.

--over-time adds a second section: the log's span cut into buckets
(--bucket, default: about 40 buckets of a round size), with how many
pods were in each pod stage during each bucket and a bar of the pods in
flight.`,
		Example: `  podflow stats kubelet.log
  podflow stats --over-time --bucket 1s kubelet.log
  podflow stats --by cause ./kind-logs/
  podflow stats -o json ./kind-logs/
  podflow stats --node kind-worker --since 1h          # a live node, through the API server`,
		RunE: func(c *cobra.Command, args []string) error {
			opts.Paths = args
			if opts.Output != "" && !contains(statsOutputs, opts.Output) {
				return usageErrorf("unknown output format %q; allowed: %s", opts.Output, strings.Join(statsOutputs, ", "))
			}
			if !contains(statsBy, opts.By) {
				return usageErrorf("--by %q: allowed: %s", opts.By, strings.Join(statsBy, ", "))
			}
			if opts.Bucket < 0 {
				return usageErrorf("--bucket %s: must be positive", opts.Bucket)
			}
			if err := opts.Select.check(ioS, &opts.Load.live); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return statsRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Output, "output", "o", "", "output format: json")
	f.BoolVar(&opts.OverTime, "over-time", false, "also show how many pods were in each stage per time bucket")
	f.DurationVar(&opts.Bucket, "bucket", 0, "bucket size for --over-time (default: auto)")
	f.BoolVar(&opts.NoHeaders, "no-headers", false, "do not print section titles and header rows")
	f.StringVar(&opts.By, "by", "stage", "group by: stage (latency per stage) or cause (failed pods per cause)")
	addPodSelectionFlags(cmd, &opts.Select, true)
	addLoadFlags(cmd, &opts.Load)
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion(statsOutputs...))
	_ = cmd.RegisterFlagCompletionFunc("by", fixedCompletion(statsBy...))
	return cmd
}

// StageStat is one row of `podflow stats`.
type StageStat struct {
	Stage string            `json:"stage"`
	Scope string            `json:"scope"`
	Count int               `json:"count"`
	P50   timeline.Duration `json:"p50"`
	P90   timeline.Duration `json:"p90"`
	P99   timeline.Duration `json:"p99"`
	Max   timeline.Duration `json:"max"`
	Slow  *timeline.PodRef  `json:"slowest,omitempty"`
}

// Bucket is one time bucket of --over-time.
type Bucket struct {
	Start    time.Time      `json:"start"`
	InFlight int            `json:"inFlight"`
	Stages   map[string]int `json:"stages"`
}

// StatsResult is `podflow stats -o json`.
type StatsResult struct {
	Pods     int               `json:"pods"`
	Stages   []StageStat       `json:"stages"`
	Failed   int               `json:"failed,omitempty"` // --by cause: the failed pods grouped
	Causes   []cause.Group     `json:"causes,omitempty"` // --by cause`
	Bucket   timeline.Duration `json:"bucket,omitempty"`
	OverTime []Bucket          `json:"overTime,omitempty"`
}

// percentile is the nearest-rank percentile of sorted durations.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p/100*float64(len(sorted)) + 0.999999)
	if rank < 1 {
		rank = 1
	}
	if rank > len(sorted) {
		rank = len(sorted)
	}
	return sorted[rank-1]
}

// stageStats computes the per-stage latency table.
func stageStats(fl *timeline.FlowList) []StageStat {
	type acc struct {
		ds   []time.Duration
		max  time.Duration
		slow timeline.PodRef
	}
	accs := map[string]*acc{}
	add := func(id string, s *timeline.Stage, pod timeline.PodRef) {
		if s.Status != timeline.StatusDone || s.Start == nil {
			return
		}
		a := accs[id]
		if a == nil {
			a = &acc{}
			accs[id] = a
		}
		d := time.Duration(s.Duration)
		a.ds = append(a.ds, d)
		if len(a.ds) == 1 || d > a.max {
			a.max, a.slow = d, pod
		}
	}
	for i := range fl.Items {
		f := &fl.Items[i]
		for j := range f.Stages {
			add(f.Stages[j].ID, &f.Stages[j], f.Pod)
		}
		for _, c := range f.Containers {
			for j := range c.Stages {
				add(c.Stages[j].ID, &c.Stages[j], f.Pod)
			}
		}
	}
	var out []StageStat
	for _, def := range timeline.Reference.Stages {
		a := accs[def.ID]
		if a == nil {
			continue
		}
		if a.max == 0 {
			// Always 0s: its markers come in one instant (or it has
			// none of its own); a row of zeros says nothing.
			continue
		}
		sort.Slice(a.ds, func(i, j int) bool { return a.ds[i] < a.ds[j] })
		slow := a.slow
		out = append(out, StageStat{
			Stage: def.ID, Scope: string(def.Scope), Count: len(a.ds),
			P50: timeline.Duration(percentile(a.ds, 50)), P90: timeline.Duration(percentile(a.ds, 90)),
			P99: timeline.Duration(percentile(a.ds, 99)), Max: timeline.Duration(a.max), Slow: &slow,
		})
	}
	return out
}

// autoBucket picks a round bucket size giving about 40 buckets.
func autoBucket(span time.Duration) time.Duration {
	for _, b := range []time.Duration{100 * time.Millisecond, 250 * time.Millisecond, 500 * time.Millisecond,
		time.Second, 2 * time.Second, 5 * time.Second, 10 * time.Second, 15 * time.Second, 30 * time.Second,
		time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute, 15 * time.Minute, 30 * time.Minute, time.Hour} {
		if span/b <= 40 {
			return b
		}
	}
	return span / 40
}

// overTime counts, per bucket, the pods whose pod stage overlapped it.
func overTime(fl *timeline.FlowList, bucket time.Duration) (time.Duration, []Bucket) {
	var start, end time.Time
	for i := range fl.Items {
		f := &fl.Items[i]
		if start.IsZero() || f.Start.Before(start) {
			start = f.Start
		}
		if e := f.End; e.After(end) {
			end = e
		}
	}
	if start.IsZero() {
		return bucket, nil
	}
	if bucket <= 0 {
		bucket = autoBucket(end.Sub(start))
	}
	if bucket <= 0 {
		bucket = time.Second
	}
	start = start.Truncate(bucket)
	n := int(end.Sub(start)/bucket) + 1
	if n > 10000 {
		n = 10000
	}
	out := make([]Bucket, n)
	for i := range out {
		out[i] = Bucket{Start: start.Add(time.Duration(i) * bucket), Stages: map[string]int{}}
	}
	for i := range fl.Items {
		f := &fl.Items[i]
		// In flight from its first stage's start to its last stage's end,
		// waits between stages included.
		lo, hi := -1, -1
		for _, s := range f.Stages {
			if s.Start == nil {
				continue
			}
			e := stageEnd(f, &s)
			first := int(s.Start.Sub(start) / bucket)
			last := int(e.Sub(start) / bucket)
			for b := max(first, 0); b <= last && b < n; b++ {
				out[b].Stages[s.ID]++
			}
			if lo < 0 || first < lo {
				lo = first
			}
			hi = max(hi, last)
		}
		for b := max(lo, 0); lo >= 0 && b <= hi && b < n; b++ {
			out[b].InFlight++
		}
	}
	return bucket, out
}

func statsRun(o *StatsOptions) error {
	ioS := o.IO
	o.Load.trim = timingOnly
	a, err := analyze(ioS, o.Paths, o.Load)
	if err != nil {
		return err
	}
	fl, err := o.Select.apply(ioS, a)
	if err != nil {
		return err
	}
	res := StatsResult{Pods: len(fl.Items), Stages: stageStats(fl)}
	if res.Stages == nil {
		res.Stages = []StageStat{}
	}
	if o.By == "cause" {
		res.Causes = cause.Groups(fl.Items, nil)
		res.Failed = cause.Total(res.Causes)
		if o.Output == "json" {
			return printJSON(ioS.Out, res)
		}
		if res.Pods == 0 {
			fmt.Fprintln(ioS.ErrOut, "No pods found.")
			return nil
		}
		width := 0
		if ioS.OutTTY {
			width = ioS.Width
		}
		printCauses(ioS.Out, res.Causes, res.Pods, o.NoHeaders, 0, width)
		return nil
	}
	if o.OverTime {
		b, buckets := overTime(fl, o.Bucket)
		res.Bucket, res.OverTime = timeline.Duration(b), buckets
	}
	if o.Output == "json" {
		return printJSON(ioS.Out, res)
	}
	if res.Pods == 0 {
		fmt.Fprintln(ioS.ErrOut, "No pods found.")
		return nil
	}
	t := &Table{Headers: []string{"STAGE", "SCOPE", "COUNT", "P50", "P90", "P99", "MAX", "SLOWEST"}, NoHeader: o.NoHeaders, Flex: -1}
	for _, s := range res.Stages {
		t.Rows = append(t.Rows, []string{s.Stage, s.Scope, strconv.Itoa(s.Count), humanDuration(time.Duration(s.P50)),
			humanDuration(time.Duration(s.P90)), humanDuration(time.Duration(s.P99)), humanDuration(time.Duration(s.Max)), sanitize.OneLine(s.Slow.Key())})
	}
	t.Print(ioS.Out, false)
	if !o.OverTime {
		return nil
	}
	fmt.Fprintln(ioS.Out)
	if !o.NoHeaders {
		fmt.Fprintf(ioS.Out, "PODS PER STAGE OVER TIME (bucket %s)\n", humanDuration(time.Duration(res.Bucket)))
	}
	peak := 1
	for _, b := range res.OverTime {
		peak = max(peak, b.InFlight)
	}
	bt := &Table{Headers: []string{"TIME", "IN FLIGHT", "", "STAGES"}, NoHeader: o.NoHeaders, Flex: -1}
	for _, b := range res.OverTime {
		var parts []string
		for _, id := range timeline.PodStages {
			if n := b.Stages[id]; n > 0 {
				parts = append(parts, id+"="+strconv.Itoa(n))
			}
		}
		for _, id := range timeline.TerminationStages {
			if n := b.Stages[id]; n > 0 {
				parts = append(parts, id+"="+strconv.Itoa(n))
			}
		}
		hist := ""
		if b.InFlight > 0 {
			hist = strings.Repeat("▇", max(1, b.InFlight*30/peak))
		}
		bt.Rows = append(bt.Rows, []string{clock(b.Start), strconv.Itoa(b.InFlight), hist, strings.Join(parts, " ")})
	}
	bt.Print(ioS.Out, false)
	return nil
}
