package cmd

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
)

// VersionOptions holds what `podflow version` needs.
type VersionOptions struct {
	IO     *IO
	Output string // "", json or yaml
}

// versionInfo is what `podflow version -o json` prints.
type versionInfo struct {
	Version   string `json:"version"`
	GoVersion string `json:"goVersion"`
	Platform  string `json:"platform"`
}

// NewCmdVersion builds `podflow version`, as kubectl has it; --version
// on the root prints the same first line.
func NewCmdVersion(ioS *IO, runF func(*VersionOptions) error) *cobra.Command {
	opts := &VersionOptions{IO: ioS}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print podflow's version",
		Long: `Print podflow's version: the release it was built as, or for a build from a
checkout the commit Go recorded. -o json and -o yaml add the Go version and
the platform. podflow --version prints the same first line.`,
		Example: `  podflow version
  podflow version -o json`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, args []string) error {
			if opts.Output != "" && opts.Output != "json" && opts.Output != "yaml" {
				return usageErrorf("-o %q: allowed: json, yaml", opts.Output)
			}
			if runF != nil {
				return runF(opts)
			}
			return versionRun(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", "", "output format: json or yaml")
	_ = cmd.RegisterFlagCompletionFunc("output", fixedCompletion("json", "yaml"))
	return cmd
}

func versionRun(o *VersionOptions) error {
	v := versionInfo{Version: versionString(), GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	switch o.Output {
	case "json":
		return writeJSON(o.IO.Out, v)
	case "yaml":
		return writeYAML(o.IO.Out, v)
	}
	_, err := fmt.Fprintf(o.IO.Out, "podflow version %s\n", v.Version)
	return err
}

// noVersionShorthand explains -v: kubectl users read it as log
// verbosity, and podflow gives it no meaning at all, not the version.
func noVersionShorthand(err error) error {
	if strings.Contains(err.Error(), "shorthand flag: 'v'") {
		return fmt.Errorf("%w (-v is no podflow flag: kubectl's -v sets log verbosity, and podflow reads the -v your kubelet logged at; for the version: podflow version)", err)
	}
	return err
}
