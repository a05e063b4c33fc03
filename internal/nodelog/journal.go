package nodelog

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// DefaultUnits are the units --journal reads: the kubelet's and the
// container runtimes' (a unit the machine lacks adds nothing).
var DefaultUnits = []string{"kubelet", "containerd", "crio"}

// Journal reads the local journal with journalctl.
type Journal struct {
	// Command is journalctl's path or name (""= "journalctl", found in
	// PATH).
	Command string
	Units   []string // nil: DefaultUnits
	Since   time.Time
	Until   time.Time
	Follow  bool // journalctl -f: the reader ends when closed
}

// Args are journalctl's arguments: JSON entries (exact times with their
// year and zone, the unit of each line) of every unit, in time order.
func (j Journal) Args() []string {
	args := []string{"--no-pager", "--output=json", "--all"}
	units := j.Units
	if len(units) == 0 {
		units = DefaultUnits
	}
	for _, u := range units {
		args = append(args, "--unit="+u)
	}
	// journalctl reads a time without a zone in the machine's own; these
	// say UTC.
	if !j.Since.IsZero() {
		args = append(args, "--since="+j.Since.UTC().Format("2006-01-02 15:04:05")+" UTC")
	}
	if !j.Until.IsZero() {
		args = append(args, "--until="+j.Until.UTC().Format("2006-01-02 15:04:05")+" UTC")
	}
	if j.Follow {
		args = append(args, "--follow")
	}
	return args
}

// Open starts journalctl. Its entries are the reader's bytes; a failure
// (journalctl missing, an exit status other than 0, nothing at all to
// read) is the reader's error at the end, in words that say what to do.
func (j Journal) Open(ctx context.Context) (io.ReadCloser, error) {
	name := j.Command
	if name == "" {
		name = "journalctl"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		return nil, fmt.Errorf("--journal: %s not found (%w): --journal reads systemd's journal on the node itself; elsewhere read the node through the API server with --node NAME, or give the log as a file", name, errors.Unwrap(err))
	}
	ctx, cancel := context.WithCancel(ctx)
	cmd := exec.CommandContext(ctx, path, j.Args()...)
	stderr := &capped{max: 4 << 10}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		cancel()
		return nil, fmt.Errorf("--journal: %s: %w", path, err)
	}
	return &journalReader{cmd: cmd, out: out, stderr: stderr, cancel: cancel, ctx: ctx, units: j.units()}, nil
}

func (j Journal) units() []string {
	if len(j.Units) == 0 {
		return DefaultUnits
	}
	return j.Units
}

type journalReader struct {
	cmd    *exec.Cmd
	out    io.ReadCloser
	stderr *capped
	cancel context.CancelFunc
	ctx    context.Context
	units  []string
	n      int64
	err    error
}

func (r *journalReader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.out.Read(p)
	r.n += int64(n)
	if err == io.EOF {
		r.err = r.wait()
		return n, r.err
	}
	if err != nil {
		r.err = err
	}
	return n, err
}

// wait ends the command and says how it went: io.EOF when it gave
// entries and exited 0.
func (r *journalReader) wait() error {
	err := r.cmd.Wait()
	msg := strings.TrimSpace(r.stderr.String())
	switch {
	case r.ctx.Err() != nil:
		return io.EOF // closed (a follow ended)
	case err != nil && msg != "":
		return fmt.Errorf("--journal: journalctl %s: %w: %s", strings.Join(r.cmd.Args[1:], " "), err, oneLine(msg))
	case err != nil:
		return fmt.Errorf("--journal: journalctl %s: %w", strings.Join(r.cmd.Args[1:], " "), err)
	case r.n == 0:
		why := "is the kubelet a systemd unit here? (k3s: --unit k3s; k0s: --unit k0sworker; MicroK8s: --unit snap.microk8s.daemon-kubelite)"
		if msg != "" {
			why = oneLine(msg) + "; " + why
		}
		return fmt.Errorf("--journal: the journal holds no entries of the units %s in that window: %s", strings.Join(r.units, ", "), why)
	}
	return io.EOF
}

func (r *journalReader) Close() error {
	r.cancel()
	r.out.Close()
	if r.err == nil {
		r.cmd.Wait()
		r.err = io.EOF
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// capped keeps the first max bytes written to it.
type capped struct {
	bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		if len(p) > room {
			c.Buffer.Write(p[:room])
		} else {
			c.Buffer.Write(p)
		}
	}
	return len(p), nil
}
