package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	runtimeapi "k8s.io/cri-api/pkg/apis/runtime/v1"
	"k8s.io/cri-client/pkg/fake"
)

// shim is our gRPC CRI server: the upstream fake (k8s.io/cri-client's
// RemoteRuntime over k8s.io/cri-api's FakeRuntimeService and
// FakeImageService) does the bookkeeping, and the shim adds what a real
// runtime shows the kubelet: latencies, containerd-like random IDs, image
// sizes and digests, log files, containers that exit on their own, and the
// scenario's scripted errors. The error strings are ours, modelled on
// containerd's; everything the kubelet logs around them is its own.
type shim struct {
	*fake.RemoteRuntime
	rt     runtimeScript
	server *grpc.Server

	mu     sync.Mutex
	starts map[string]int // sandboxID/container name -> starts so far
	fired  []int          // per failure rule: how often it fired
	names  map[string]string
}

func newShim(rt runtimeScript) *shim {
	s := &shim{RemoteRuntime: fake.NewFakeRemoteRuntime(), rt: rt,
		starts: map[string]int{}, fired: make([]int, len(rt.Failures)), names: map[string]string{}}
	s.RuntimeService.FakeStatus = &runtimeapi.RuntimeStatus{Conditions: []*runtimeapi.RuntimeCondition{
		{Type: runtimeapi.RuntimeReady, Status: true},
		{Type: runtimeapi.NetworkReady, Status: true},
	}}
	return s
}

func (s *shim) serve(sock string) error {
	_ = os.Remove(sock)
	l, err := net.Listen("unix", sock)
	if err != nil {
		return fmt.Errorf("listen %s: %w", sock, err)
	}
	s.server = grpc.NewServer()
	runtimeapi.RegisterRuntimeServiceServer(s.server, s)
	runtimeapi.RegisterImageServiceServer(s.server, s)
	go func() { _ = s.server.Serve(l) }()
	return nil
}

func (s *shim) stop() {
	if s.server != nil {
		s.server.Stop()
	}
}

func randomID() string {
	var b [32]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// sleep waits d or until the call is cancelled.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return status.FromContextError(ctx.Err()).Err()
	}
}

// failure returns the scripted error for call on subject, if a rule fires.
func (s *shim) failure(call, subject string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.rt.Failures {
		if f.Call != call || !strings.Contains(subject, f.Match) {
			continue
		}
		if f.Times > 0 && s.fired[i] >= f.Times {
			continue
		}
		s.fired[i]++
		code := codes.Unknown
		for c := codes.OK; c <= codes.Unauthenticated; c++ {
			if strings.EqualFold(c.String(), f.Code) {
				code = c
			}
		}
		return status.Error(code, f.Message)
	}
	return nil
}

func (s *shim) Status(ctx context.Context, req *runtimeapi.StatusRequest) (*runtimeapi.StatusResponse, error) {
	resp, err := s.RemoteRuntime.Status(ctx, req)
	if err != nil {
		return nil, err
	}
	// containerd reports its handlers' features; user namespaces need it.
	resp.RuntimeHandlers = []*runtimeapi.RuntimeHandler{{Name: "", Features: &runtimeapi.RuntimeHandlerFeatures{
		RecursiveReadOnlyMounts: true, UserNamespaces: s.rt.UserNamespaces}}}
	return resp, nil
}

func (s *shim) RunPodSandbox(ctx context.Context, req *runtimeapi.RunPodSandboxRequest) (*runtimeapi.RunPodSandboxResponse, error) {
	if err := sleep(ctx, s.rt.latency("RunPodSandbox", 400*time.Millisecond)); err != nil {
		return nil, err
	}
	if err := s.failure("RunPodSandbox", req.GetConfig().GetMetadata().GetName()); err != nil {
		return nil, err
	}
	resp, err := s.RemoteRuntime.RunPodSandbox(ctx, req)
	if err != nil {
		return nil, err
	}
	rs := s.RuntimeService
	rs.Lock()
	defer rs.Unlock()
	sb := rs.Sandboxes[resp.PodSandboxId]
	id := randomID()
	delete(rs.Sandboxes, resp.PodSandboxId)
	sb.Id = id
	if s.rt.PodIP != "" {
		sb.Network.Ip = s.rt.PodIP
	}
	rs.Sandboxes[id] = sb
	return &runtimeapi.RunPodSandboxResponse{PodSandboxId: id}, nil
}

func (s *shim) CreateContainer(ctx context.Context, req *runtimeapi.CreateContainerRequest) (*runtimeapi.CreateContainerResponse, error) {
	if err := sleep(ctx, s.rt.latency("CreateContainer", 80*time.Millisecond)); err != nil {
		return nil, err
	}
	name := req.GetConfig().GetMetadata().GetName()
	if err := s.failure("CreateContainer", name); err != nil {
		return nil, err
	}
	resp, err := s.RemoteRuntime.CreateContainer(ctx, req)
	if err != nil {
		return nil, err
	}
	logPath := ""
	if dir, p := req.GetSandboxConfig().GetLogDirectory(), req.GetConfig().GetLogPath(); dir != "" && p != "" {
		logPath = filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err == nil {
			if f, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY, 0o640); err == nil {
				f.Close()
			}
		}
	}
	rs := s.RuntimeService
	rs.Lock()
	defer rs.Unlock()
	c := rs.Containers[resp.ContainerId]
	id := randomID()
	delete(rs.Containers, resp.ContainerId)
	c.Id = id
	c.LogPath = logPath
	rs.Containers[id] = c
	s.mu.Lock()
	s.names[id] = c.SandboxID + "/" + name
	s.mu.Unlock()
	return &runtimeapi.CreateContainerResponse{ContainerId: id}, nil
}

// setExited marks a container exited with code (caller holds no locks).
func (s *shim) setExited(id string, code int32, reason, message string) {
	rs := s.RuntimeService
	rs.Lock()
	defer rs.Unlock()
	c, ok := rs.Containers[id]
	if !ok || c.State == runtimeapi.ContainerState_CONTAINER_EXITED {
		return
	}
	c.State = runtimeapi.ContainerState_CONTAINER_EXITED
	c.FinishedAt = time.Now().UnixNano()
	c.ExitCode = code
	c.Reason = reason
	c.Message = message
}

func (s *shim) StartContainer(ctx context.Context, req *runtimeapi.StartContainerRequest) (*runtimeapi.StartContainerResponse, error) {
	if err := sleep(ctx, s.rt.latency("StartContainer", 150*time.Millisecond)); err != nil {
		return nil, err
	}
	s.mu.Lock()
	key := s.names[req.ContainerId]
	s.starts[key]++
	n := s.starts[key]
	s.mu.Unlock()
	name := key[strings.IndexByte(key, '/')+1:]
	if err := s.failure("StartContainer", name); err != nil {
		// runc failed to exec: containerd leaves the container exited 128.
		s.setExited(req.ContainerId, 128, "StartError", status.Convert(err).Message())
		return nil, err
	}
	resp, err := s.RemoteRuntime.StartContainer(ctx, req)
	if err != nil {
		return nil, err
	}
	for _, e := range s.rt.Exits {
		if e.Container != name || (e.Starts > 0 && n > e.Starts) {
			continue
		}
		id, code := req.ContainerId, e.Code
		reason := "Completed"
		if code != 0 {
			reason = "Error"
		}
		time.AfterFunc(e.After.D, func() { s.setExited(id, code, reason, "") })
		break
	}
	return resp, nil
}

func (s *shim) StopContainer(ctx context.Context, req *runtimeapi.StopContainerRequest) (*runtimeapi.StopContainerResponse, error) {
	s.mu.Lock()
	key := s.names[req.ContainerId]
	s.mu.Unlock()
	name := key[strings.IndexByte(key, '/')+1:]
	code, reason := int32(0), "Completed"
	delay := s.rt.latency("StopContainer", 150*time.Millisecond)
	for _, c := range s.rt.IgnoreSIGTERM {
		if c == name {
			// The process ignores SIGTERM: containerd waits out the
			// timeout, then SIGKILLs it.
			delay, code, reason = time.Duration(req.Timeout)*time.Second, 137, "Error"
		}
	}
	if err := sleep(ctx, delay); err != nil {
		return nil, err
	}
	s.setExited(req.ContainerId, code, reason, "")
	return s.RemoteRuntime.StopContainer(ctx, req)
}

// imageFacts derives a stable size and digest from the image name.
func imageFacts(name string) (id, digest string, size uint64) {
	h := sha256.Sum256([]byte(name))
	d := sha256.Sum256(h[:])
	size = 5_000_000 + uint64(h[0])<<16 + uint64(h[1])<<8 + uint64(h[2])
	size += uint64(h[3]%64) * 1_200_000
	repo := name
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		repo = name[:i]
	}
	return "sha256:" + hex.EncodeToString(h[:]), repo + "@sha256:" + hex.EncodeToString(d[:]), size
}

func (s *shim) PullImage(ctx context.Context, req *runtimeapi.PullImageRequest) (*runtimeapi.PullImageResponse, error) {
	name := req.GetImage().GetImage()
	if err := sleep(ctx, s.rt.pullDelay(name)); err != nil {
		return nil, err
	}
	if err := s.failure("PullImage", name); err != nil {
		return nil, err
	}
	if _, err := s.RemoteRuntime.PullImage(ctx, req); err != nil {
		return nil, err
	}
	id, digest, size := imageFacts(name)
	is := s.ImageService
	is.Lock()
	defer is.Unlock()
	if img := is.Images[name]; img != nil {
		img.Id, img.Size, img.RepoDigests = id, size, []string{digest}
	}
	return &runtimeapi.PullImageResponse{ImageRef: id}, nil
}

// ImageStatus finds an image by name or by the ID PullImage returned (the
// kubelet asks both ways; the fake keys images by name only).
func (s *shim) ImageStatus(ctx context.Context, req *runtimeapi.ImageStatusRequest) (*runtimeapi.ImageStatusResponse, error) {
	is := s.ImageService
	is.Lock()
	defer is.Unlock()
	ref := req.GetImage().GetImage()
	if img := is.Images[ref]; img != nil {
		return &runtimeapi.ImageStatusResponse{Image: img}, nil
	}
	for _, img := range is.Images {
		if img.Id == ref {
			return &runtimeapi.ImageStatusResponse{Image: img}, nil
		}
	}
	return &runtimeapi.ImageStatusResponse{}, nil
}
