package cmd

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/podflow/podflow/timeline"
)

// BenchmarkGetPodsTable times what get pods does after the engine: select,
// sort and print the default table of 10,000 pods (the corpus's flows,
// renamed), through the terminal layer as a real run prints.
func BenchmarkGetPodsTable(b *testing.B) {
	ioS, _, _, _ := NewTestIO(false)
	a, err := Analyze(ioS, []string{corpus}, LoadOptions{MaxPods: 1000, rows: true})
	if err != nil {
		b.Fatal(err)
	}
	src := a.Flows.Items
	if len(src) == 0 {
		b.Fatal("no pods in the corpus")
	}
	fl := *a.Flows
	fl.Items = make([]timeline.Flow, 10000)
	for i := range fl.Items {
		f := src[i%len(src)]
		f.Pod.Name = fmt.Sprintf("%s-%d", f.Pod.Name, i)
		// In start order, as the engine lists flows.
		f.Start = src[0].Start.Add(time.Duration(i) * time.Second)
		f.End = f.Start.Add(time.Duration(f.Duration))
		fl.Items[i] = f
	}
	ioS.Out = io.Discard
	ioS.protect()
	for _, sort := range []string{"start", "name"} {
		b.Run(sort, func(b *testing.B) {
			o := &GetPodsOptions{IO: ioS, SortBy: sort}
			b.ReportAllocs()
			for b.Loop() {
				sel, err := o.selectFlows(&fl)
				if err != nil {
					b.Fatal(err)
				}
				printPodTable(ioS, sel.Items, false, false, false)
			}
		})
	}
}
