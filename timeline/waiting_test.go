package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What the pod waits on when the log ends, on real kubelets' logs and
// pasted excerpts, each row written from the log's story: what holds the
// pod, and the words that say why.
func TestWaitingOn(t *testing.T) {
	head := func(path string, n int) string { // the first n lines, as head -n writes them
		data, err := os.ReadFile(filepath.Join(corpus, path))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.SplitAfter(string(data), "\n")
		out := filepath.Join(t.TempDir(), "head.log")
		if err := os.WriteFile(out, []byte(strings.Join(lines[:n], "")), 0o644); err != nil {
			t.Fatal(err)
		}
		return out
	}
	for _, tc := range []struct {
		file, pod string
		want      []string // "" alone: waits on nothing
	}{
		// The pull is still going when the cut log ends: its own clock.
		{head("v1.36.3/03-slow-image-pull.log", 1500), "web-slowpull-58c9d-7hxkq",
			[]string{"the pull of image docker.io/library/nginx:1.27.3 for container nginx, under way for 19.5s"}},
		{filepath.Join(corpus, "v1.36.3/02-image-pull-failure.log"), "api-6f5b9d7c4-pl8wz",
			[]string{"the pull of image docker.io/library/nginx:1.27.99 for container api, backing off (3 failed pulls", "nginx:1.27.99: not found"}},
		{filepath.Join(corpus, "v1.36.3/05-crashloop-backoff.log"), "worker-5d8f7b9c4-m2v6n",
			[]string{"the restart back-off of container worker (CrashLoopBackOff: ", "last exit code 1)"}},
		{filepath.Join(corpus, "v1.36.3/12-container-start-failure.log"), "shop-api-84d7f9c6d-t5n2j",
			[]string{"the start of container api (", "failed attempts", "/docker-entrypoint.sh"}},
		{filepath.Join(corpus, "v1.37.2/19-configmap-key-missing.log"), "billing-7d6c8b9f5-ck8mz",
			[]string{"the config of container api", "couldn't find key LOG_LEVEL in ConfigMap shop-37/app-settings"}},
		{filepath.Join(corpus, "v1.37.2/18-readiness-probe-failure.log"), "catalog-6b8c7d9f5-rd2xk",
			[]string{"the readiness probe of container web: Readiness probe failed", "connection refused"}},
		{filepath.Join(corpus, "v1.37.2/10-init-container-crashloop.log"), "web-initfail-6d5c7-b8x4w",
			[]string{"the restart back-off of init container init-config (CrashLoopBackOff"}},
		// A job that failed for good (restartPolicy Never) and a happy pod
		// wait on nothing.
		{filepath.Join(corpus, "v1.37.2/16-init-container-fails.log"), "db-migrate-28f6k", []string{""}},
		{filepath.Join(corpus, "v1.36.3/01-happy-path.log"), "web-7d9f8c6b5-x2kqp", []string{""}},
		{"../testdata/wild/k8s-90725-configmap-notfound.log", "kube-apiserver-7b5c9d8f46-x9w2p",
			[]string{`volume "config": ConfigMap kube-apiserver, which does not exist`}},
		{"../testdata/wild/k8s-108963-nfs-access-denied.log", "notes-db-6b8f7c9d54-h7kxp",
			[]string{`volume "pv07" mount (3 failed mounts`, "access denied by server"}},
		{"../testdata/wild/ceph-csi-3476-attacher-timeout.log", "cephfs-app-pod-2",
			[]string{`volume "shared-fs" mount`}},
		{"../testdata/wild/calico-4308-k3s-loopback.log", "coredns-8655855d6-z7rkd",
			[]string{"RunPodSandbox, in the network (CNI) plugin", `failed to find plugin "loopback"`}},
	} {
		t.Run(filepath.Base(tc.file)+"/"+tc.pod, func(t *testing.T) {
			var got *Flow
			fl := buildFile(t, tc.file)
			for i := range fl.Items {
				if fl.Items[i].Pod.Name == tc.pod {
					got = &fl.Items[i]
				}
			}
			if got == nil {
				t.Fatalf("no pod %s", tc.pod)
			}
			for _, w := range tc.want {
				if w == "" && got.WaitingOn != "" || !strings.Contains(got.WaitingOn, w) {
					t.Errorf("waiting on %q; want it to hold %q (verdict %s)", got.WaitingOn, w, got.Verdict)
				}
			}
		})
	}
}
