package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImageOnlyPullFailures: the image service client's failure lines name
// only the image (remote_image.go "PullImage from image service failed",
// ≤1.20 `PullImage "<image>" from image service failed: …`;
// kuberuntime_image.go "Failed to pull image" / `Pull image "<image>"
// failed: …`; containerd's `PullImage "<image>" failed`). With no line
// tying the image to a container they are unattributed, with their error;
// a line that does (the Pulling or BackOff event, the ImagePullBackOff sync
// error's "Back-off pulling image", the runtime manager's
// &Container{Name:…,Image:…}), before or after them, makes them image-stage
// failures of that container.
func TestImageOnlyPullFailures(t *testing.T) {
	// lines are the given lines (1-based) of a file, in the order given.
	lines := func(path string, nums ...int) []byte {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		all := strings.Split(string(data), "\n")
		var out []string
		for _, n := range nums {
			out = append(out, all[n-1])
		}
		return []byte(strings.Join(out, "\n") + "\n")
	}
	whole := func(path string) []byte {
		t.Helper()
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	c36 := filepath.Join(corpus, "v1.36.3/02-image-pull-failure.log")
	c28 := filepath.Join(corpus, "v1.28.15/02-image-pull-failure.log")
	wild := func(name string) string { return filepath.Join("../testdata/wild", name) }
	// The pod's SyncLoop ADD (the events name a known pod); containerd's
	// own failure (its PullImage in cri's image_pull.go), and
	// the kubelet's BackOff event for the image, in one journal.
	add := `Nov 22 06:05:35 node-1 kubelet[25019]: I1122 06:05:35.500277   25019 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/api-6f5b9d7c4-pl8wz"]` + "\n"
	containerd := `Nov 22 06:05:37 node-1 containerd[811]: time="2026-11-22T06:05:37.450000000Z" level=error msg="PullImage \"docker.io/library/nginx:1.27.99\" failed" error="rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/nginx:1.27.99\": not found"` + "\n"
	backOff := `Nov 22 06:05:37 node-1 kubelet[25019]: I1122 06:05:37.747452   25019 event.go:389] "Event occurred" object="default/api-6f5b9d7c4-pl8wz" fieldPath="spec.containers{api}" kind="Pod" apiVersion="v1" type="Normal" reason="BackOff" message="Back-off pulling image \"docker.io/library/nginx:1.27.99\""` + "\n"
	for _, tc := range []struct {
		name string
		data []byte
		// unattributed is how many lines stay unattributed, each with
		// errHas in its text; with none, pod's container ctr has a failed
		// image stage whose reason has errHas, attempts times.
		unattributed   int
		pod, ctr       string
		attempts       int
		errHas         string
		evidenceHasMsg string
	}{
		{name: "1.36 failure alone", data: lines(c36, 800), unattributed: 1, errHas: "nginx:1.27.99: not found"},
		{name: "1.36 Pulling event before", data: lines(c36, 721, 790, 800), pod: "api-6f5b9d7c4-pl8wz", ctr: "api", attempts: 1, errHas: "not found", evidenceHasMsg: "PullImage from image service failed"},
		{name: "1.36 Pulling event after", data: lines(c36, 721, 800, 790), pod: "api-6f5b9d7c4-pl8wz", ctr: "api", attempts: 1, errHas: "not found", evidenceHasMsg: "PullImage from image service failed"},
		// The status patch after the failure names api's image.
		{name: "1.36 status patch after", data: lines(c36, 721, 800, 839), pod: "api-6f5b9d7c4-pl8wz", ctr: "api", attempts: 1, errHas: "not found", evidenceHasMsg: "PullImage from image service failed"},
		// Two lines of one failure (remote_image.go, kuberuntime_image.go):
		// one attempt; the &Container{…,Image:…} of the V3 "Container start
		// failed in pod" ties them to api.
		{name: "1.28 &Container after", data: lines(c28, 760, 761, 789), pod: "api-6f5b9d7c4-pl8wz", ctr: "api", attempts: 1, errHas: "not found", evidenceHasMsg: "Failed to pull image"},
		{name: "1.28 failure lines alone", data: lines(c28, 760, 761), unattributed: 2, errHas: "not found"},
		// k8s-111528: the ImagePullBackOff sync error names the image.
		{name: "k8s-111528 whole", data: whole(wild("k8s-111528-private-timeout.log")), pod: "webapp-5c8b7d9f6d-r4t7x", ctr: "webapp", attempts: 1, errHas: "context deadline exceeded", evidenceHasMsg: "PullImage from image service failed"},
		{name: "k8s-111528 failure lines alone", data: lines(wild("k8s-111528-private-timeout.log"), 5, 6), unattributed: 2, errHas: "context deadline exceeded"},
		// ≤1.20 printf forms (minikube-9118): the error is in the message.
		{name: "minikube-9118 whole", data: whole(wild("minikube-9118-pull-denied.log")), pod: "shop-frontend-7c9d58b4f6-t9lzr", ctr: "shop-frontend", attempts: 1, errHas: "pull access denied for shop-frontend", evidenceHasMsg: `PullImage "shop-frontend:1.0" from image service failed`},
		// minikube-9161: no line names the image with its container.
		{name: "minikube-9161 whole", data: whole(wild("minikube-9161-no-basic-auth.log")), unattributed: 2, errHas: "no basic auth credentials"},
		{name: "containerd alone", data: []byte(containerd), unattributed: 1, errHas: "not found"},
		{name: "containerd, BackOff event after", data: []byte(add + containerd + backOff), pod: "api-6f5b9d7c4-pl8wz", ctr: "api", attempts: 1, errHas: "not found", evidenceHasMsg: `PullImage "docker.io/library/nginx:1.27.99" failed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fl := buildBytes(t, tc.name, tc.data)
			if fl.Summary.Unattributed != tc.unattributed || len(fl.Unattributed) != tc.unattributed {
				t.Fatalf("unattributed %d (%d kept), want %d: %+v", fl.Summary.Unattributed, len(fl.Unattributed), tc.unattributed, fl.Unattributed)
			}
			for _, ev := range fl.Unattributed {
				if !strings.Contains(ev.Text, tc.errHas) {
					t.Errorf("unattributed %q lacks its error %q", ev.Text, tc.errHas)
				}
			}
			if tc.pod == "" {
				return
			}
			s := cstage(containerOf(onlyFlow(t, fl, tc.pod), tc.ctr), CStImage)
			if s.Attempts != tc.attempts || !strings.Contains(s.Reason, tc.errHas) {
				t.Errorf("image stage: %d attempts, reason %q; want %d, …%s…", s.Attempts, s.Reason, tc.attempts, tc.errHas)
			}
			found := false
			for _, ev := range s.Evidence {
				found = found || strings.Contains(ev.Text, tc.evidenceHasMsg)
			}
			if !found {
				t.Errorf("image stage evidence lacks %q: %+v", tc.evidenceHasMsg, s.Evidence)
			}
		})
	}
}
