// Package nodelog reads a live node's logs: through the API server's node
// log query (GET /api/v1/nodes/NAME/proxy/logs/?query=kubelet, served by
// the kubelet's /logs/ handler) by way of kubectl proxy, with the user's
// kubeconfig, or from the local journal with journalctl. Each source is
// an io.ReadCloser of the log's bytes as the node writes them, so that
// the parser reads it as it reads a file and knows nothing of clusters.
//
// The kubelet serves the query (pkg/kubelet/kubelet_server_journal*.go)
// by running journalctl --utc --output=short-precise --unit=SERVICE when
// the service is a journald unit, else by copying /var/log/SERVICE,
// /var/log/SERVICE.log or /var/log/SERVICE/SERVICE.log whole. The file
// case takes no options (sinceTime, untilTime, tailLines, pattern): the
// kubelet answers 200 with a line saying so instead of the log, and
// Fetch then asks again without them (Response.Whole says so).
package nodelog

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Config chooses the cluster: kubectl's, since kubectl asks it (--kubeconfig,
// else the files KUBECONFIG lists, else ~/.kube/config, else the
// in-cluster service account; --context picks a context of it).
type Config struct {
	Kubeconfig string
	Context    string
	// Kubectl is the kubectl to run ("" = kubectl, found in PATH).
	Kubectl string
	// Wait bounds how long kubectl proxy may take to start serving (0:
	// 30s).
	Wait time.Duration
}

// Client asks one API server for node logs, through kubectl proxy.
type Client struct {
	http  *http.Client
	base  *url.URL // the server's URL, its path prefix included
	proxy *proxy   // nil: base is the server itself (tests)
}

// NewClient starts kubectl proxy with c's kubeconfig and context, and
// returns a client that asks through it. Close stops it.
func NewClient(c Config) (*Client, error) {
	p, base, err := startProxy(c)
	if err != nil {
		return nil, err
	}
	// No timeout: a follow's answers and a big log's last as long as
	// they do; the context ends them.
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil // (kubectl proxy is on the loopback; HTTPS_PROXY is kubectl's)
	return &Client{http: &http.Client{Transport: t}, base: base, proxy: p}, nil
}

// Close stops kubectl proxy. The readers the client gave are done then.
func (c *Client) Close() error {
	if c.proxy != nil {
		c.proxy.stop()
	}
	return nil
}

// Query is what to ask a node for: one service's log (a journald unit,
// or a file under the node's /var/log), optionally a window, a regular
// expression the node filters lines by, and the last lines only.
type Query struct {
	Service   string // default "kubelet"
	Since     time.Time
	Until     time.Time
	Pattern   string
	TailLines int // 0: all
}

// options reports whether q asks for more than the service's whole log.
func (q Query) options() bool {
	return !q.Since.IsZero() || !q.Until.IsZero() || q.Pattern != "" || q.TailLines > 0
}

var nodeName = regexp.MustCompile(`^[a-z0-9A-Z]([-a-z0-9A-Z._]*[a-z0-9A-Z])?$`)

// CheckNode refuses a name that cannot be a node's (a DNS subdomain, as
// far as a path segment is concerned): it would change the URL.
func CheckNode(name string) error {
	if name == "" || len(name) > 253 || !nodeName.MatchString(name) {
		return fmt.Errorf("%q is not a node name (kubectl get nodes lists them)", name)
	}
	return nil
}

// URL is the request for q's log of node: the API server's proxy to the
// node's kubelet, at its /logs/ handler.
func (c *Client) URL(node string, q Query) *url.URL {
	u := *c.base
	u.Path = strings.TrimSuffix(u.Path, "/") + "/api/v1/nodes/" + node + "/proxy/logs/"
	u.RawPath = ""
	v := url.Values{}
	svc := q.Service
	if svc == "" {
		svc = "kubelet"
	}
	v.Set("query", svc)
	if !q.Since.IsZero() {
		v.Set("sinceTime", q.Since.UTC().Format(time.RFC3339))
	}
	if !q.Until.IsZero() {
		v.Set("untilTime", q.Until.UTC().Format(time.RFC3339))
	}
	if q.Pattern != "" {
		v.Set("pattern", q.Pattern)
	}
	if q.TailLines > 0 {
		v.Set("tailLines", strconv.Itoa(q.TailLines))
	}
	u.RawQuery = v.Encode()
	return &u
}

// Response is one answer of a node: its log, and how it was served.
type Response struct {
	io.ReadCloser
	// Whole: the node keeps the service's log in a file, which the log
	// query returns whole, without the query's window, pattern or tail.
	Whole bool
	// Date is the API server's clock when it answered (zero when it sent
	// no Date header): a follow asks for what came after it.
	Date time.Time
}

// Fetch asks node for q's log. A refusal is an *Refusal naming what to
// enable; a node that keeps the log in a file is asked again for all of
// it (Response.Whole).
func (c *Client) Fetch(ctx context.Context, node string, q Query) (*Response, error) {
	if err := CheckNode(node); err != nil {
		return nil, err
	}
	r, err := c.get(ctx, node, q)
	if err != nil {
		return nil, err
	}
	if r.fileOnly {
		r.Close()
		q = Query{Service: q.Service}
		if r, err = c.get(ctx, node, q); err != nil {
			return nil, err
		}
		r.Whole = true
	}
	return &r.Response, nil
}

type answer struct {
	Response
	fileOnly bool
}

// sniff is how much of an answer is read ahead to tell a log from a
// message in its place.
const sniff = 512

func (c *Client) get(ctx context.Context, node string, q Query) (*answer, error) {
	u := c.URL(node, q)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("node %s: asking the API server for its log: %w", node, err)
	}
	if resp.StatusCode != http.StatusOK {
		defer resp.Body.Close()
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 16<<10))
		return nil, refusal(node, q, resp.StatusCode, body)
	}
	br := bufio.NewReaderSize(resp.Body, 64<<10)
	head, _ := br.Peek(sniff)
	a := &answer{Response: Response{ReadCloser: readCloser{br, resp.Body}}}
	if d, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
		a.Date = d
	}
	switch kind, msg := inBand(head); kind {
	case "":
	case "files":
		a.fileOnly = true
	case "html":
		resp.Body.Close()
		return nil, &Refusal{Node: node, Status: resp.StatusCode, Message: "the node's kubelet answered with its /var/log directory listing, not the log query", Enable: enableQuery}
	default:
		resp.Body.Close()
		return nil, &Refusal{Node: node, Status: resp.StatusCode, Message: msg, Enable: kind}
	}
	return a, nil
}

type readCloser struct {
	io.Reader
	io.Closer
}

// inBand recognises the messages the kubelet writes with status 200 in
// place of a log (kubelet_server_journal.go), and a directory listing
// (the query not enabled: /logs/ is then a file server of /var/log). It
// returns what kind of message head starts with, and the message.
func inBand(head []byte) (kind, msg string) {
	t := bytes.TrimLeft(head, "\n")
	lower := bytes.ToLower(bytes.TrimSpace(head))
	switch {
	case bytes.HasPrefix(lower, []byte("<!doctype html")) || bytes.HasPrefix(lower, []byte("<pre>")):
		return "html", ""
	case len(t) == len(head):
		// A log starts with its first line; the kubelet's messages start
		// with a newline.
		return "", ""
	}
	first, _, _ := bytes.Cut(t, []byte("\n"))
	line := string(first)
	switch {
	case strings.HasPrefix(line, "options present and query resolved to log files"):
		return "files", line
	case strings.HasPrefix(line, "log not found for "):
		svc := strings.TrimPrefix(line, "log not found for ")
		return fmt.Sprintf("the node has no log for %s: no journald unit %s.service and no /var/log/%s, /var/log/%s.log or /var/log/%s/%s.log (name the unit the kubelet runs as, e.g. --unit k3s, or have the kubelet log to /var/log/kubelet.log)", svc, svc, svc, svc, svc, svc), line
	case strings.HasPrefix(line, "error: journal output not available"), strings.HasPrefix(line, "failed to get logging cmd"):
		return "journalctl failed on the node (is journald's journal readable there?)", line
	}
	return "", ""
}

// Refusal is a node log query the API server or the kubelet refused, with
// what to change.
type Refusal struct {
	Node    string
	Status  int
	Message string // what the server said
	Enable  string // what to change
}

func (r *Refusal) Error() string {
	s := fmt.Sprintf("node %s: the node log query was refused", r.Node)
	if r.Status != http.StatusOK {
		s += fmt.Sprintf(" (HTTP %d", r.Status)
		if r.Message != "" {
			s += ": " + r.Message
		}
		s += ")"
	} else if r.Message != "" {
		s += " (" + r.Message + ")"
	}
	return s + "\n  " + r.Enable
}

// enableQuery says what a node must enable for the log query (the
// kubelet's flags and validation: enableSystemLogQuery needs
// enableSystemLogHandler and the NodeLogQuery gate; the gate is alpha in
// 1.27, beta and off by default from 1.30, GA and locked on from 1.36).
const enableQuery = `The node's kubelet must serve the node log query; set in its KubeletConfiguration file:
    enableSystemLogHandler: true
    enableSystemLogQuery: true
    featureGates:
      NodeLogQuery: true    # kubelets 1.27 to 1.35 (alpha from 1.27, beta but off by default from 1.30; GA and always on from 1.36)
  (or the flags --feature-gates=NodeLogQuery=true), then restart the kubelet.
  Kubelets before 1.27 have no log query: run podflow on the node with --journal, or copy the log off it.`

// enableHandler is for a kubelet whose /logs/ handler is off.
const enableHandler = `The node's kubelet has its /logs/ endpoint disabled (enableSystemLogHandler: false). ` + enableQuery

// enableRBAC says what RBAC the query needs.
const enableRBAC = `Reading a node's log needs the verb get on nodes/proxy (kubectl auth can-i get nodes --subresource=proxy); for example:
    kubectl create clusterrole node-log-reader --verb=get --resource=nodes/proxy
    kubectl create clusterrolebinding node-log-reader --clusterrole=node-log-reader --user=USER
  The API server's own kubelet client needs nodes/log on the kubelet (the system:kubelet-api-admin role gives it).`

// status is the part of a Kubernetes Status body podflow reads.
type status struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Reason  string `json:"reason"`
	Details struct {
		Kind string `json:"kind"`
	} `json:"details"`
}

// refusal turns a non-200 answer into a *Refusal: the API server answers
// in a Status object, the kubelet (proxied) in plain text.
func refusal(node string, q Query, code int, body []byte) error {
	var st status
	msg := strings.TrimSpace(string(body))
	fromAPI := json.Unmarshal(body, &st) == nil && st.Kind == "Status"
	if fromAPI {
		msg = st.Message
	}
	if len(msg) > 400 {
		msg = msg[:400] + "…"
	}
	r := &Refusal{Node: node, Status: code, Message: msg}
	low := strings.ToLower(msg)
	switch {
	case code == http.StatusNotFound && fromAPI && (st.Details.Kind == "nodes" || strings.Contains(low, "not found")):
		return fmt.Errorf("node %s: not found (HTTP 404: %s); kubectl get nodes lists the nodes of this cluster (is it the right context?)", node, msg)
	case code == http.StatusNotFound:
		r.Enable = enableHandler
	case code == http.StatusUnauthorized:
		return fmt.Errorf("node %s: the API server refused the kubeconfig's credentials (HTTP 401: %s); log in again (kubectl get nodes must work)", node, msg)
	case code == http.StatusForbidden && fromAPI:
		r.Enable = enableRBAC
	case code == http.StatusForbidden:
		// The kubelet's own authorizer: the API server's kubelet client
		// may not read nodes/log.
		r.Enable = enableRBAC
	case code == http.StatusMethodNotAllowed || strings.Contains(low, "logs endpoint is disabled"):
		r.Enable = enableHandler
	case strings.Contains(low, "feature gate") || strings.Contains(low, "enablesystemlog"):
		r.Enable = enableQuery
	case code == http.StatusBadRequest || code == http.StatusNotAcceptable:
		if q.Pattern != "" && strings.Contains(low, "pattern") {
			return fmt.Errorf("node %s: --pattern %q refused (HTTP %d: %s); the node reads it as a PCRE2 (Linux) or PowerShell (Windows) regular expression", node, q.Pattern, code, msg)
		}
		return fmt.Errorf("node %s: the node refused the query %s (HTTP %d: %s)", node, q.Service, code, msg)
	case code == http.StatusInternalServerError && !fromAPI && proxyFailure(low):
		// kubectl proxy's own answer (its responder writes the error
		// with 500): the request never reached the API server.
		return fmt.Errorf("node %s: kubectl proxy could not ask the API server (HTTP 500: %s); kubectl get nodes must work with this kubeconfig and context", node, msg)
	case code == http.StatusBadGateway || code == http.StatusServiceUnavailable || code == http.StatusInternalServerError || strings.Contains(low, "error trying to reach service"):
		return fmt.Errorf("node %s: the API server could not reach the node's kubelet (HTTP %d: %s); is the node Ready (kubectl get node %s) and its kubelet's port (10250) open to the API server?", node, code, msg, node)
	default:
		return fmt.Errorf("node %s: the API server answered HTTP %d: %s", node, code, msg)
	}
	return r
}

// proxyFailure reports whether a 500's text is a client's failure to
// reach or authenticate to the API server, as kubectl proxy reports them.
func proxyFailure(low string) bool {
	for _, w := range []string{"dial tcp", "getting credentials", "x509:", "tls:", "no such host", "i/o timeout", "connection refused"} {
		if strings.Contains(low, w) && !strings.Contains(low, "error trying to reach service") {
			return true
		}
	}
	return false
}

// ErrRefused matches every *Refusal (errors.Is).
var ErrRefused = errors.New("node log query refused")

// Is lets errors.Is(err, ErrRefused) find a refusal.
func (r *Refusal) Is(target error) bool { return target == ErrRefused }
