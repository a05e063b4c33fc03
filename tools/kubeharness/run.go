package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"sigs.k8s.io/yaml"
)

// hostRoot is what the work directory reads in committed logs (the
// MANIFEST's rewrite: the kubelet's run directory reads /var/lib/kbl).
const hostRoot = "/var/lib/kbl"

// runner runs scenarios of one harness invocation.
type runner struct {
	cp    *controlPlane
	work  string
	out   string // testdata/corpus
	mu    sync.Mutex
	slots chan int // free port slots
}

// runResult is what a MANIFEST row needs.
type runResult struct {
	sc       *scenario
	version  string
	file     string
	node     string
	ns       string
	cmdline  []string
	started  time.Time
	actions  []string
	figures  []string
	bytes    int
	lines    int
	duration time.Duration
}

func versionNamespace(version string) string {
	return fmt.Sprintf("shop-%d", minor(version))
}

func nodePrefix(version string) string {
	return fmt.Sprintf("kb%d-", minor(version))
}

func (r *runner) kubeletConfig(sc *scenario, version, dir string, slot int) ([]byte, error) {
	cfg := map[string]any{
		"apiVersion":                       "kubelet.config.k8s.io/v1beta1",
		"kind":                             "KubeletConfiguration",
		"address":                          "127.0.0.1",
		"port":                             10250 + 2*slot,
		"readOnlyPort":                     0,
		"healthzBindAddress":               "127.0.0.1",
		"healthzPort":                      10251 + 2*slot,
		"authentication":                   map[string]any{"anonymous": map[string]any{"enabled": true}, "webhook": map[string]any{"enabled": false}},
		"authorization":                    map[string]any{"mode": "AlwaysAllow"},
		"cgroupDriver":                     "cgroupfs",
		"cgroupsPerQOS":                    false,
		"enforceNodeAllocatable":           []string{},
		"failSwapOn":                       false,
		"staticPodPath":                    filepath.Join(dir, "manifests"),
		"fileCheckFrequency":               "5s",
		"syncFrequency":                    "30s",
		"imageGCHighThresholdPercent":      100,
		"imageGCLowThresholdPercent":       99,
		"evictionHard":                     map[string]string{"memory.available": "1Mi"},
		"evictionPressureTransitionPeriod": "5s",
		"localStorageCapacityIsolation":    false,
		"serializeImagePulls":              false,
		"registerNode":                     true,
		"clusterDomain":                    "cluster.local",
		"clusterDNS":                       []string{"10.0.0.10"},
		"containerRuntimeEndpoint":         "unix://" + filepath.Join(dir, "fakecri.sock"),
	}
	if minor(version) >= 31 {
		// The host is cgroup v1; from 1.35 the kubelet refuses it unless told.
		cfg["failCgroupV1"] = false
	}
	if sc.LogFormat == "json" {
		cfg["logging"] = map[string]any{"format": "json"}
	}
	gates := map[string]bool{}
	for v, g := range sc.Gates {
		if minor(version) >= minor(v) {
			for k, on := range g {
				gates[k] = on
			}
		}
	}
	if len(gates) > 0 {
		cfg["featureGates"] = gates
	}
	for k, v := range sc.Kubelet {
		cfg[k] = v
	}
	return yaml.Marshal(cfg)
}

// kubeletProc is the running kubelet of a scenario.
type kubeletProc struct {
	cmd  *exec.Cmd
	done chan struct{}
}

func startKubelet(bin string, args []string, logf *os.File) (*kubeletProc, error) {
	c := exec.Command(bin, args...)
	c.Stdout, c.Stderr = logf, logf
	if err := c.Start(); err != nil {
		return nil, fmt.Errorf("start kubelet: %w", err)
	}
	k := &kubeletProc{cmd: c, done: make(chan struct{})}
	go func() { _ = c.Wait(); close(k.done) }()
	return k, nil
}

func (k *kubeletProc) term() {
	_ = k.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-k.done:
	case <-time.After(30 * time.Second):
		_ = k.cmd.Process.Kill()
		<-k.done
	}
}

func (r *runner) run(ctx context.Context, sc *scenario, version string) (*runResult, error) {
	slot := <-r.slots
	defer func() { r.slots <- slot }()
	start := time.Now()
	ns := sc.Namespace
	if ns == "" {
		ns = versionNamespace(version)
	}
	if err := r.cp.ensureNamespace(ctx, ns); err != nil {
		return nil, err
	}
	dir := filepath.Join(r.work, "run", version, sc.Name)
	unmountUnder(dir)
	_ = os.RemoveAll(dir)
	for _, d := range []string{"manifests", "root", "certs"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			return nil, fmt.Errorf("run dir: %w", err)
		}
	}
	cfg, err := r.kubeletConfig(sc, version, dir, slot)
	if err != nil {
		return nil, fmt.Errorf("kubelet config: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kubelet-config.yaml"), cfg, 0o644); err != nil {
		return nil, fmt.Errorf("kubelet config: %w", err)
	}
	sh := newShim(sc.Runtime)
	if err := sh.serve(filepath.Join(dir, "fakecri.sock")); err != nil {
		return nil, err
	}
	defer sh.stop()

	node := nodePrefix(version) + sc.Node
	// The kubelet runs through a link named by version, so that two
	// versions' command lines differ only where they should.
	bin := filepath.Join(r.work, "bin", "kubelet-"+version)
	_ = os.MkdirAll(filepath.Dir(bin), 0o755)
	_ = os.Remove(bin)
	if err := os.Symlink(binPath(version, "kubelet"), bin); err != nil {
		return nil, fmt.Errorf("link kubelet: %w", err)
	}
	args := []string{
		"--config=" + filepath.Join(dir, "kubelet-config.yaml"),
		"--kubeconfig=" + r.cp.kubecfg,
		"--hostname-override=" + node,
		"--root-dir=" + filepath.Join(dir, "root"),
		"--cert-dir=" + filepath.Join(dir, "certs"),
		fmt.Sprintf("--v=%d", sc.Verbosity),
	}
	args = append(args, sc.Flags...)
	raw := filepath.Join(dir, "kubelet.log")
	logf, err := os.Create(raw)
	if err != nil {
		return nil, fmt.Errorf("kubelet log: %w", err)
	}
	defer logf.Close()
	res := &runResult{sc: sc, version: version, node: node, ns: ns, cmdline: append([]string{bin}, args...), started: time.Now().UTC()}
	k, err := startKubelet(bin, args, logf)
	if err != nil {
		return nil, err
	}
	defer func() {
		if k != nil {
			k.term()
		}
	}()
	if err := r.waitNodeReady(ctx, node, k); err != nil {
		return nil, err
	}
	act := func(format string, a ...any) {
		res.actions = append(res.actions, time.Now().UTC().Format("15:04:05.000")+" "+fmt.Sprintf(format, a...))
	}
	names := map[string]string{}
	for _, st := range sc.Steps {
		switch {
		case st.Create != "":
			name, err := r.createPod(ctx, sc, st.Create, ns, node)
			if err != nil {
				return nil, err
			}
			names[st.Create] = name
			act("POST pod %s/%s", ns, name)
		case st.Delete != "":
			q := ""
			if st.Grace != nil {
				q = fmt.Sprintf("?gracePeriodSeconds=%d", *st.Grace)
			}
			if _, err := r.cp.must(ctx, "DELETE", "/api/v1/namespaces/"+ns+"/pods/"+names[st.Delete]+q, nil, ""); err != nil {
				return nil, err
			}
			act("DELETE pod %s/%s%s", ns, names[st.Delete], q)
		case st.CreateConfigMap != "":
			body, ok := sc.ConfigMaps[st.CreateConfigMap]
			if !ok {
				return nil, fmt.Errorf("%s: no configMap %q", sc.Name, st.CreateConfigMap)
			}
			obj := map[string]any{}
			if err := json.Unmarshal(body, &obj); err != nil {
				return nil, fmt.Errorf("%s: configMap %s: %w", sc.Name, st.CreateConfigMap, err)
			}
			obj["apiVersion"], obj["kind"] = "v1", "ConfigMap"
			obj["metadata"] = map[string]any{"name": st.CreateConfigMap}
			b, _ := json.Marshal(obj)
			// Scenarios of one version share a namespace: an existing
			// ConfigMap of the same name is the same ConfigMap.
			if _, code, err := r.cp.do(ctx, "POST", "/api/v1/namespaces/"+ns+"/configmaps", b, ""); err != nil || (code/100 != 2 && code != 409) {
				return nil, fmt.Errorf("%s: create configmap %s: HTTP %d %v", sc.Name, st.CreateConfigMap, code, err)
			}
			act("POST configmap %s/%s", ns, st.CreateConfigMap)
		case st.Static != "":
			pod, err := r.podObject(sc, st.Static, ns, "")
			if err != nil {
				return nil, err
			}
			b, _ := yaml.Marshal(pod)
			if err := os.WriteFile(filepath.Join(dir, "manifests", st.Static+".yaml"), b, 0o644); err != nil {
				return nil, fmt.Errorf("static pod: %w", err)
			}
			act("write static pod manifest %s.yaml", st.Static)
		case st.Unstatic != "":
			if err := os.Remove(filepath.Join(dir, "manifests", st.Unstatic+".yaml")); err != nil {
				return nil, fmt.Errorf("static pod: %w", err)
			}
			act("remove static pod manifest %s.yaml", st.Unstatic)
		case st.RestartKubelet:
			k.term()
			act("SIGTERM kubelet (restart)")
			if k, err = startKubelet(bin, args, logf); err != nil {
				return nil, err
			}
			act("kubelet started again")
		case st.DeleteMirror != "":
			pod, err := r.podObject(sc, st.DeleteMirror, ns, "")
			if err != nil {
				return nil, err
			}
			name := pod["metadata"].(map[string]any)["name"].(string) + "-" + node
			if _, err := r.cp.must(ctx, "DELETE", "/api/v1/namespaces/"+ns+"/pods/"+name, nil, ""); err != nil {
				return nil, err
			}
			act("DELETE mirror pod %s/%s", ns, name)
		case st.Resize != "":
			if _, err := r.cp.must(ctx, "PATCH", "/api/v1/namespaces/"+ns+"/pods/"+names[st.Resize]+"/resize", st.Patch, "application/strategic-merge-patch+json"); err != nil {
				return nil, err
			}
			act("PATCH pod %s/%s resize %s", ns, names[st.Resize], compact(st.Patch))
		default:
			select {
			case <-time.After(st.Wait.D):
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-k.done:
				return nil, fmt.Errorf("%s %s: kubelet exited early (see %s)", version, sc.Name, raw)
			}
		}
	}
	k.term()
	act("SIGTERM kubelet")
	k = nil
	unmountUnder(dir)
	res.duration = time.Since(start)
	return res, r.publish(res, raw)
}

func compact(b []byte) string {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return string(b)
	}
	return buf.String()
}

func (r *runner) waitNodeReady(ctx context.Context, node string, k *kubeletProc) error {
	deadline := time.Now().Add(3 * time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-k.done:
			return fmt.Errorf("kubelet for %s exited before its node was Ready", node)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
		b, code, err := r.cp.do(ctx, "GET", "/api/v1/nodes/"+url.PathEscape(node), nil, "")
		if err != nil || code != 200 {
			continue
		}
		var n struct {
			Status struct {
				Conditions []struct{ Type, Status string }
			}
		}
		if json.Unmarshal(b, &n) == nil {
			for _, c := range n.Status.Conditions {
				if c.Type == "Ready" && c.Status == "True" {
					return nil
				}
			}
		}
	}
	return fmt.Errorf("node %s not Ready after 3m", node)
}

// podObject is the scenario's pod key with namespace and node filled in;
// node "" is a static pod (the kubelet fills its node).
func (r *runner) podObject(sc *scenario, key, ns, node string) (map[string]any, error) {
	body, ok := sc.Pods[key]
	if !ok {
		return nil, fmt.Errorf("%s: no pod %q", sc.Name, key)
	}
	pod := map[string]any{}
	if err := json.Unmarshal(body, &pod); err != nil {
		return nil, fmt.Errorf("%s: pod %s: %w", sc.Name, key, err)
	}
	pod["apiVersion"], pod["kind"] = "v1", "Pod"
	meta, _ := pod["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
		pod["metadata"] = meta
	}
	meta["namespace"] = ns
	if meta["name"] == nil && meta["generateName"] == nil {
		meta["name"] = key
	}
	spec, _ := pod["spec"].(map[string]any)
	if spec == nil {
		return nil, fmt.Errorf("%s: pod %s has no spec", sc.Name, key)
	}
	if node != "" {
		spec["nodeName"] = node
	}
	return pod, nil
}

func (r *runner) createPod(ctx context.Context, sc *scenario, key, ns, node string) (string, error) {
	pod, err := r.podObject(sc, key, ns, node)
	if err != nil {
		return "", err
	}
	b, _ := json.Marshal(pod)
	out, err := r.cp.must(ctx, "POST", "/api/v1/namespaces/"+ns+"/pods", b, "")
	if err != nil {
		return "", err
	}
	var created struct{ Metadata struct{ Name string } }
	if err := json.Unmarshal(out, &created); err != nil {
		return "", fmt.Errorf("created pod: %w", err)
	}
	return created.Metadata.Name, nil
}

var startupRE = regexp.MustCompile(`"Observed pod startup duration" pod="([^"]+)" podStartSLOduration=([0-9.]+)(?: podStartE2EDuration="([^"]+)")?`)

// publish rewrites host paths (the work directory reads /var/lib/kbl, and
// nothing else changes), writes the log into the corpus and its row.
func (r *runner) publish(res *runResult, raw string) error {
	b, err := os.ReadFile(raw)
	if err != nil {
		return fmt.Errorf("read log: %w", err)
	}
	if r.work != hostRoot {
		b = bytes.ReplaceAll(b, []byte(r.work), []byte(hostRoot))
	}
	for i, a := range res.cmdline {
		res.cmdline[i] = strings.ReplaceAll(a, r.work, hostRoot)
	}
	res.file = filepath.Join(res.version, res.sc.Name+".log")
	dst := filepath.Join(r.out, res.file)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return fmt.Errorf("corpus dir: %w", err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	res.bytes = len(b)
	res.lines = bytes.Count(b, []byte("\n"))
	for _, m := range startupRE.FindAllSubmatch(b, -1) {
		f := fmt.Sprintf("%s podStartSLOduration=%s", m[1], m[2])
		if len(m[3]) > 0 {
			f += " podStartE2EDuration=" + string(m[3])
		}
		res.figures = append(res.figures, f)
	}
	if res.sc.LogFormat == "json" {
		for _, line := range bytes.Split(b, []byte("\n")) {
			if !bytes.Contains(line, []byte(`"Observed pod startup duration"`)) {
				continue
			}
			var m map[string]any
			if json.Unmarshal(line, &m) == nil {
				res.figures = append(res.figures, fmt.Sprintf("%v podStartSLOduration=%v podStartE2EDuration=%v", m["pod"], m["podStartSLOduration"], m["podStartE2EDuration"]))
			}
		}
	}
	return nil
}
