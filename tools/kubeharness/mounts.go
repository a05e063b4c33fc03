package main

import (
	"bufio"
	"os"
	"sort"
	"strings"
	"syscall"
)

// unmountUnder detaches every mount at or below dir, deepest first: the
// kubelet bind-mounts its root dir on itself and mounts a tmpfs per
// projected or secret volume, and a kubelet stopped by a signal leaves them
// behind, where they make the next run's RemoveAll fail with EBUSY and
// pile up in /proc/mounts.
func unmountUnder(dir string) {
	f, err := os.Open("/proc/self/mounts")
	if err != nil {
		return
	}
	defer f.Close()
	var points []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 2 {
			continue
		}
		// /proc/mounts escapes spaces and the like as octal (\040).
		p := strings.NewReplacer(`\040`, " ", `\011`, "\t", `\012`, "\n", `\134`, `\`).Replace(fields[1])
		if p == dir || strings.HasPrefix(p, dir+"/") {
			points = append(points, p)
		}
	}
	sort.Slice(points, func(i, j int) bool { return len(points[i]) > len(points[j]) })
	for _, p := range points {
		_ = syscall.Unmount(p, syscall.MNT_DETACH)
	}
}
