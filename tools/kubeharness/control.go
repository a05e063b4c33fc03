package main

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// controlPlane is one etcd and one kube-apiserver on loopback, shared by
// every kubelet of a run (the API server of the newest version serves all).
type controlPlane struct {
	dir     string
	pki     *pki
	server  string
	procs   []*exec.Cmd
	client  *http.Client
	kubecfg string
}

// ensureEtcd installs Debian's etcd-server when no etcd is on PATH.
func ensureEtcd() (string, error) {
	if p, err := exec.LookPath("etcd"); err == nil {
		return p, nil
	}
	fmt.Fprintln(os.Stderr, "kubeharness: installing etcd-server with apt-get")
	for _, args := range [][]string{{"update"}, {"install", "-y", "etcd-server"}} {
		c := exec.Command("apt-get", args...)
		c.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		c.Stdout, c.Stderr = os.Stderr, os.Stderr
		if err := c.Run(); err != nil {
			return "", fmt.Errorf("apt-get %s: %w", strings.Join(args, " "), err)
		}
	}
	return exec.LookPath("etcd")
}

func startControlPlane(ctx context.Context, work, apiserverBin string, apiPort, etcdPort int) (*controlPlane, error) {
	etcd, err := ensureEtcd()
	if err != nil {
		return nil, err
	}
	cp := &controlPlane{dir: work, server: fmt.Sprintf("https://127.0.0.1:%d", apiPort)}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", etcdPort)
	if cp.pki, err = newPKI(filepath.Join(work, "pki")); err != nil {
		return nil, err
	}
	cp.kubecfg = filepath.Join(work, "pki", "kubelet.kubeconfig")
	if err := cp.pki.kubeconfig(cp.kubecfg, cp.server); err != nil {
		return nil, err
	}
	etcdDir, err := os.MkdirTemp("", "kubeharness-etcd-")
	if err != nil {
		return nil, fmt.Errorf("etcd dir: %w", err)
	}
	logs := filepath.Join(work, "logs")
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return nil, fmt.Errorf("logs dir: %w", err)
	}
	e := exec.CommandContext(ctx, etcd, "--data-dir", etcdDir,
		"--listen-client-urls", etcdURL, "--advertise-client-urls", etcdURL,
		"--listen-peer-urls", fmt.Sprintf("http://127.0.0.1:%d", etcdPort+1))
	if err := startLogged(e, filepath.Join(logs, "etcd.log")); err != nil {
		return nil, err
	}
	cp.procs = append(cp.procs, e)
	a := exec.CommandContext(ctx, apiserverBin,
		"--etcd-servers="+etcdURL,
		"--bind-address=127.0.0.1", "--advertise-address=127.0.0.1", fmt.Sprintf("--secure-port=%d", apiPort),
		"--tls-cert-file="+cp.pki.serverCert, "--tls-private-key-file="+cp.pki.serverKey,
		"--client-ca-file="+cp.pki.caCert,
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-account-key-file="+cp.pki.saPub,
		"--service-account-signing-key-file="+cp.pki.saKey,
		"--authorization-mode=AlwaysAllow",
		// A loopback advertise address is refused by the endpoint
		// reconciler of the kubernetes Service, which no scenario needs.
		"--endpoint-reconciler-type=none",
		"--service-cluster-ip-range=10.0.0.0/24",
		"--cert-dir="+filepath.Join(work, "pki", "apiserver"),
		"--v=1")
	if err := startLogged(a, filepath.Join(logs, "kube-apiserver.log")); err != nil {
		cp.stop()
		return nil, err
	}
	cp.procs = append(cp.procs, a)
	caPEM, err := os.ReadFile(cp.pki.caCert)
	if err != nil {
		cp.stop()
		return nil, fmt.Errorf("read ca: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(caPEM)
	cert, err := tls.LoadX509KeyPair(cp.pki.clientCert, cp.pki.clientKey)
	if err != nil {
		cp.stop()
		return nil, fmt.Errorf("client cert: %w", err)
	}
	cp.client = &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool, Certificates: []tls.Certificate{cert}},
	}}
	deadline := time.Now().Add(3 * time.Minute)
	for {
		var ok bool
		if body, code, err := cp.do(ctx, "GET", "/readyz", nil, ""); err == nil && code == 200 && strings.TrimSpace(string(body)) == "ok" {
			ok = true
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			cp.stop()
			return nil, fmt.Errorf("kube-apiserver not ready after 3m (see %s)", filepath.Join(logs, "kube-apiserver.log"))
		}
		time.Sleep(time.Second)
	}
	return cp, nil
}

func startLogged(c *exec.Cmd, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("log %s: %w", path, err)
	}
	c.Stdout, c.Stderr = f, f
	if err := c.Start(); err != nil {
		f.Close()
		return fmt.Errorf("start %s: %w", c.Path, err)
	}
	return nil
}

func (cp *controlPlane) stop() {
	for i := len(cp.procs) - 1; i >= 0; i-- {
		p := cp.procs[i]
		if p.Process != nil {
			_ = p.Process.Signal(os.Interrupt)
			done := make(chan struct{})
			go func() { _ = p.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				_ = p.Process.Kill()
			}
		}
	}
}

// do sends one request to the API server; body is JSON unless ctype says.
func (cp *controlPlane) do(ctx context.Context, method, path string, body []byte, ctype string) ([]byte, int, error) {
	req, err := http.NewRequestWithContext(ctx, method, cp.server+path, bytes.NewReader(body))
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	if ctype == "" {
		ctype = "application/json"
	}
	if body != nil {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := cp.client.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("%s %s: %w", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, resp.StatusCode, fmt.Errorf("%s %s: %w", method, path, err)
	}
	return b, resp.StatusCode, nil
}

// must is do that wants a 2xx answer.
func (cp *controlPlane) must(ctx context.Context, method, path string, body []byte, ctype string) ([]byte, error) {
	b, code, err := cp.do(ctx, method, path, body, ctype)
	if err != nil {
		return nil, err
	}
	if code/100 != 2 {
		return b, fmt.Errorf("%s %s: HTTP %d: %s", method, path, code, bytes.TrimSpace(b))
	}
	return b, nil
}

// ensureNamespace creates ns with what the controller-manager would have
// made: the default ServiceAccount (the ServiceAccount admission plugin wants
// it) and the kube-root-ca.crt ConfigMap (the projected kube-api-access-*
// volume reads it).
func (cp *controlPlane) ensureNamespace(ctx context.Context, ns string) error {
	create := func(path string, obj any) error {
		b, _ := json.Marshal(obj)
		_, code, err := cp.do(ctx, "POST", path, b, "")
		if err != nil {
			return err
		}
		if code/100 != 2 && code != http.StatusConflict {
			return fmt.Errorf("POST %s: HTTP %d", path, code)
		}
		return nil
	}
	if ns != "default" {
		if err := create("/api/v1/namespaces", map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}); err != nil {
			return err
		}
	}
	ca, err := os.ReadFile(cp.pki.caCert)
	if err != nil {
		return fmt.Errorf("read ca: %w", err)
	}
	// The namespace's admission cache may lag its creation by a moment.
	deadline := time.Now().Add(30 * time.Second)
	for {
		err = create("/api/v1/namespaces/"+ns+"/serviceaccounts", map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": map[string]any{"name": "default"}})
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Second)
	}
	if err != nil {
		return err
	}
	return create("/api/v1/namespaces/"+ns+"/configmaps", map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "kube-root-ca.crt"}, "data": map[string]string{"ca.crt": string(ca)}})
}
