package main

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// served asks the proxy whether it serves a module version (its .info).
// The proxy's version list holds only a few of k8s.io/kubernetes's tags
// and a query such as @v1.30 is refused, so patches are probed one by one.
func served(mod, ver string) bool {
	cmd := exec.Command("go", "list", "-m", "-json", mod+"@"+ver)
	cmd.Dir = os.TempDir()
	return cmd.Run() == nil
}

// newest returns the newest patch of vMAJ.MIN.P served, probing upward
// from p until six in a row are missing (the proxy skips some patches:
// 1.31.10 and 1.31.11 are not served, 1.31.12 is); ok is false when not
// even p is.
func newest(mod string, maj, min, p int) (int, bool) {
	v := func(p int) string { return fmt.Sprintf("v%d.%d.%d", maj, min, p) }
	if !served(mod, v(p)) {
		return p, false
	}
	for miss, q := 0, p+1; miss < 6; q++ {
		if served(mod, v(q)) {
			p, miss = q, 0
		} else {
			miss++
		}
	}
	return p, true
}

func parseSemver(v string) (maj, min, patch int, ok bool) {
	parts := strings.Split(strings.TrimPrefix(v, "v"), ".")
	if len(parts) != 3 {
		return 0, 0, 0, false
	}
	var err [3]error
	maj, err[0] = strconv.Atoi(parts[0])
	min, err[1] = strconv.Atoi(parts[1])
	patch, err[2] = strconv.Atoi(parts[2])
	return maj, min, patch, err[0] == nil && err[1] == nil && err[2] == nil
}

// resolveVersions rewrites the list with each source at its newest
// served patch, and new kubelet (and kube-controller-manager) minors
// appended while vN.0 is served (stable releases only).
func resolveVersions(path string, srcs []source) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	last := map[string]source{} // component → its last kubernetes line
	bumped := map[string]int{}  // component version → its kubernetes line's new patch
	for _, s := range srcs {
		maj, min, p, ok := parseSemver(s.modVersion)
		if !ok {
			return fmt.Errorf("%s:%d: %s is not vX.Y.Z", path, s.line, s.modVersion)
		}
		if stagingModule(s.module) {
			continue // follows its kubernetes line, below
		}
		np, ok := newest(s.module, maj, min, p)
		if !ok {
			return fmt.Errorf("%s:%d: %s@%s is not served", path, s.line, s.module, s.modVersion)
		}
		if np != p {
			fmt.Fprintf(os.Stderr, "%s %s: %s@%s → v%d.%d.%d\n", s.component, s.version, s.module, s.modVersion, maj, min, np)
			lines[s.line-1] = strings.Replace(lines[s.line-1], "@"+s.modVersion, fmt.Sprintf("@v%d.%d.%d", maj, min, np), 1)
			if s.module == "k8s.io/kubernetes" {
				bumped[s.component+" "+s.version] = np
			}
		}
		if s.module == "k8s.io/kubernetes" && s.component != "kubelet-legacy" {
			last[s.component] = s
		}
	}
	// A staging module (k8s.io/cri-client, client-go…) is released with
	// its kubernetes patch as v0.MINOR.PATCH: it follows the bump when
	// that version is served, else keeps its own.
	for _, s := range srcs {
		np, ok := bumped[s.component+" "+s.version]
		if !ok || !stagingModule(s.module) {
			continue
		}
		_, min, _, _ := parseSemver(s.modVersion)
		if v := fmt.Sprintf("v0.%d.%d", min, np); served(s.module, v) {
			lines[s.line-1] = strings.Replace(lines[s.line-1], "@"+s.modVersion, "@"+v, 1)
		}
	}
	for comp, s := range last {
		_, min, _, _ := parseSemver(s.modVersion)
		for m := min + 1; ; m++ {
			p, ok := newest(s.module, 1, m, 0)
			if !ok {
				break
			}
			l := fmt.Sprintf("%s 1.%d %s@v1.%d.%d %s", comp, m, s.module, m, p, strings.Join(s.dirs, " "))
			fmt.Fprintln(os.Stderr, "new:", l)
			lines = append(lines[:len(lines)-1], l, lines[len(lines)-1])
			// the staging modules the last version reads, at this release
			for _, st := range srcs {
				if st.component != comp || st.version != s.version || !stagingModule(st.module) {
					continue
				}
				if v := fmt.Sprintf("v0.%d.%d", m, p); served(st.module, v) {
					l := fmt.Sprintf("%s 1.%d %s@%s %s", comp, m, st.module, v, strings.Join(st.dirs, " "))
					lines = append(lines[:len(lines)-1], l, lines[len(lines)-1])
				} else {
					fmt.Fprintf(os.Stderr, "%s 1.%d: %s@%s is not served: add its line by hand\n", comp, m, st.module, v)
				}
			}
		}
	}
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644)
}

// stagingModule says a module is one of k8s.io/kubernetes's staging
// modules, tagged v0.MINOR.PATCH with each kubernetes release.
func stagingModule(mod string) bool {
	switch mod {
	case "k8s.io/cri-client", "k8s.io/component-base", "k8s.io/apimachinery", "k8s.io/client-go":
		return true
	}
	return false
}
