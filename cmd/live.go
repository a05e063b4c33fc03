package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/podflow/podflow/internal/nodelog"
	"github.com/podflow/podflow/parser"
	"github.com/spf13/cobra"
)

// liveOptions are the flags that read a live node instead of files: its
// kubelet's log through the API server's node log query (--node NAME
// with no input named), or this machine's journal (--journal).
type liveOptions struct {
	Node       string
	Journal    bool
	Kubeconfig string
	Context    string
	Units      []string
	Pattern    string
	Since      string
	Until      string
	Follow     bool // tui -f: ask the node again, or journalctl -f

	// ownNode: --node is the command's own flag, which also filters
	// (get pods) or picks (describe pod) by node when inputs are named;
	// else it is registered here and only reads a live node.
	ownNode bool
	// ownSince: --since and --until are the command's own filters (get
	// pods); else they are registered here and only bound what is read
	// of a live node or the journal.
	ownSince bool
	// journalctl is the command --journal runs ("" = journalctl in PATH);
	// tests set it.
	journalctl string
	// every is how often -f asks the node again (0: 2s); tests set it.
	every time.Duration
}

// addLiveFlags registers the live flags, after the command's own: a
// command with its own --node, --since and --until keeps them, and they
// then also choose the live node and its window.
func addLiveFlags(c *cobra.Command, o *liveOptions) {
	f := c.Flags()
	if f.Lookup("node") == nil {
		f.StringVar(&o.Node, "node", "", "read this node's kubelet log through the API server's node log query (with no input named; asks through kubectl proxy, with kubectl's kubeconfig)")
	} else {
		o.ownNode = true
	}
	f.BoolVar(&o.Journal, "journal", false, "read this machine's journal (journalctl -u kubelet -u containerd -u crio -o json), on the node itself")
	f.StringVar(&o.Kubeconfig, "kubeconfig", "", "kubeconfig for --node, passed to kubectl (default: KUBECONFIG, else ~/.kube/config, else in-cluster)")
	f.StringVar(&o.Context, "context", "", "kubeconfig context for --node, passed to kubectl (default: the current context)")
	f.StringArrayVar(&o.Units, "unit", nil, "with --node or --journal: the unit (service) to read instead of the default (--node: kubelet; --journal: kubelet, containerd, crio); repeatable (k3s: --unit k3s)")
	f.StringVar(&o.Pattern, "pattern", "", "with --node: only lines matching this regular expression, filtered on the node (PCRE2 on Linux nodes); a pod's name keeps its lines, but podflow then sees only those")
	if f.Lookup("since") == nil {
		f.StringVar(&o.Since, "since", "", "with --node or --journal: read from this time on (RFC3339, or a duration back from now: 30m)")
		f.StringVar(&o.Until, "until", "", "with --node or --journal: read up to this time (RFC3339, or a duration back from now)")
	} else {
		o.ownSince = true
	}
}

// liveHelp is the part of every log-reading command's help about live
// nodes.
const liveHelp = `
Live nodes: with no input named, --node NAME reads node NAME's kubelet
log through the API server's node log query (GET
/api/v1/nodes/NAME/proxy/logs/?query=kubelet), asked through kubectl
proxy: kubectl must be in PATH (or set PODFLOW_KUBECTL to another: oc, a
path), and it reads its kubeconfig and context as always (--kubeconfig and
--context are passed to it, else KUBECONFIG, ~/.kube/config or the
in-cluster service account); --since and --until bound what the node
sends. The node's kubelet must
have enableSystemLogHandler and enableSystemLogQuery set (and, on 1.27
to 1.35, the NodeLogQuery feature gate), and the user get on
nodes/proxy. On the node itself, --journal reads the local journal
(journalctl -u kubelet -u containerd -u crio -o json). To read standard
input, name it: -.`

// live reports whether o reads a live node or the journal, and checks
// the live flags against the inputs named.
func (o *liveOptions) live(paths []string) (bool, error) {
	switch {
	case o.Journal && len(paths) > 0:
		return false, usageErrorf("--journal reads this machine's journal: name no input with it (%s)", strings.Join(paths, " "))
	case o.Journal && o.Node != "" && !o.ownNode:
		return false, usageErrorf("--journal and --node: choose one (--journal reads this machine's journal, --node NAME a node through the API server)")
	case o.Journal:
		if o.Kubeconfig != "" || o.Context != "" || o.Pattern != "" {
			return false, usageErrorf("--kubeconfig, --context and --pattern are for --node; --journal reads this machine's journal")
		}
		return true, nil
	case o.Node != "" && len(paths) == 0:
		if err := nodelog.CheckNode(o.Node); err != nil {
			return false, usageErrorf("--node: %v", err)
		}
		return true, nil
	}
	var given []string
	for _, f := range []struct {
		name string
		set  bool
	}{
		{"--node", o.Node != "" && !o.ownNode},
		{"--kubeconfig", o.Kubeconfig != ""},
		{"--context", o.Context != ""},
		{"--unit", len(o.Units) > 0},
		{"--pattern", o.Pattern != ""},
		{"--since", o.Since != "" && !o.ownSince},
		{"--until", o.Until != "" && !o.ownSince},
	} {
		if f.set {
			given = append(given, f.name)
		}
	}
	if len(given) > 0 {
		return false, usageErrorf("%s: for reading a live node (--node NAME with no input named) or the journal (--journal); with inputs named, leave it out", strings.Join(given, ", "))
	}
	return false, nil
}

// window is --since and --until as times: RFC3339, or a duration back
// from now.
func (o *liveOptions) window(now time.Time) (since, until time.Time, err error) {
	if since, err = timeArg("since", o.Since, now); err != nil {
		return
	}
	if until, err = timeArg("until", o.Until, now); err != nil {
		return
	}
	if !since.IsZero() && !until.IsZero() && until.Before(since) {
		err = usageErrorf("--until %s is before --since %s", o.Until, o.Since)
		return
	}
	if o.Follow && !until.IsZero() {
		err = usageErrorf("-f follows the log as it grows and --until ends it: choose one")
	}
	return
}

// liveSources opens the live sources o names: one per unit of the node,
// or the journal. A refusal is an input error (exit 2) that says what the
// node must enable. notes are what the reader should know (a node that
// sends its whole log whatever the window).
func (o *liveOptions) liveSources(ctx context.Context, ioS *IO) (srcs []parser.Source, notes []error, err error) {
	now := time.Now
	if ioS.Now != nil {
		now = ioS.Now
	}
	since, until, err := o.window(now())
	if err != nil {
		return nil, nil, err
	}
	if o.Journal {
		j := nodelog.Journal{Command: o.journalctl, Units: o.Units, Since: since, Until: until, Follow: o.Follow}
		rc, err := j.Open(ctx)
		if err != nil {
			return nil, nil, inputError(err)
		}
		src := parser.StreamSource("journal", "", "", now(), rc)
		return []parser.Source{src}, nil, nil
	}
	c, err := nodelog.NewClient(nodelog.Config{Kubeconfig: o.Kubeconfig, Context: o.Context, Kubectl: ioS.Getenv("PODFLOW_KUBECTL")})
	if err != nil {
		return nil, nil, inputError(err)
	}
	// kubectl proxy runs until the last unit's log is closed.
	held := &heldBy{close: c.Close}
	units := o.Units
	if len(units) == 0 {
		units = []string{"kubelet"}
	}
	var opened []io.Closer
	for _, u := range units {
		q := nodelog.Query{Service: u, Since: since, Until: until, Pattern: o.Pattern}
		var rc io.ReadCloser
		var whole bool
		if o.Follow {
			rc, whole, err = c.Follow(ctx, o.Node, q, nodelog.FollowOptions{Every: o.every})
		} else {
			rc, whole, err = c.Open(ctx, o.Node, q)
		}
		if err != nil {
			for _, s := range opened {
				s.Close()
			}
			c.Close()
			return nil, nil, inputError(err)
		}
		rc = held.hold(rc)
		opened = append(opened, rc)
		if whole && (!since.IsZero() || !until.IsZero() || o.Pattern != "") {
			notes = append(notes, fmt.Errorf("node %s keeps the %s log in a file (/var/log), which the node log query sends whole: --since, --until and --pattern were not applied on the node, and the whole log was read", o.Node, u))
		}
		name := "node/" + o.Node
		if len(units) > 1 || u != "kubelet" {
			name += "/" + u
		}
		comp := ""
		if u == "kubelet" || u == "containerd" || u == "crio" {
			comp = u
		}
		srcs = append(srcs, parser.StreamSource(name, o.Node, comp, now(), rc))
	}
	return srcs, notes, nil
}

// heldBy closes what the readers it holds need once the last of them
// is closed.
type heldBy struct {
	mu    sync.Mutex
	n     int
	close func() error
}

func (h *heldBy) hold(rc io.ReadCloser) io.ReadCloser {
	h.mu.Lock()
	h.n++
	h.mu.Unlock()
	return &heldReader{ReadCloser: rc, by: h}
}

type heldReader struct {
	io.ReadCloser
	by   *heldBy
	once sync.Once
}

func (r *heldReader) Close() error {
	err := r.ReadCloser.Close()
	r.once.Do(func() {
		h := r.by
		h.mu.Lock()
		h.n--
		last := h.n == 0
		h.mu.Unlock()
		if last {
			h.close()
		}
	})
	return err
}

// spoolLive reads the live sources o names into temporary files, for a
// command that reads its inputs twice (lines pod: once to find the pod,
// once for its lines), which a node's answer cannot be. It returns the
// files, the name each stands for, and a cleanup.
func (o *liveOptions) spoolLive(ioS *IO) (paths []string, names map[string]string, cleanup func(), err error) {
	srcs, notes, err := o.liveSources(context.Background(), ioS)
	if err != nil {
		return nil, nil, nil, err
	}
	(&Analysis{Notes: notes}).warn(ioS)
	names = map[string]string{}
	var files []*os.File
	cleanup = func() {
		for _, f := range files {
			f.Close()
			os.Remove(f.Name())
		}
	}
	for _, s := range srcs {
		f, err := os.CreateTemp("", "podflow-live-*.log")
		if err != nil {
			cleanup()
			return nil, nil, nil, inputError(fmt.Errorf("%s: spool: %w", s.Name, err))
		}
		files = append(files, f)
		rc, err := s.Open()
		if err == nil {
			_, err = io.Copy(f, rc)
			rc.Close()
		}
		if err != nil {
			cleanup()
			return nil, nil, nil, inputError(fmt.Errorf("%s: %w", s.Name, err))
		}
		paths = append(paths, f.Name())
		names[f.Name()] = s.Name
	}
	return paths, names, cleanup, nil
}
