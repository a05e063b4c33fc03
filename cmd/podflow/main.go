// Command podflow replays kubelet logs into a per-pod flow trace.
// Installed as kubectl-podflow it also runs as `kubectl podflow`.
package main

import (
	"os"
	// --tz works where the system has no zone database (scratch and
	// distroless images, Windows): some 450 KB.
	_ "time/tzdata"

	"github.com/podflow/podflow/cmd"
	"github.com/podflow/podflow/internal/memlimit"
)

func main() {
	stop := memlimit.Start()
	code := cmd.Main(cmd.SystemIO(), os.Args)
	stop()
	os.Exit(code)
}
