package nodelog

import (
	"bufio"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"time"
)

// proxy is a running kubectl proxy: kubectl reads the kubeconfig (its
// files, contexts and credentials, exec plugins and the in-cluster
// service account included) as every kubectl command does, and serves the
// API server on the loopback, where Client asks it over plain HTTP.
//
// client-go did this in the process before, and with it the API
// machinery came into every command: the binary was twice the size, and
// every command, a file's analysis too, started with some 6 MiB more
// resident (the kernel maps the text it pages in).
type proxy struct {
	cmd    *exec.Cmd
	exited chan struct{} // closed once kubectl has exited
	err    error         // its exit, once exited is closed
	stderr *capped
	once   sync.Once
}

// serving is the line kubectl proxy prints once it listens (with --port=0
// the port it was given).
var serving = regexp.MustCompile(`Starting to serve on (\S+)`)

// startWait is how long kubectl may take to read the kubeconfig and
// start listening.
const startWait = 30 * time.Second

// proxyArgs are kubectl's arguments: a port of the system's choosing on
// the loopback, accepting only requests addressed to it.
func proxyArgs(c Config) []string {
	args := []string{"proxy", "--port=0", "--address=127.0.0.1", `--accept-hosts=^127\.0\.0\.1$`}
	if c.Kubeconfig != "" {
		args = append(args, "--kubeconfig="+c.Kubeconfig)
	}
	if c.Context != "" {
		args = append(args, "--context="+c.Context)
	}
	return args
}

// startProxy runs kubectl proxy and returns it and the URL it serves.
func startProxy(c Config) (*proxy, *url.URL, error) {
	name := c.Kubectl
	if name == "" {
		name = "kubectl"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, nil, fmt.Errorf("--node asks the API server through kubectl (kubectl proxy, with your kubeconfig and context), and %s was not found (%w): install kubectl or set PODFLOW_KUBECTL to yours, or run podflow on the node with --journal, or give the log as a file", name, errors.Unwrap(err))
	}
	// stdout is a pipe of our own, not cmd.StdoutPipe, so that Wait may
	// run while it is read.
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	p := &proxy{cmd: exec.Command(path, proxyArgs(c)...), exited: make(chan struct{}), stderr: &capped{max: 4 << 10}}
	p.cmd.Stdout, p.cmd.Stderr = w, p.stderr
	dieWithParent(p.cmd)
	err = p.cmd.Start()
	w.Close()
	if err != nil {
		r.Close()
		return nil, nil, fmt.Errorf("--node: running %s: %w", path, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		close(p.exited)
	}()
	addr := make(chan string, 1)
	go func() {
		defer r.Close()
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			if m := serving.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
				break
			}
		}
		// (What kubectl prints later is not read: draining it keeps
		// kubectl from blocking on a full pipe.)
		for sc.Scan() {
		}
	}()
	wait := c.Wait
	if wait <= 0 {
		wait = startWait
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case a := <-addr:
		u, err := url.Parse("http://" + a)
		if err != nil || u.Host == "" {
			p.stop()
			return nil, nil, fmt.Errorf("--node: kubectl proxy serves on %q, not an address", a)
		}
		return p, u, nil
	case <-p.exited:
		return nil, nil, fmt.Errorf("--node: kubectl proxy (%s) failed: %s", strings.Join(proxyArgs(c)[4:], " "), p.failure())
	case <-timer.C:
		p.stop()
		return nil, nil, fmt.Errorf("--node: kubectl proxy did not start serving within %s%s", wait, p.said())
	}
}

// failure says how kubectl ended: what it printed, else its exit status.
func (p *proxy) failure() string {
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		return s
	}
	if p.err != nil {
		return p.err.Error()
	}
	return "it exited without serving"
}

// said is what kubectl printed on stderr, after ": ", if anything.
func (p *proxy) said() string {
	if s := strings.TrimSpace(p.stderr.String()); s != "" {
		return ": " + s
	}
	return ""
}

// stop ends kubectl and waits for it.
func (p *proxy) stop() {
	p.once.Do(func() {
		select {
		case <-p.exited:
			return
		default:
		}
		p.cmd.Process.Kill()
		<-p.exited
	})
}
