package timeline

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storyStatus is what `kubectl get pods` shows of each harness scenario's
// pod, written from its story (tools/kubeharness/scenarios/*.yaml), not
// from podflow's output. A scenario that cycles (a crash loop: Running,
// the exit's Error, then the back-off) lists every STATUS of its cycle:
// which one the log ends in depends on where the kubelet was when it was
// stopped, and the kubelet's last reported status (lastAPIStatus) says
// which.
var storyStatus = []struct {
	scenario string // file name prefix
	pod      string // pod name prefix (static pods get the node's name)
	want     []string
	sidecars []string // restartable init containers (their spec, not in the status)
}{
	{"01-happy-path", "web-7d9f8c6b5-x2kqp", []string{"Running"}, nil},
	// every pull fails (ErrImagePull), then the kubelet backs off (ImagePullBackOff)
	{"02-image-pull-failure", "api-6f5b9d7c4-pl8wz", []string{"ErrImagePull", "ImagePullBackOff"}, nil},
	{"03-slow-image-pull", "web-slowpull-58c9d-7hxkq", []string{"Running"}, nil},
	{"04-sandbox-failure", "payments-7b4d9c8f6-q9zrt", []string{"Running"}, nil},
	// exits 1 three seconds after every start, restarted with back-off
	{"05-crashloop-backoff", "worker-5d8f7b9c4-m2v6n", []string{"Running", "Error", "CrashLoopBackOff"}, nil},
	{"06-pod-deletion-api", "web-7d9f8c6b5-del42", []string{StatusDeleted}, nil},
	{"06b-static-pod-add-remove", "static-web-", []string{StatusDeleted}, nil},
	{"07-", "", []string{"Running"}, nil}, // every pod of the twelve
	{"08-happy-path-json-v4", "web-json-6b7c9-k4t2p", []string{"Running"}, nil},
	{"09-happy-path-v2", "web-v2-6b7c9-r8s5d", []string{"Running"}, nil},
	// init-config exits 1 after every start (Init:CrashLoopBackOff); while it runs, Init:0/1
	{"10-init-container-crashloop", "web-initfail-6d5c7-b8x4w", []string{"Init:0/1", "Init:Error", "Init:CrashLoopBackOff"}, nil},
	{"11-volume-mount-failure", "web-volfail-7f6b8-d4n8q", []string{"Running"}, nil},
	// every start fails (RunContainerError, exit 128 StartError), then back-off
	{"12-container-start-failure", "shop-api-84d7f9c6d-t5n2j", []string{"RunContainerError", "StartError", "CrashLoopBackOff"}, nil},
	{"13-container-create-error", "cache-5b9c8d7f4-h7w3k", []string{"Running"}, nil},
	// a started sidecar runs beside app: Running, not Init:0/1
	{"14-sidecar-running", "orders-6f8d7c9b5-s1dcr", []string{"Running"}, []string{"log-agent"}},
	// the sidecar crash-loops while app runs: kubectl reads the init
	// container first and keeps its reason (Init:…) beside a running app
	{"15-sidecar-crashloop", "checkout-7c9d8b6f4-sc4rl", []string{"Running", "Init:Error", "Init:CrashLoopBackOff"}, []string{"proxy"}},
	{"16-init-container-fails", "db-migrate-28f6k", []string{"Init:Error"}, nil},
	// killed by its liveness probe and restarted with back-off
	{"17-liveness-probe-restart", "frontend-5c7b9d8f6-lv3pq", []string{"Running", "Error", "CrashLoopBackOff"}, nil},
	// runs, never Ready: kubectl's STATUS is still Running (READY 0/1)
	{"18-readiness-probe-failure", "catalog-6b8c7d9f5-rd2xk", []string{"Running"}, nil},
	{"19-configmap-key-missing", "billing-7d6c8b9f5-ck8mz", []string{"CreateContainerConfigError"}, nil},
	{"20-delete-during-pull", "search-5f9d8c7b6-dp7wn", []string{StatusDeleted}, nil},
	{"21-long-grace-period", "queue-worker-8d7f6c5b9-gr45s", []string{StatusDeleted}, nil},
	{"22-mirror-pod-deleted", "node-agent-", []string{StatusDeleted}, nil},
	{"23-kubelet-restart", "inventory-6c9b8d7f5-rs9tb", []string{"Running"}, nil},
	{"24-inplace-resize", "reports-5d7c9b8f6-rz6vh", []string{"Running"}, nil},
	{"25-pod-level-resources", "analytics-6f9c8d7b5-pl2rs", []string{"Running"}, nil},
	{"26-user-namespaces", "sandboxed-7b8d9c6f5-un4jq", []string{"Running"}, nil},
}

// TestKubectlStatusStories checks STATUS on every corpus scenario of every
// kubelet version against its story and, where the log holds it, against
// the kubelet's own last reported status ("Status for pod updated
// successfully" status={…}) printed by kubectl's rules: the status the API
// server held when the log ended is what kubectl showed.
func TestKubectlStatusStories(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus, "v*", "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range files {
		base := filepath.Base(file)
		for _, st := range storyStatus {
			if !strings.HasPrefix(base, st.scenario) {
				continue
			}
			rel, _ := filepath.Rel(corpus, file)
			t.Run(rel, func(t *testing.T) {
				fl := buildFile(t, file)
				seen := 0
				for i := range fl.Items {
					f := &fl.Items[i]
					if !strings.HasPrefix(f.Pod.Name, st.pod) || (st.pod == "" && !strings.Contains(f.Pod.Name, "-")) {
						continue
					}
					seen++
					checked++
					got := KubectlStatus(f)
					if got != f.Status {
						t.Errorf("%s: Flow.Status %q, KubectlStatus %q", f.Pod.Name, f.Status, got)
					}
					if !contains(st.want, got) {
						t.Errorf("%s: STATUS %q, the story says %v", f.Pod.Name, got, st.want)
					}
					if got == StatusDeleted {
						continue
					}
					api, ok := lastAPIStatus(t, file, f.Pod.Namespace+"/"+f.Pod.Name)
					if !ok {
						continue
					}
					want := printReason(api.toPod(st.sidecars))
					if !contains(st.want, want) {
						t.Errorf("%s: the kubelet's last status prints %q, outside the story's %v", f.Pod.Name, want, st.want)
					}
					if got != want {
						t.Errorf("%s: STATUS %q, the kubelet's last reported status prints %q", f.Pod.Name, got, want)
					}
				}
				if seen == 0 {
					t.Errorf("no pod %q* in %s", st.pod, rel)
				}
			})
		}
	}
	if checked < 100 {
		t.Errorf("checked %d pods, want the whole corpus (100+)", checked)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// apiStatus is the part of a v1.PodStatus printPod reads, as the kubelet
// logs it.
type apiStatus struct {
	Phase      string `json:"phase"`
	Reason     string `json:"reason"`
	Conditions []struct {
		Type   string `json:"type"`
		Status string `json:"status"`
	} `json:"conditions"`
	Inits      []apiContainerStatus `json:"initContainerStatuses"`
	Containers []apiContainerStatus `json:"containerStatuses"`
}

type apiContainerStatus struct {
	Name    string `json:"name"`
	Ready   bool   `json:"ready"`
	Started *bool  `json:"started"`
	State   struct {
		Waiting *struct {
			Reason string `json:"reason"`
		} `json:"waiting"`
		Running    *struct{} `json:"running"`
		Terminated *struct {
			Reason   string `json:"reason"`
			ExitCode int    `json:"exitCode"`
		} `json:"terminated"`
	} `json:"state"`
}

func (s *apiStatus) toPod(sidecars []string) *apiPod {
	p := &apiPod{phase: s.Phase, reason: s.Reason, initCount: len(s.Inits)}
	for _, c := range s.Conditions {
		switch c.Type {
		case "Initialized":
			p.initialized = c.Status == "True"
		case "Ready":
			p.ready = c.Status == "True"
		}
	}
	conv := func(c apiContainerStatus) apiContainer {
		a := apiContainer{name: c.Name, ready: c.Ready, restartable: contains(sidecars, c.Name), started: c.Started != nil && *c.Started}
		switch {
		case c.State.Waiting != nil:
			a.isWaiting, a.waiting = true, c.State.Waiting.Reason
		case c.State.Running != nil:
			a.running = true
		case c.State.Terminated != nil:
			a.terminated, a.termReason, a.exitCode = true, c.State.Terminated.Reason, c.State.Terminated.ExitCode
		}
		return a
	}
	for _, c := range s.Inits {
		p.inits = append(p.inits, conv(c))
	}
	for _, c := range s.Containers {
		p.containers = append(p.containers, conv(c))
	}
	return p
}

// lastAPIStatus reads the pod's last "Status for pod updated successfully"
// line of a klog text log: the status the API server held from then on.
func lastAPIStatus(t *testing.T, file, key string) (*apiStatus, bool) {
	t.Helper()
	fh, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	var last string
	for sc.Scan() {
		line := sc.Text()
		if strings.Contains(line, `"Status for pod updated successfully"`) && strings.Contains(line, ` pod="`+key+`"`) {
			if _, js, ok := strings.Cut(line, " status="); ok {
				last = js
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if last == "" {
		return nil, false
	}
	var s apiStatus
	if err := json.Unmarshal([]byte(last), &s); err != nil {
		t.Fatalf("%s: status of %s: %v", file, key, err)
	}
	return &s, true
}
