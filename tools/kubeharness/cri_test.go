package main

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
)

// The shim as the kubelet sees it over its socket: random IDs, timed exits,
// scripted errors, images found by name and by the ID the pull returned.
func TestShimOverSocket(t *testing.T) {
	rt := runtimeScript{
		PodIP:   "127.0.0.1",
		Latency: map[string]duration{"RunPodSandbox": {0}, "CreateContainer": {0}, "StartContainer": {0}, "StopContainer": {0}, "PullImage": {0}},
		Exits:   []exitRule{{Container: "job", After: duration{50 * time.Millisecond}, Code: 3, Starts: 1}},
		Failures: []failureRule{
			{Call: "PullImage", Match: ":0.0.404", Code: "NotFound", Message: "not found"},
			{Call: "CreateContainer", Match: "flaky", Times: 1, Code: "Unknown", Message: "no space left on device"},
		},
	}
	sh := newShim(rt)
	sock := filepath.Join(t.TempDir(), "cri.sock")
	if err := sh.serve(sock); err != nil {
		t.Fatal(err)
	}
	defer sh.stop()
	conn, err := grpc.NewClient("unix://"+sock, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx := context.Background()
	rs, is := runtimeapi.NewRuntimeServiceClient(conn), runtimeapi.NewImageServiceClient(conn)

	if _, err := is.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: "x/app:0.0.404"}}); status.Code(err) != codes.NotFound {
		t.Fatalf("pull of a missing tag: %v, want NotFound", err)
	}
	pulled, err := is.PullImage(ctx, &runtimeapi.PullImageRequest{Image: &runtimeapi.ImageSpec{Image: "x/app:1"}})
	if err != nil || len(pulled.ImageRef) != len("sha256:")+64 {
		t.Fatalf("pull: %v %v", pulled, err)
	}
	for _, ref := range []string{"x/app:1", pulled.ImageRef} {
		st, err := is.ImageStatus(ctx, &runtimeapi.ImageStatusRequest{Image: &runtimeapi.ImageSpec{Image: ref}})
		if err != nil || st.Image == nil || st.Image.Size == 0 || len(st.Image.RepoDigests) != 1 {
			t.Errorf("image status by %s: %v %v", ref, st, err)
		}
	}

	meta := &runtimeapi.PodSandboxMetadata{Name: "p", Namespace: "ns", Uid: "u"}
	sb, err := rs.RunPodSandbox(ctx, &runtimeapi.RunPodSandboxRequest{Config: &runtimeapi.PodSandboxConfig{Metadata: meta}})
	if err != nil || len(sb.PodSandboxId) != 64 {
		t.Fatalf("sandbox: %v %v", sb, err)
	}
	sst, err := rs.PodSandboxStatus(ctx, &runtimeapi.PodSandboxStatusRequest{PodSandboxId: sb.PodSandboxId})
	if err != nil || sst.Status.Network.Ip != "127.0.0.1" {
		t.Fatalf("sandbox status: %v %v", sst, err)
	}
	logDir := t.TempDir()
	create := func(name string) (string, error) {
		r, err := rs.CreateContainer(ctx, &runtimeapi.CreateContainerRequest{PodSandboxId: sb.PodSandboxId,
			Config:        &runtimeapi.ContainerConfig{Metadata: &runtimeapi.ContainerMetadata{Name: name}, Image: &runtimeapi.ImageSpec{Image: pulled.ImageRef}, LogPath: name + "/0.log"},
			SandboxConfig: &runtimeapi.PodSandboxConfig{Metadata: meta, LogDirectory: logDir}})
		if err != nil {
			return "", err
		}
		return r.ContainerId, nil
	}
	if _, err := create("flaky"); err == nil {
		t.Error("flaky: first create should fail")
	}
	if _, err := create("flaky"); err != nil {
		t.Errorf("flaky: second create: %v", err)
	}
	id, err := create("job")
	if err != nil || len(id) != 64 {
		t.Fatalf("create job: %q %v", id, err)
	}
	if _, err := rs.StartContainer(ctx, &runtimeapi.StartContainerRequest{ContainerId: id}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		st, err := rs.ContainerStatus(ctx, &runtimeapi.ContainerStatusRequest{ContainerId: id})
		if err != nil {
			t.Fatal(err)
		}
		if st.Status.State == runtimeapi.ContainerState_CONTAINER_EXITED {
			if st.Status.ExitCode != 3 || st.Status.Reason != "Error" || st.Status.LogPath != filepath.Join(logDir, "job/0.log") {
				t.Errorf("exited job: code %d reason %q log %q", st.Status.ExitCode, st.Status.Reason, st.Status.LogPath)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("job did not exit")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
