package cmd

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/cobra"
)

// profileFlags are kubectl's --profile and --profile-output: hidden, for
// someone reporting that podflow is slow or big on their log.
type profileFlags struct {
	kind   string // none, cpu, heap, allocs
	output string
	stop   func() error
}

func addProfileFlags(root *cobra.Command, p *profileFlags) {
	f := root.PersistentFlags()
	f.StringVar(&p.kind, "profile", "none", "write a Go profile: none, cpu, heap or allocs")
	f.StringVar(&p.output, "profile-output", "profile.pprof", "file the --profile is written to")
	_ = f.MarkHidden("profile")
	_ = f.MarkHidden("profile-output")
}

func (p *profileFlags) start() error {
	switch p.kind {
	case "none", "":
		return nil
	case "cpu":
		f, err := os.Create(p.output)
		if err != nil {
			return usageErrorf("--profile-output: %v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return fmt.Errorf("--profile cpu: %w", err)
		}
		p.stop = func() error {
			pprof.StopCPUProfile()
			return f.Close()
		}
	case "heap", "allocs":
		p.stop = func() error {
			f, err := os.Create(p.output)
			if err != nil {
				return err
			}
			runtime.GC()
			if err := pprof.Lookup(p.kind).WriteTo(f, 0); err != nil {
				f.Close()
				return err
			}
			return f.Close()
		}
	default:
		return usageErrorf("--profile %q: allowed: none, cpu, heap, allocs", p.kind)
	}
	return nil
}

func (p *profileFlags) finish() error {
	if p.stop == nil {
		return nil
	}
	err := p.stop()
	p.stop = nil
	return err
}
