package timeline

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What a pull in flight waits on says how far the runtime got, when the
// runtime's log (at debug level: at info no line carries progress) is
// given beside the kubelet's: the real slow pull cut while nginx is being
// pulled, with containerd's or CRI-O's progress lines for that image. The
// runtime lines are reconstructions: their shapes as containerd's pull
// progress reporter (CRI plugin image_pull.go: msg, then the fields
// sorted, as logrus writes them) and CRI-O's consumeImagePullProgress
// print them, their values made up. Without them, or with lines of
// another image, the elapsed pull time alone.
func TestWaitingOnPullProgress(t *testing.T) {
	raw, err := os.ReadFile("../testdata/corpus/v1.36.3/03-slow-image-pull.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(raw, []byte("\n"))
	kubelet := bytes.Join(lines[:1500], nil) // ends 06:07:33.611, nginx pulling since 06:07:14.131
	const pod = "web-slowpull-58c9d-7hxkq"
	cases := []struct {
		name, file, runtime string
		kubelet             string // a line added to the kubelet's
		want                string // after the elapsed time; "" for none
	}{
		{"containerd at debug", "containerd.log",
			`time="2026-11-22T06:07:14.133000000Z" level=info msg="PullImage \"docker.io/library/nginx:1.27.3\""
time="2026-11-22T06:07:24.134000000Z" level=debug msg="progress for image pull" activeReqs=2 lastSeenBytesRead=0 lastSeenTimestamp="2026-11-22T06:07:14Z" ref="docker.io/library/nginx:1.27.3" reportInterval=10s totalBytesRead=4718592
time="2026-11-22T06:07:34.134000000Z" level=debug msg="progress for image pull" activeReqs=1 lastSeenBytesRead=4718592 lastSeenTimestamp="2026-11-22T06:07:24Z" ref="docker.io/library/nginx:1.27.3" reportInterval=10s totalBytesRead=13107200
`, "", "; containerd, 0s before the end: 12.5 MiB read, 1 active request"},
		{"CRI-O at debug", "crio.log",
			`time="2026-11-22 06:07:14.133000000Z" level=info msg="Pulling image: docker.io/library/nginx:1.27.3" id=0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0 name=/runtime.v1.ImageService/PullImage
time="2026-11-22 06:07:30.611000000Z" level=debug msg="ImagePull (1): docker.io/library/nginx:1.27.3 (sha256:3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a392817060f5e): 2097152 bytes (7.46%)" id=0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0 name=/runtime.v1.ImageService/PullImage
`, "", "; CRI-O, 3s before the end: layer sha256:3d2c1b0a9f8e: 2.0 MiB (7.46%)"},
		{"another image's progress", "containerd.log",
			`time="2026-11-22T06:07:24.134000000Z" level=debug msg="progress for image pull" activeReqs=1 lastSeenBytesRead=0 lastSeenTimestamp="2026-11-22T06:07:14Z" ref="docker.io/library/redis:7.4" reportInterval=10s totalBytesRead=4718592
`, "", ""},
		// The kubelet's dockershim (≤1.23) reported progress itself, in
		// the printf form of kube_docker_client.go's progress reporter.
		{"dockershim", "", "",
			`I1122 06:07:31.611281   27125 kube_docker_client.go:347] Pulling image "docker.io/library/nginx:1.27.3": "5d41402abc4b: Downloading [=====>      ]  11.53MB/27.51MB"` + "\n",
			`; dockershim, 2s before the end: 5d41402abc4b: Downloading [=====>      ]  11.53MB/27.51MB`},
		{"no runtime log", "", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			k := kubelet
			if tc.kubelet != "" {
				k = append(bytes.Join(lines[:1499], nil), tc.kubelet...)
				k = append(k, lines[1499]...)
			}
			if err := os.WriteFile(filepath.Join(dir, "kubelet.log"), k, 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.file != "" {
				if err := os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.runtime), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			f := onlyFlow(t, buildInputs(t, dir), pod)
			const base = "the pull of image docker.io/library/nginx:1.27.3 for container nginx, under way for "
			if !strings.HasPrefix(f.WaitingOn, base) {
				t.Fatalf("WaitingOn %q, want the nginx pull", f.WaitingOn)
			}
			_, rest, _ := strings.Cut(f.WaitingOn[len(base):], ";")
			if got := ""; rest != "" || tc.want != "" {
				got = ";" + rest
				if got != tc.want {
					t.Errorf("WaitingOn %q: after the time %q, want %q", f.WaitingOn, got, tc.want)
				}
			}
		})
	}
}
