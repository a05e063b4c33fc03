package parser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDescribeContainers reads the containers sections of pasted kubectl
// describe pod blocks (kubectl's describeStatus: State, Last State with
// Reason, Message, Exit Code, Started and Finished, then Ready and
// Restart Count) as the status manager's "Patch status for pod" records,
// one a container: its pod, a patch holding only what describe states, the
// state's own time or else the block's base with age="<unknown>", its
// lines from the container's name through "Restart Count:". The Events
// table after them is read as before.
func TestDescribeContainers(t *testing.T) {
	mod := utc(2026, 11, 22, 6, 30, 0, 0)
	type ctr struct {
		line, lines int64
		at          time.Time
		pod, patch  string
		age         string
		host        string
	}
	type counts struct{ Records, Continuations, Annotations, Blank, Unrecognized int64 }
	tests := []struct {
		name, path string
		ctrs       []ctr
		rows       int // events rows after them
		stats      counts
		klogYear   int // the year of the klog lines after, read from describe's times
	}{
		{name: "fixture", path: filepath.Join("..", "testdata", "formats", "events", "describe-containers.txt"),
			ctrs: []ctr{
				{line: 16, lines: 13, at: utc(2026, 11, 22, 6, 12, 51, 0), pod: "shop/cart-6f9d7c8b4-r2mzq",
					patch: `{"status":{"initContainerStatuses":[{"containerID":"containerd://7b1e04c2d9a8f3e6b5c4d2a1908f7e6d5c4b3a29180f7e6d5c4b3a2918f0e7d6","image":"registry.example.com/shop/cart-migrate:3.1.0","imageID":"registry.example.com/shop/cart-migrate@sha256:0d4c8a1f2b3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c","name":"migrate","ready":true,"restartCount":0,"state":{"terminated":{"exitCode":0,"finishedAt":"2026-11-22T06:12:51Z","reason":"Completed","startedAt":"2026-11-22T06:12:43Z"}}}]}}`},
				{line: 33, lines: 15, at: mod, pod: "shop/cart-6f9d7c8b4-r2mzq", age: "<unknown>",
					patch: `{"status":{"containerStatuses":[{"containerID":"containerd://c3f5a7e9b1d3f5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b7d9f1a3c5e7b9d1f3a5","image":"registry.example.com/shop/cart:3.1.0","imageID":"registry.example.com/shop/cart@sha256:9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e0f9a8b","lastState":{"terminated":{"exitCode":1,"finishedAt":"2026-11-22T06:24:03Z","reason":"Error","startedAt":"2026-11-22T06:24:02Z"}},"name":"cart","ready":false,"restartCount":7,"state":{"waiting":{"reason":"CrashLoopBackOff"}}}]}}`},
				{line: 57, lines: 10, at: utc(2026, 11, 22, 6, 12, 53, 0), pod: "shop/cart-6f9d7c8b4-r2mzq",
					patch: `{"status":{"containerStatuses":[{"containerID":"containerd://e8d6c4b2a0f8e6d4c2b0a8f6e4d2c0b8a6f4e2d0c8b6a4f2e0d8c6b4a2f0e8d6","image":"registry.example.com/mesh/envoy:1.28.0","imageID":"registry.example.com/mesh/envoy@sha256:1f2e3d4c5b6a7f8e9d0c1b2a3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e","name":"envoy","ready":true,"restartCount":0,"state":{"running":{"startedAt":"2026-11-22T06:12:53Z"}}}]}}`},
			},
			rows: 2, stats: counts{Records: 5, Continuations: 35, Annotations: 41}},
		// keptn#588: a describe block with no Events table, cut after the
		// container's waiting reason.
		{name: "keptn-588", path: filepath.Join("..", "testdata", "wild", "keptn-588-couldnt-find-key.log"),
			ctrs: []ctr{{line: 25, lines: 8, at: mod, pod: "default/klc-post-deployment-greeter-481-57302-x8m2q", age: "<unknown>",
				patch: `{"status":{"containerStatuses":[{"image":"ghcr.io/keptn/functions-runtime:v0.4.1","name":"keptn-function-runner","state":{"waiting":{"reason":"CreateContainerConfigError"}}}]}}`}},
			stats: counts{Records: 1, Continuations: 7, Annotations: 20, Blank: 3, Unrecognized: 2}},
		// k8s#98157: the container's runtime ID and its OOMKilled last
		// state are only in the describe block; the kubelet lines after
		// (January, no year) are read in its year.
		{name: "k8s-98157", path: filepath.Join("..", "testdata", "wild", "k8s-98157-oomkilled-loop.log"),
			ctrs: []ctr{{line: 17, lines: 15, at: time.Date(2021, 1, 16, 15, 31, 57, 0, time.FixedZone("", 8*3600)), pod: "ops-tools/bastion-relay-6c7d84b9f5-q8k2w",
				patch: `{"status":{"containerStatuses":[{"containerID":"docker://5e2c91a7f04b38d6c1e9a72f80b4d3c6157e9a0f2d48b6c3e71a5f09d2c84e61","image":"registry.example.com/base/sshd:v1.0.0","imageID":"docker-pullable://registry.example.com/base/sshd@sha256:4c1e9f07a2d8b35e6f90c14d7a2b8e53f61c09d4a7b2e85f3c06d19a4e7b2c58f","lastState":{"terminated":{"exitCode":137,"finishedAt":"2021-01-16T15:31:55+08:00","reason":"OOMKilled","startedAt":"2021-01-16T15:29:20+08:00"}},"name":"bastion-relay","ready":true,"restartCount":21,"state":{"running":{"startedAt":"2021-01-16T15:31:57+08:00"}}}]}}`}},
			stats: counts{Records: 7, Continuations: 14, Annotations: 27, Blank: 1}, klogYear: 2021},
		// Describe blocks pasted without their "Name:" line, under the
		// command that printed them ("k describe po subpath-emptydir-test",
		// "kubectl describe po nginx"): named by it, their pods' lines
		// counted back from the journal's kubelet lines after them, and on
		// that journal's one host. The evicted pod's own status (Status:
		// Failed, Reason: Evicted, Message: …) is a record of its own; a
		// Pending one without a reason is not.
		{name: "named by k describe po", path: filepath.Join("..", "testdata", "wild", "notes-aks-subpath-unhandled-error.log"),
			ctrs: []ctr{{line: 6, lines: 7, at: utc(2026, 6, 14, 18, 3, 21, 715631000), pod: `{"name":"subpath-emptydir-test"}`, age: "<unknown>", host: "aks-nodepool1-29384756-vmss000002",
				patch: `{"status":{"containerStatuses":[{"name":"app","ready":false,"state":{"waiting":{"reason":"CreateContainerConfigError"}}}]}}`}},
			rows: 3},
		{name: "named by kubectl describe po, evicted", path: filepath.Join("..", "testdata", "wild", "vijayrod-demo-eviction-memory-aks.log"),
			ctrs: []ctr{
				{line: 3, lines: 3, at: utc(2026, 10, 12, 16, 46, 45, 429424000), pod: `{"name":"nginx"}`, age: "<unknown>", host: "aks-nodepool1-58310927-vmss000001",
					patch: `{"status":{"message":"The node was low on resource: memory. Threshold quantity: 750Mi, available: 231464Ki. Container nginx was using 4412088Ki, request is 0, has larger consumption of memory.","phase":"Failed","reason":"Evicted"}}`},
				{line: 10, lines: 20, at: utc(2026, 10, 12, 16, 46, 45, 429424000), pod: `{"name":"nginx"}`, age: "<unknown>", host: "aks-nodepool1-58310927-vmss000001",
					patch: `{"status":{"containerStatuses":[{"image":"nginx","lastState":{"terminated":{"exitCode":137,"message":"The container could not be located when the pod was deleted.  The container used to be Running","reason":"ContainerStatusUnknown"}},"name":"nginx","ready":false,"restartCount":1,"state":{"terminated":{"exitCode":137,"message":"The container could not be located when the pod was terminated","reason":"ContainerStatusUnknown"}}}]}}`},
			},
			rows: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, workers := range []int{1, 3} {
				recs, st := readAll(t, tt.path, Options{ModTime: mod, Workers: workers, ChunkBytes: 64})
				if !st.Accounted() {
					t.Errorf("workers %d: lines not accounted: %+v", workers, st)
				}
				var got []Record
				rows, klog := 0, 0
				for _, r := range recs {
					switch r.Format {
					case FormatDescribe:
						got = append(got, r)
					case FormatEventTable:
						rows++
					case FormatKlog, FormatKlogLegacy:
						if tt.klogYear != 0 && r.Time.Year() != tt.klogYear {
							t.Errorf("workers %d: line %d read in %d, want %d", workers, r.Pos.Line, r.Time.Year(), tt.klogYear)
						}
						klog++
					}
				}
				if len(got) != len(tt.ctrs) || rows != tt.rows {
					t.Fatalf("workers %d: %d describe records and %d events rows, want %d and %d", workers, len(got), rows, len(tt.ctrs), tt.rows)
				}
				if tt.stats != (counts{}) {
					c := counts{Records: st.Records, Continuations: st.Continuations, Annotations: st.Annotations, Blank: st.Blank, Unrecognized: st.Unrecognized}
					if c != tt.stats {
						t.Errorf("workers %d: stats %+v, want %+v", workers, c, tt.stats)
					}
				}
				for i, w := range tt.ctrs {
					r := &got[i]
					if r.Msg != "Patch status for pod" || r.Component != "kubelet" || r.Verbosity != -1 {
						t.Errorf("container %d: msg %q component %q verbosity %d", i, r.Msg, r.Component, r.Verbosity)
					}
					if r.Pos.Line != w.line || int64(r.Pos.Lines) != w.lines {
						t.Errorf("container %d: lines %d+%d, want %d+%d", i, r.Pos.Line, r.Pos.Lines, w.line, w.lines)
					}
					if !r.Time.Equal(w.at) {
						t.Errorf("container %d: time %v, want %v", i, r.Time, w.at)
					}
					pod, _ := r.Field("pod")
					podText := pod.String()
					if pod.Kind == KindObject {
						podText = pod.Str // its JSON
					}
					for _, c := range []struct{ key, got, want string }{
						{"pod", podText, w.pod}, {"patch", r.Str("patch"), w.patch}, {"age", r.Str("age"), w.age}, {"host", r.Host, w.host},
					} {
						if c.got != c.want {
							t.Errorf("container %d: %s\n %s\nwant\n %s", i, c.key, c.got, c.want)
						}
					}
				}
			}
		})
	}
}

// TestDescribeContainerStates: of a container's states describe shows,
// only what it states goes into the patch. On the evicted nginx's lines
// (VijayRod's demo, under a "Name:" line: the paste had none), the
// times the API left unset (year 1) are none, and so the record's time is
// the block's base; a terminated state cut before its exit code is left
// out, as is a container described without its status.
func TestDescribeContainerStates(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "wild", "vijayrod-demo-eviction-memory-aks.log"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	from, to := strings.Index(text, "Containers:"), strings.Index(text, "Conditions:")
	block := "Name:             nginx\nNamespace:        default\n" + text[from:to]
	mod := utc(2026, 11, 22, 6, 30, 0, 0)
	recs, st := readRecords(t, strings.NewReader(block), Options{ModTime: mod})
	if !st.Accounted() || len(recs) != 1 {
		t.Fatalf("%d records, stats %+v: want 1", len(recs), st)
	}
	r := &recs[0]
	want := `{"status":{"containerStatuses":[{"image":"nginx","lastState":{"terminated":{"exitCode":137,"message":"The container could not be located when the pod was deleted.  The container used to be Running","reason":"ContainerStatusUnknown"}},"name":"nginx","ready":false,"restartCount":1,"state":{"terminated":{"exitCode":137,"message":"The container could not be located when the pod was terminated","reason":"ContainerStatusUnknown"}}}]}}`
	if got := r.Str("patch"); got != want {
		t.Errorf("patch\n %s\nwant\n %s", got, want)
	}
	if !r.Time.Equal(mod) || r.Str("age") != "<unknown>" {
		t.Errorf("time %v age %q: want the base, %v, and an unknown age", r.Time, r.Str("age"), mod)
	}

	cut := strings.Join([]string{
		"Name:         app-0",
		"Namespace:    demo",
		"Containers:",
		"  app:",
		"    Image:          busybox:1.36",
		"    State:          Terminated",
		"      Reason:       Error",
		"  side:",
		"    Image:          busybox:1.36",
		"",
	}, "\n")
	recs, _ = readRecords(t, strings.NewReader(cut), Options{ModTime: mod})
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for i, want := range []string{
		`{"status":{"containerStatuses":[{"image":"busybox:1.36","name":"app"}]}}`,
		`{"status":{"containerStatuses":[{"image":"busybox:1.36","name":"side"}]}}`,
	} {
		if got := recs[i].Str("patch"); got != want {
			t.Errorf("record %d: patch %s, want %s", i, got, want)
		}
	}
}

// TestDescribeCommand: the command lines that name the pod of the
// describe block after them, behind prompts and wrappers, with the
// namespace flags; those that describe no pod, or several, or are prose,
// name none.
func TestDescribeCommand(t *testing.T) {
	for _, tc := range []struct{ line, ns, name string }{
		{"kubectl describe po nginx", "", "nginx"},
		{"k describe po subpath-emptydir-test", "", "subpath-emptydir-test"},
		{"$ kubectl describe pod web-0 -n shop", "shop", "web-0"},
		{"# kubectl -n kube-system describe pods coredns-5d78c9869d-x2k4q", "kube-system", "coredns-5d78c9869d-x2k4q"},
		{"root:~# kubectl describe pod/app-1 --namespace=demo", "demo", "app-1"},
		{"root@aks-nodepool1-29384756-vmss000002:/# sudo kubectl describe po app --namespace demo | less", "demo", "app"},
		{"[user@host ~]$ oc describe pod router-1-abcde -nopenshift-ingress", "openshift-ingress", "router-1-abcde"},
		{"$ microk8s kubectl --context prod describe pod api-7f9c", "", "api-7f9c"},
		{"kubectl describe pod", "", ""},                                  // no pod
		{"kubectl describe pods -l app=web", "", ""},                      // a selector: several pods
		{"kubectl describe pod a b", "", ""},                              // two pods
		{"kubectl describe node aks-nodepool1-1", "", ""},                 // a node
		{"To see why, run kubectl describe pod nginx", "", ""},            // prose
		{"kubectl describe pod Nginx", "", ""},                            // no object name
		{"kubectl get pod nginx -o yaml | kubectl describe -f -", "", ""}, // a pipe
	} {
		ns, name, ok := describeCommand([]byte(tc.line))
		if ok != (tc.name != "") || ns != tc.ns || name != tc.name {
			t.Errorf("%q: %q %q %v, want %q %q", tc.line, ns, name, ok, tc.ns, tc.name)
		}
	}
}

// TestDescribePodStatus: the pod's own status in a describe block (kubectl
// describePod's Status, Reason and Message) is read when it says more
// than the containers do (a phase that ended, a reason), for a block that
// is a pod's; not for a volume's (a PersistentVolume's Status may be
// Failed, with a Message). The host of an input with no journal is none.
func TestDescribePodStatus(t *testing.T) {
	mod := utc(2026, 11, 22, 6, 30, 0, 0)
	read := func(lines ...string) []Record {
		recs, st := readRecords(t, strings.NewReader(strings.Join(lines, "\n")+"\n"), Options{ModTime: mod})
		if !st.Accounted() {
			t.Errorf("lines not accounted: %+v", st)
		}
		var out []Record
		for _, r := range recs {
			if r.Format == FormatDescribe {
				out = append(out, r)
			}
		}
		return out
	}
	recs := read("Name:         job-x-4kq2z", "Namespace:    batch", "Priority:     0", "Node:         node-1/10.0.0.4",
		"Status:       Failed", "IP:           10.244.0.9", "Containers:")
	if len(recs) != 1 || recs[0].Str("patch") != `{"status":{"phase":"Failed"}}` || recs[0].Str("pod") != "batch/job-x-4kq2z" || recs[0].Pos.Line != 5 || recs[0].Host != "" {
		t.Errorf("a Failed phase: %+v", recs)
	}
	recs = read("Name:         web-0", "Namespace:    shop", "Node:         node-1/10.0.0.4", "Status:       Pending",
		"Reason:       UnexpectedAdmissionError", "Message:      Pod was rejected: Allocate failed due to no healthy devices present", "IP:")
	if len(recs) != 1 || recs[0].Str("patch") != `{"status":{"message":"Pod was rejected: Allocate failed due to no healthy devices present","phase":"Pending","reason":"UnexpectedAdmissionError"}}` ||
		recs[0].Pos.Line != 5 || recs[0].Pos.Lines != 2 {
		t.Errorf("a reason: %+v", recs)
	}
	if recs := read("Name:         web-0", "Namespace:    shop", "Node:         node-1/10.0.0.4", "Status:       Running", "IP:"); len(recs) != 0 {
		t.Errorf("Running alone: %d records, want none", len(recs))
	}
	if recs := read("Name:            pvc-3f2a", "Labels:          <none>", "StorageClass:    standard", "Status:          Failed",
		"Claim:           db/data-0", "Message:         Error deleting EBS volume"); len(recs) != 0 {
		t.Errorf("a volume's status: %d records, want none", len(recs))
	}
}
