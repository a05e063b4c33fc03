// Command podflow replays kubelet logs into a per-pod flow trace.
// Installed as kubectl-podflow it also runs as `kubectl podflow`.
package main

import (
	"os"

	"github.com/podflow/podflow/cmd"
)

func main() {
	os.Exit(cmd.Main(cmd.SystemIO(), os.Args))
}
