package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/modfile"
)

// cacheDir is where built binaries live, one directory per version, shared
// with the live-node target: ${PODFLOW_KUBE_CACHE:-$HOME/.cache/podflow-kube}.
func cacheDir() string {
	if d := os.Getenv("PODFLOW_KUBE_CACHE"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		home = os.TempDir()
	}
	return filepath.Join(home, ".cache", "podflow-kube")
}

// normVersion turns "1.35" / "1.35.4" / "v1.35.4" into a full "v1.35.4",
// asking the module proxy for the newest patch when only a minor is given.
func normVersion(v string) (string, error) {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "v") {
		v = "v" + v
	}
	if strings.Count(v, ".") == 2 {
		return v, nil
	}
	out, err := goCmd("", "list", "-m", "-json", "k8s.io/kubernetes@"+v).Output()
	if err != nil {
		return "", fmt.Errorf("resolve k8s.io/kubernetes@%s: %w", v, err)
	}
	var m struct{ Version string }
	if err := json.Unmarshal(out, &m); err != nil {
		return "", fmt.Errorf("resolve k8s.io/kubernetes@%s: %w", v, err)
	}
	return m.Version, nil
}

func goCmd(dir string, args ...string) *exec.Cmd {
	c := exec.Command("go", args...)
	c.Dir = dir
	c.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "CGO_ENABLED=0")
	c.Stderr = os.Stderr
	return c
}

// binPath is the cached binary of one component of one version.
func binPath(version, component string) string {
	return filepath.Join(cacheDir(), version, component)
}

// buildComponents builds the named components (kubelet, kube-apiserver) of
// version into the cache, skipping those already there. The code is the
// unmodified k8s.io/kubernetes module; the throwaway module only pins the
// staging modules to their v0.X.Y tags (k8s.io/kubernetes's own go.mod
// replaces them with ./staging paths, which a dependent module cannot use).
func buildComponents(version string, components ...string) error {
	var todo []string
	for _, c := range components {
		if _, err := os.Stat(binPath(version, c)); err != nil {
			todo = append(todo, c)
		}
	}
	if len(todo) == 0 {
		return nil
	}
	dir := filepath.Join(cacheDir(), version, "buildmod")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("build dir: %w", err)
	}
	if err := writeBuildModule(dir, version); err != nil {
		return err
	}
	minor := strings.SplitN(strings.TrimPrefix(version, "v"), ".", 3)
	ldflags := strings.Join([]string{
		"-s -w",
		"-X k8s.io/component-base/version.gitVersion=" + version,
		"-X k8s.io/component-base/version.gitMajor=" + minor[0],
		"-X k8s.io/component-base/version.gitMinor=" + minor[1],
		"-X k8s.io/component-base/version.gitTreeState=clean",
		"-X k8s.io/component-base/version.buildDate=" + time.Now().UTC().Format(time.RFC3339),
	}, " ")
	for _, c := range todo {
		start := time.Now()
		out := binPath(version, c)
		fmt.Fprintf(os.Stderr, "kubeharness: building %s %s ...\n", c, version)
		cmd := goCmd(dir, "build", "-trimpath", "-ldflags", ldflags, "-o", out+".tmp", "k8s.io/kubernetes/cmd/"+c)
		cmd.Stdout = os.Stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("build %s %s: %w", c, version, err)
		}
		if err := os.Rename(out+".tmp", out); err != nil {
			return fmt.Errorf("build %s %s: %w", c, version, err)
		}
		fmt.Fprintf(os.Stderr, "kubeharness: built %s in %s\n", out, time.Since(start).Round(time.Second))
	}
	return nil
}

func writeBuildModule(dir, version string) error {
	out, err := goCmd("", "mod", "download", "-json", "k8s.io/kubernetes@"+version).Output()
	if err != nil {
		return fmt.Errorf("download k8s.io/kubernetes@%s: %w", version, err)
	}
	var dl struct{ GoMod string }
	if err := json.Unmarshal(out, &dl); err != nil {
		return fmt.Errorf("download k8s.io/kubernetes@%s: %w", version, err)
	}
	data, err := os.ReadFile(dl.GoMod)
	if err != nil {
		return fmt.Errorf("read kubernetes go.mod: %w", err)
	}
	kmod, err := modfile.Parse(dl.GoMod, data, nil)
	if err != nil {
		return fmt.Errorf("parse kubernetes go.mod: %w", err)
	}
	staging := "v0." + strings.TrimPrefix(version, "v1.")
	var b bytes.Buffer
	fmt.Fprintf(&b, "module podflow.local/kubebuild\n\ngo %s\n\nrequire k8s.io/kubernetes %s\n\n", kmod.Go.Version, version)
	for _, r := range kmod.Replace {
		if !strings.HasPrefix(r.New.Path, "./staging/") {
			// A pinned third-party replacement applies to us too.
			fmt.Fprintf(&b, "replace %s => %s %s\n", r.Old.Path, r.New.Path, r.New.Version)
			continue
		}
		fmt.Fprintf(&b, "replace %s => %s %s\n", r.Old.Path, r.Old.Path, staging)
	}
	// The kubernetes module's own requirements keep their versions (MVS
	// picks them up from its go.mod), so the build sees the same versions.
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write build go.mod: %w", err)
	}
	return nil
}
