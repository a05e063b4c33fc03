package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"sigs.k8s.io/yaml"
)

// scenario is one declarative file under scenarios/: the pods, what the fake
// runtime does, how the kubelet runs, the driver's steps and the story the
// corpus tests assert.
type scenario struct {
	Name       string `json:"name"`
	Story      string `json:"story"`
	MinVersion string `json:"minVersion"` // oldest kubelet minor that supports it, "1.29"
	MaxVersion string `json:"maxVersion"`
	Node       string `json:"node"`      // node name suffix; the version's prefix is added
	Namespace  string `json:"namespace"` // default: the version's namespace
	Flags      []string
	LogFormat  string         `json:"logFormat"` // "json" for the JSON-format run
	Verbosity  int            `json:"verbosity"` // default 4
	Kubelet    map[string]any `json:"kubeletConfig"`
	// Gates are feature gates by minimum version: {"1.33": {"X": true}}.
	Gates      map[string]map[string]bool `json:"featureGates"`
	Runtime    runtimeScript              `json:"runtime"`
	Pods       map[string]json.RawMessage `json:"pods"`
	ConfigMaps map[string]json.RawMessage `json:"configMaps"`
	Steps      []step                     `json:"steps"`
	file       string
}

type runtimeScript struct {
	PodIP          string              `json:"podIP"`
	Latency        map[string]duration `json:"latency"`
	PullDelay      map[string]duration `json:"pullDelay"` // by image substring
	Exits          []exitRule          `json:"exits"`
	Failures       []failureRule       `json:"failures"`
	IgnoreSIGTERM  []string            `json:"ignoreSIGTERM"`
	UserNamespaces bool                `json:"userNamespaces"`
}

// exitRule makes a container exit After its start with Code, for its first
// Starts starts (0: every start).
type exitRule struct {
	Container string   `json:"container"`
	After     duration `json:"after"`
	Code      int32    `json:"code"`
	Starts    int      `json:"starts"`
}

// failureRule makes Call (PullImage, RunPodSandbox, CreateContainer,
// StartContainer) fail for subjects containing Match (image, pod or
// container name) Times times (0: always) with a gRPC Code and Message.
type failureRule struct {
	Call    string `json:"call"`
	Match   string `json:"match"`
	Times   int    `json:"times"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// step is one driver action; exactly one field is set.
type step struct {
	Wait            duration        `json:"wait"`
	Create          string          `json:"create"`
	Delete          string          `json:"delete"`
	Grace           *int            `json:"grace"`
	CreateConfigMap string          `json:"createConfigMap"`
	Static          string          `json:"static"`
	Unstatic        string          `json:"unstatic"`
	RestartKubelet  bool            `json:"restartKubelet"`
	DeleteMirror    string          `json:"deleteMirror"`
	Resize          string          `json:"resize"`
	Patch           json.RawMessage `json:"patch"`
}

func (st step) String() string {
	switch {
	case st.Create != "":
		return "create pod " + st.Create
	case st.Delete != "":
		return "delete pod " + st.Delete
	case st.CreateConfigMap != "":
		return "create configmap " + st.CreateConfigMap
	case st.Static != "":
		return "write static pod manifest " + st.Static
	case st.Unstatic != "":
		return "remove static pod manifest " + st.Unstatic
	case st.RestartKubelet:
		return "restart kubelet"
	case st.DeleteMirror != "":
		return "delete mirror pod " + st.DeleteMirror
	case st.Resize != "":
		return "resize pod " + st.Resize
	}
	return "wait " + st.Wait.D.String()
}

type duration struct{ D time.Duration }

func (d *duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration %s: %w", b, err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("duration %q: %w", s, err)
	}
	d.D = v
	return nil
}

func (r runtimeScript) latency(call string, def time.Duration) time.Duration {
	if d, ok := r.Latency[call]; ok {
		return d.D
	}
	return def
}

func (r runtimeScript) pullDelay(image string) time.Duration {
	keys := make([]string, 0, len(r.PullDelay))
	for k := range r.PullDelay {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if strings.Contains(image, k) {
			return r.PullDelay[k].D
		}
	}
	return r.latency("PullImage", 1200*time.Millisecond)
}

func loadScenarios(dir string) ([]*scenario, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, fmt.Errorf("scenarios: %w", err)
	}
	sort.Strings(files)
	var out []*scenario
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("scenario %s: %w", f, err)
		}
		var sc scenario
		if err := yaml.UnmarshalStrict(b, &sc); err != nil {
			return nil, fmt.Errorf("scenario %s: %w", f, err)
		}
		sc.file = f
		if sc.Name == "" {
			sc.Name = strings.TrimSuffix(filepath.Base(f), ".yaml")
		}
		if sc.Verbosity == 0 {
			sc.Verbosity = 4
		}
		out = append(out, &sc)
	}
	return out, nil
}

// minor is the minor number of "v1.35.2" or "1.35".
func minor(v string) int {
	parts := strings.Split(strings.TrimPrefix(v, "v"), ".")
	if len(parts) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(parts[1])
	return n
}

func (sc *scenario) supports(version string) bool {
	m := minor(version)
	if sc.MinVersion != "" && m < minor(sc.MinVersion) {
		return false
	}
	if sc.MaxVersion != "" && m > minor(sc.MaxVersion) {
		return false
	}
	return true
}
