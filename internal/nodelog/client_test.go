package nodelog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// clientOf is a client that asks server directly, as it asks kubectl
// proxy.
func clientOf(t *testing.T, server string) *Client {
	t.Helper()
	u, err := url.Parse(server)
	if err != nil {
		t.Fatal(err)
	}
	return &Client{http: http.DefaultClient, base: u}
}

func TestURL(t *testing.T) {
	since := time.Date(2026, 11, 22, 6, 8, 0, 0, time.FixedZone("CET", 3600))
	until := time.Date(2026, 11, 22, 7, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		server string
		node   string
		q      Query
		want   string
	}{
		{"default service", "https://10.0.0.1:6443", "kind-worker", Query{},
			"https://10.0.0.1:6443/api/v1/nodes/kind-worker/proxy/logs/?query=kubelet"},
		{"window in UTC", "https://10.0.0.1:6443", "n1", Query{Since: since, Until: until},
			"https://10.0.0.1:6443/api/v1/nodes/n1/proxy/logs/?query=kubelet&sinceTime=2026-11-22T05%3A08%3A00Z&untilTime=2026-11-22T07%3A00%3A00Z"},
		{"pattern and tail", "https://10.0.0.1:6443", "n1", Query{Service: "containerd", Pattern: `pod="default/web.*"`, TailLines: 500},
			"https://10.0.0.1:6443/api/v1/nodes/n1/proxy/logs/?pattern=pod%3D%22default%2Fweb.%2A%22&query=containerd&tailLines=500"},
		{"server with a path prefix", "https://rancher.example.com/k8s/clusters/c-m-1/", "n1", Query{},
			"https://rancher.example.com/k8s/clusters/c-m-1/api/v1/nodes/n1/proxy/logs/?query=kubelet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := clientOf(t, tt.server).URL(tt.node, tt.q).String(); got != tt.want {
				t.Errorf("URL\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

func TestCheckNode(t *testing.T) {
	for _, tt := range []struct {
		name string
		ok   bool
	}{
		{"kind-worker", true}, {"ip-10-0-1-2.eu-west-1.compute.internal", true}, {"", false},
		{"../../namespaces/x", false}, {"a/b", false}, {"n1?query=x", false}, {"-lead", false},
	} {
		if err := CheckNode(tt.name); (err == nil) != tt.ok {
			t.Errorf("CheckNode(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

// fakeAPI is an API server on 127.0.0.1, as kubectl proxy serves it,
// whose node proxy answers with handler; it records the requests.
func fakeAPI(t *testing.T, handler func(w http.ResponseWriter, r *http.Request)) (*Client, *[]*http.Request) {
	t.Helper()
	var reqs []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqs = append(reqs, r)
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	return clientOf(t, srv.URL), &reqs
}

func statusBody(code int, reason, msg string) string {
	return fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"details":{"name":"n1","kind":"nodes"},"code":%d}`, msg, reason, code)
}

func TestFetchRefusals(t *testing.T) {
	tests := []struct {
		name    string
		code    int
		body    string
		refusal bool     // errors.Is(err, ErrRefused)
		want    []string // in the error
	}{
		{"handler off (405)", 405, "logs endpoint is disabled.\n", true,
			[]string{"HTTP 405: logs endpoint is disabled.", "enableSystemLogHandler: true", "enableSystemLogQuery: true", "NodeLogQuery: true", "1.27 to 1.35", "GA and always on from 1.36"}},
		{"query off: a directory listing", 200, "<!doctype html>\n<meta name=\"viewport\" content=\"width=device-width\">\n<pre>\n<a href=\"apt/\">apt/</a>\n</pre>\n", true,
			[]string{"directory listing", "enableSystemLogQuery: true", "NodeLogQuery"}},
		{"old listing", 200, "<pre>\n<a href=\"kubelet.log\">kubelet.log</a>\n</pre>\n", true, []string{"enableSystemLogQuery: true"}},
		{"RBAC", 403, statusBody(403, "Forbidden", `nodes "n1" is forbidden: User "dev" cannot get resource "nodes/proxy" in API group "" at the cluster scope`), true,
			[]string{`cannot get resource "nodes/proxy"`, "get on nodes/proxy", "kubectl auth can-i get nodes --subresource=proxy", "kubectl create clusterrole"}},
		{"kubelet's authorizer", 403, "Forbidden (user=kube-apiserver, verb=get, resource=nodes, subresource=log)", true,
			[]string{"subresource=log", "nodes/log"}},
		{"no such node", 404, statusBody(404, "NotFound", `nodes "n1" not found`), false, []string{`nodes "n1" not found`, "kubectl get nodes"}},
		{"kubelet without /logs/", 404, "404 page not found\n", true, []string{"enableSystemLogHandler: true"}},
		{"kubelet unreachable", 503, statusBody(503, "ServiceUnavailable", "error trying to reach service: dial tcp 10.0.0.7:10250: connect: connection refused"), false,
			[]string{"could not reach the node's kubelet", "connection refused", "10250"}},
		{"kubectl proxy cannot reach the API server", 500, "dial tcp 10.0.0.1:6443: connect: connection refused\n", false,
			[]string{"kubectl proxy could not ask the API server", "connection refused", "kubectl get nodes must work"}},
		{"kubectl proxy's credentials fail", 500, "getting credentials: exec: executable gke-gcloud-auth-plugin not found\n", false,
			[]string{"kubectl proxy could not ask the API server", "gke-gcloud-auth-plugin"}},
		{"no such unit", 200, "\nlog not found for kubelet\n", true, []string{"no journald unit kubelet.service", "/var/log/kubelet.log", "--unit"}},
		{"journalctl failed on the node", 200, "\nerror: journal output not available\n", true, []string{"journalctl failed on the node"}},
		{"bad query", 400, "query: Invalid value: \"k u\": input contains unsupported characters", false, []string{"HTTP 400", "unsupported characters"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _ := fakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.code)
				io.WriteString(w, tt.body)
			})
			r, err := c.Fetch(context.Background(), "n1", Query{})
			if err == nil {
				r.Close()
				t.Fatal("no error")
			}
			if errors.Is(err, ErrRefused) != tt.refusal {
				t.Errorf("errors.Is(err, ErrRefused) = %v, want %v", !tt.refusal, tt.refusal)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func TestFetchLog(t *testing.T) {
	const log = "I1122 06:08:00.395985   28117 flags.go:64] FLAG: --v=\"4\"\nI1122 06:08:06.733484   28117 kubelet.go:2709] \"SyncLoop ADD\" source=\"api\" pods=[\"default/web\"]\n"
	tests := []struct {
		name      string
		q         Query
		fileNode  bool // the node keeps the log in a file
		wantWhole bool
		wantReqs  []string // the queries asked
	}{
		{"journald node, window", Query{Since: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)}, false, false,
			[]string{"query=kubelet&sinceTime=2026-11-22T06%3A00%3A00Z"}},
		{"file node, no options", Query{}, true, false, []string{"query=kubelet"}},
		{"file node, window: asked again without it", Query{Since: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC), Pattern: "web"}, true, true,
			[]string{"pattern=web&query=kubelet&sinceTime=2026-11-22T06%3A00%3A00Z", "query=kubelet"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, reqs := fakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
				if tt.fileNode && len(r.URL.Query()) > 1 {
					// What the kubelet writes (kubelet_server_journal.go).
					fmt.Fprintf(w, "\noptions present and query resolved to log files for %v\ntry without specifying options\n", []string{"kubelet"})
					return
				}
				io.WriteString(w, log)
			})
			r, err := c.Fetch(context.Background(), "n1", tt.q)
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(r)
			r.Close()
			if err != nil || string(b) != log {
				t.Errorf("read %q, %v; want the log", b, err)
			}
			if r.Whole != tt.wantWhole {
				t.Errorf("Whole = %v, want %v", r.Whole, tt.wantWhole)
			}
			var got []string
			for _, rq := range *reqs {
				if rq.URL.Path != "/api/v1/nodes/n1/proxy/logs/" {
					t.Errorf("path %s", rq.URL.Path)
				}
				got = append(got, rq.URL.RawQuery)
			}
			if strings.Join(got, " | ") != strings.Join(tt.wantReqs, " | ") {
				t.Errorf("asked\n %s\nwant\n %s", strings.Join(got, " | "), strings.Join(tt.wantReqs, " | "))
			}
		})
	}
}
