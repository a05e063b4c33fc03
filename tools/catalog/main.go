// Command catalog lists every log call of the kubelet (and of
// kube-controller-manager's node lifecycle controller, containerd's CRI
// plugin and CRI-O) at each version in versions.txt, from the modules'
// own source as the Go module proxy serves it, and writes podflow's
// embedded catalog (internal/catalog/catalog.tsv).
//
// Usage (from the repository root; `make catalog` runs it):
//
//	cd tools/catalog && go run . -o ../../internal/catalog/catalog.tsv
//	cd tools/catalog && go run . -resolve   # probe newer patches and minors, rewrite versions.txt
//
// It needs the Go module proxy: each version is fetched with
// `go mod download -json`, which fills the shared module cache. A version
// that fails to download or to parse fails the run (all failures are
// listed): the catalog is never written from a partial set.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// source is one line of versions.txt.
type source struct {
	component, version string
	module, modVersion string
	dirs               []string
	line               int
}

func main() {
	var (
		list    = flag.String("versions", "versions.txt", "the sources: component version module@version dir...")
		out     = flag.String("o", "../../internal/catalog/catalog.tsv", "the catalog to write")
		resolve = flag.Bool("resolve", false, "probe the proxy for newer patches and kubelet minors, rewrite -versions, and exit")
		jobs    = flag.Int("j", 2, "sources parsed at once")
	)
	flag.Parse()
	srcs, err := readSources(*list)
	if err != nil {
		fail(err)
	}
	if *resolve {
		if err := resolveVersions(*list, srcs); err != nil {
			fail(err)
		}
		return
	}
	cat, err := build(srcs, *jobs)
	if err != nil {
		fail(err)
	}
	var buf bytes.Buffer
	cat.write(&buf, srcs)
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		fail(err)
	}
	fmt.Fprintf(os.Stderr, "catalog: %d messages from %d sources written to %s\n", len(cat.entries), len(srcs), *out)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "catalog:", err)
	os.Exit(1)
}

func readSources(path string) ([]source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var srcs []source
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) < 4 {
			return nil, fmt.Errorf("%s:%d: want component version module@version dir...", path, n)
		}
		mod, ver, ok := strings.Cut(fs[2], "@")
		if !ok {
			return nil, fmt.Errorf("%s:%d: %q has no @version", path, n, fs[2])
		}
		srcs = append(srcs, source{component: fs[0], version: fs[1], module: mod, modVersion: ver, dirs: fs[3:], line: n})
	}
	return srcs, sc.Err()
}

// download fetches a module version through the proxy (or the cache) and
// returns its directory.
func download(mod, ver string) (string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", mod+"@"+ver)
	cmd.Dir = os.TempDir() // outside any module: no go.mod is touched
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil {
		return "", fmt.Errorf("go mod download %s@%s: %v: %s", mod, ver, runErr, strings.TrimSpace(stderr.String()))
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s@%s: %s", mod, ver, info.Error)
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download %s@%s: no directory (%v)", mod, ver, runErr)
	}
	return info.Dir, nil
}

// build downloads and parses every source; any failure fails the build.
func build(srcs []source, jobs int) (*catalog, error) {
	cat := newCatalog()
	var (
		mu   sync.Mutex
		errs []error
		wg   sync.WaitGroup
		sem  = make(chan struct{}, max(jobs, 1))
	)
	dirs := make([]string, len(srcs))
	for i, s := range srcs { // downloads one at a time: the go command locks the cache anyway
		d, err := download(s.module, s.modVersion)
		if err != nil {
			errs = append(errs, fmt.Errorf("versions.txt:%d %s %s: %w", s.line, s.component, s.version, err))
			continue
		}
		dirs[i] = d
	}
	for i, s := range srcs {
		if dirs[i] == "" {
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			calls, err := scanSource(s, dirs[i])
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, fmt.Errorf("versions.txt:%d %s %s: %w", s.line, s.component, s.version, err))
				return
			}
			for _, c := range calls {
				cat.add(s, c)
			}
		}()
	}
	wg.Wait()
	if len(errs) > 0 {
		sort.Slice(errs, func(i, j int) bool { return errs[i].Error() < errs[j].Error() })
		return nil, errors.Join(errs...)
	}
	return cat, nil
}

// scanSource parses every non-test Go file under the source's directories.
func scanSource(s source, root string) ([]call, error) {
	pkgs := map[string]*pkgFiles{} // import path → files
	for _, d := range s.dirs {
		base := filepath.Join(root, filepath.FromSlash(d))
		if _, err := os.Stat(base); err != nil {
			return nil, fmt.Errorf("directory %s: %w", d, err)
		}
		err := filepath.WalkDir(base, func(p string, de os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if de.IsDir() {
				switch de.Name() {
				case "testdata", "testing", "vendor":
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
				return nil
			}
			rel, _ := filepath.Rel(root, filepath.Dir(p))
			ip := s.module + "/" + filepath.ToSlash(rel)
			pf := pkgs[ip]
			if pf == nil {
				pf = &pkgFiles{path: ip}
				pkgs[ip] = pf
			}
			pf.files = append(pf.files, p)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sc := newScanner(s)
	if err := sc.parse(pkgs); err != nil {
		return nil, err
	}
	return sc.calls(), nil
}

type pkgFiles struct {
	path  string
	files []string
}
