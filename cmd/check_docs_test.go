package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// ciWorkflows are the GitHub Actions jobs shown in docs/ci.md and the
// README (the yaml blocks that run podflow check).
func ciWorkflows(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	block := regexp.MustCompile("(?s)```yaml\n(.*?)```")
	for _, p := range []string{"../docs/ci.md", "../README.md"} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range block.FindAllStringSubmatch(string(b), -1) {
			if strings.Contains(m[1], "podflow check") && strings.Contains(m[1], "steps:") {
				out[p] = m[1]
			}
		}
		if out[p] == "" {
			t.Fatalf("%s shows no workflow running podflow check", p)
		}
	}
	return out
}

type ciStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	With map[string]string `yaml:"with"`
}

// TestCIDocsInstallFromSource: the workflows install podflow in a way that
// works on a fresh runner (a module that may not be published cannot be
// go installed @latest): Go as go.mod asks, podflow built from its checked
// out source; the install step's own commands, run here on this checkout,
// build a podflow that runs and put it on the PATH.
func TestCIDocsInstallFromSource(t *testing.T) {
	for p, wf := range ciWorkflows(t) {
		var doc struct {
			Jobs map[string]struct {
				Steps []ciStep `yaml:"steps"`
			} `yaml:"jobs"`
		}
		if err := yaml.Unmarshal([]byte(wf), &doc); err != nil {
			t.Fatalf("%s: the workflow is not YAML: %v", p, err)
		}
		var steps []ciStep
		for _, j := range doc.Jobs {
			steps = append(steps, j.Steps...)
		}
		var src, goVersion, install string
		for _, s := range steps {
			switch {
			case strings.Contains(s.Run, "@latest"):
				t.Errorf("%s: step %q installs a module @latest: %s", p, s.Name, s.Run)
			case strings.HasPrefix(s.Uses, "actions/checkout") && s.With["repository"] == "podflow/podflow":
				src = s.With["path"]
			case strings.HasPrefix(s.Uses, "actions/setup-go"):
				goVersion = s.With["go-version-file"]
			case s.Name == "Install podflow":
				install = s.Run
			}
		}
		if src == "" || goVersion != src+"/go.mod" || !strings.Contains(install, "build") || !strings.Contains(install, "./cmd/podflow") {
			t.Fatalf("%s: want podflow checked out (got path %q), Go from its go.mod (got %q) and built from it (got %q)", p, src, goVersion, install)
		}
		if testing.Short() {
			continue
		}
		// The install step on a runner of our own: the checkout is this one.
		dir := t.TempDir()
		root, _ := filepath.Abs("..")
		if err := os.Symlink(root, filepath.Join(dir, src)); err != nil {
			t.Fatal(err)
		}
		ghPath := filepath.Join(dir, "github_path")
		c := exec.Command("bash", "-e", "-c", install)
		c.Dir = dir
		c.Env = append(os.Environ(), "RUNNER_TEMP="+filepath.Join(dir, "tmp"), "GITHUB_PATH="+ghPath)
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s: the install step fails: %v\n%s", p, err, out)
		}
		added, _ := os.ReadFile(ghPath)
		bin := filepath.Join(strings.TrimSpace(string(added)), "podflow")
		if out, err := exec.Command(bin, "check", "--help").CombinedOutput(); err != nil || !strings.Contains(string(out), "Exit codes:") {
			t.Errorf("%s: the installed %s does not run: %v\n%s", p, bin, err, out)
		}
	}
}

// TestReadmeGoVersion: the Go the README asks for is go.mod's.
func TestReadmeGoVersion(t *testing.T) {
	mod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindSubmatch(mod)
	readme, _ := os.ReadFile("../README.md")
	r := regexp.MustCompile(`with Go \(([0-9.]+)`).FindSubmatch(readme)
	if m == nil || r == nil || string(r[1]) != string(m[1]) {
		t.Errorf("README asks for Go %q, go.mod says %q", r, m)
	}
}
