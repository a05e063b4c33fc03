// Command kubeharness builds unmodified kubelets of any served Kubernetes
// version from the k8s.io/kubernetes module source and runs them against a
// kube-apiserver, etcd and a fake CRI of ours, writing the kubelets' stderr
// as podflow's real-log corpus (issue #26). It is not part of `make test`:
// see `make corpus` and testdata/corpus/MANIFEST.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch os.Args[1] {
	case "build":
		err = cmdBuild(os.Args[2:])
	case "run":
		err = cmdRun(os.Args[2:])
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubeharness:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, `usage:
  kubeharness build [-apiserver] VERSION...   build kubelet (and kube-apiserver) into the cache
  kubeharness run -kube "1.35 1.37.2" [-only REGEXP] [-parallel N] [-out testdata/corpus]`)
	os.Exit(2)
}

func versions(list []string) ([]string, error) {
	var out []string
	for _, v := range list {
		for _, f := range strings.Fields(strings.ReplaceAll(v, ",", " ")) {
			full, err := normVersion(f)
			if err != nil {
				return nil, err
			}
			out = append(out, full)
		}
	}
	sort.Slice(out, func(i, j int) bool { return minor(out[i]) < minor(out[j]) })
	return out, nil
}

func cmdBuild(args []string) error {
	fs := flag.NewFlagSet("build", flag.ExitOnError)
	api := fs.Bool("apiserver", false, "also build kube-apiserver")
	only := fs.String("components", "kubelet", "components to build (comma separated: kubelet,kube-apiserver)")
	_ = fs.Parse(args)
	vs, err := versions(fs.Args())
	if err != nil {
		return err
	}
	for _, v := range vs {
		comps := strings.Split(*only, ",")
		if *api {
			comps = append(comps, "kube-apiserver")
		}
		if err := buildComponents(v, comps...); err != nil {
			return err
		}
	}
	return nil
}

func cmdRun(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	kube := fs.String("kube", "", "kubelet versions, space or comma separated (1.35 means its newest patch)")
	apiV := fs.String("apiserver", "", "kube-apiserver version (default: the newest of -kube)")
	only := fs.String("only", "", "run only scenarios whose name matches this regexp")
	par := fs.Int("parallel", 3, "scenarios run at once (each has its own kubelet, ports, dirs)")
	out := fs.String("out", "testdata/corpus", "corpus directory")
	scen := fs.String("scenarios", filepath.Join("tools", "kubeharness", "scenarios"), "scenario directory")
	work := fs.String("work", hostRoot, "work directory (kubelet root dirs; reads /var/lib/kbl in the logs)")
	apiPort := fs.Int("api-port", 6443, "kube-apiserver port on 127.0.0.1")
	etcdPort := fs.Int("etcd-port", 2379, "etcd client port on 127.0.0.1 (the peer port is the next one)")
	slotBase := fs.Int("slot-base", 0, "first port slot (kubelet ports are 10250+2*slot): lets two runs share a host")
	_ = fs.Parse(args)
	vs, err := versions([]string{*kube})
	if err != nil {
		return err
	}
	if len(vs) == 0 {
		return fmt.Errorf("run: -kube names no version")
	}
	api := vs[len(vs)-1]
	if *apiV != "" {
		if api, err = normVersion(*apiV); err != nil {
			return err
		}
	}
	scs, err := loadScenarios(*scen)
	if err != nil {
		return err
	}
	var re *regexp.Regexp
	if *only != "" {
		if re, err = regexp.Compile(*only); err != nil {
			return fmt.Errorf("-only: %w", err)
		}
	}
	if err := buildComponents(api, "kube-apiserver"); err != nil {
		return err
	}
	for _, v := range vs {
		if err := buildComponents(v, "kubelet"); err != nil {
			return err
		}
	}
	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer cancel()
	absWork, err := filepath.Abs(*work)
	if err != nil {
		return fmt.Errorf("work dir: %w", err)
	}
	cp, err := startControlPlane(ctx, absWork, binPath(api, "kube-apiserver"), *apiPort, *etcdPort)
	if err != nil {
		return err
	}
	defer cp.stop()
	r := &runner{cp: cp, work: absWork, out: *out, slots: make(chan int, *par)}
	for i := 0; i < *par; i++ {
		r.slots <- *slotBase + i
	}
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		results []*runResult
		errs    []string
	)
	begin := time.Now()
	for _, v := range vs {
		for _, sc := range scs {
			if !sc.supports(v) || (re != nil && !re.MatchString(sc.Name)) {
				continue
			}
			wg.Add(1)
			go func(sc *scenario, v string) {
				defer wg.Done()
				fmt.Fprintf(os.Stderr, "kubeharness: %s %s ...\n", v, sc.Name)
				res, err := r.run(ctx, sc, v)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					errs = append(errs, fmt.Sprintf("%s %s: %v", v, sc.Name, err))
					fmt.Fprintf(os.Stderr, "kubeharness: %s %s FAILED: %v\n", v, sc.Name, err)
					return
				}
				fmt.Fprintf(os.Stderr, "kubeharness: %s %s done in %s (%d bytes)\n", v, sc.Name, res.duration.Round(time.Second), res.bytes)
				results = append(results, res)
			}(sc, v)
		}
	}
	wg.Wait()
	fmt.Fprintf(os.Stderr, "kubeharness: %d runs in %s\n", len(results), time.Since(begin).Round(time.Second))
	if err := writeManifest(filepath.Join(*out, "MANIFEST.md"), api, results); err != nil {
		return err
	}
	if len(errs) > 0 {
		return fmt.Errorf("%d runs failed:\n  %s", len(errs), strings.Join(errs, "\n  "))
	}
	return nil
}
