package timeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Failures that name their pod only inside the error (issue #19, gap 2).
// kuberuntime_manager.go's SyncPod start closure reports a container it
// could not start with utilruntime.HandleError(fmt.Errorf("%v %+v start
// failed in pod %v: %v: %s", typeName, container, format.Pod(pod), err,
// msg)): plain text up to 1.30, "Unhandled Error" err=… from 1.31 (a
// multi-line err=<…> when the message has a newline); ImagePullBackOff
// goes to V3 "Container start failed in pod" instead. The Reason is the
// one "Error syncing pod" carries, so it moves the same stage, and the two
// lines of one sync are one attempt. The CRI client's "RunPodSandbox from
// runtime service failed" names the pod only in the sandbox's name,
// k8s_<name>_<namespace>_<uid>_<attempt>, when the runtime puts it in its
// error (CRI-O, dockershim).
func TestStartFailedNamesItsPod(t *testing.T) {
	wild := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("../testdata/wild", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	unhandledMultiline := strings.Join([]string{
		`E1122 06:31:23.368229   14329 kuberuntime_manager.go:1727] "Unhandled Error" err=<`,
		"\tcontainer api start failed in pod shop-api-84d7f9c6d-t5n2j_default(c70ec9f2-279a-4fc4-ae80-f664a54bdab2): RunContainerError: failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"/docker-entrypoint.sh\": stat /docker-entrypoint.sh: no such file or directory: unknown",
		"\t(the runtime's second line)",
		` > logger="UnhandledError"`,
		"",
	}, "\n")
	for _, tc := range []struct {
		name                 string
		data                 []byte
		pod                  string
		verdict              Verdict
		stalledAt, c, cstage string
		reasonHas            string
		attempts             int
	}{
		// The only line that names the pod (rke2 v=6, grep'd): an init
		// container's CreateContainerConfigError, plain text.
		{"rke2-4742", wild("rke2-4742-init-configerror.log"), "rke2-canal-7wq5k", VerdictStalled, StInitContainers, "install-cni", CStCreated, "services have not yet been read", 1},
		// Plain text, the container cut to &Container{...} by the paster.
		{"smb-493", wild("smb-493-createcontainererror.log"), "web-5d7f9c8b6-tq4zm", VerdictStalled, StContainers, "", CStCreated, "failed to mkdir", 1},
		// "Unhandled Error" and "Error syncing pod" of one sync: one attempt.
		{"notes-aks", wild("notes-aks-subpath-unhandled-error.log"), "subpath-emptydir-test", VerdictStalled, StContainers, "app", CStCreated, "failed to prepare subPath", 1},
		{"multi-line", []byte(unhandledMultiline), "shop-api-84d7f9c6d-t5n2j", VerdictStalled, StContainers, "api", CStStarted, "/docker-entrypoint.sh", 1},
		// CRI-O's k8s_<name>_<ns>_<uid>_<attempt> in the CRI client's error.
		{"kuma-2174", wild("kuma-2174-crc-hyperkube.log"), "redis-master-6c7b8d9f57-h7t2x", VerdictStalled, StSandbox, "", "", "kuma-cni", 1},
		// The corpus: three CreateContainerErrors, each reported by
		// "Unhandled Error" and "Error syncing pod" (MANIFEST: 3 attempts).
		{"13.E", errorsOnly(t, filepath.Join(corpus, "v1.36.3/13-container-create-error.log")), "cache-5b9c8d7f4-h7w3k", VerdictIncomplete, StContainers, "cache", CStCreated, "no space left on device", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := onlyFlow(t, buildBytes(t, tc.name, tc.data), tc.pod)
			if f.Verdict != tc.verdict || f.StalledAt != tc.stalledAt || f.Container != tc.c || f.ContainerStage != tc.cstage {
				t.Errorf("%s at %q %q/%q, want %s at %q %q/%q (%s)", f.Verdict, f.StalledAt, f.Container, f.ContainerStage, tc.verdict, tc.stalledAt, tc.c, tc.cstage, f.Diagnosis)
			}
			if !strings.Contains(f.Reason, tc.reasonHas) {
				t.Errorf("reason %q lacks %q", f.Reason, tc.reasonHas)
			}
			attempts := stageOf(f, tc.stalledAt).Attempts
			if tc.cstage != "" {
				attempts = cstage(containerOf(f, tc.c), tc.cstage).Attempts
			}
			if attempts != tc.attempts {
				t.Errorf("%d failed attempts, want %d", attempts, tc.attempts)
			}
		})
	}
	// 1.28's plain text names the image of the container it could not
	// start: the pod's container gets it.
	f := onlyFlow(t, buildBytes(t, "02.E", errorsOnly(t, filepath.Join(corpus, "v1.28.15/02-image-pull-failure.log"))), "api-6f5b9d7c4-pl8wz")
	if c := containerOf(f, "api"); c.Image != "docker.io/library/nginx:1.27.99" {
		t.Errorf("api's image %q, want docker.io/library/nginx:1.27.99", c.Image)
	}
}
