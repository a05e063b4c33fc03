package cmd

import (
	"bytes"
	"io"
	"os"

	"github.com/podflow/podflow/internal/redact"
	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/timeline"
)

// redactHelp is the --redact flag's help; the README repeats it.
const redactHelp = `mask IP addresses (ip-…), host and node names (host-…), tokens and secrets (token-…), URL and registry credentials (cred-…) and environment values (value-…) in every output, the same value getting the same mask (a keyed hash: see README); pod names, namespaces, container names, pod UIDs, runtime IDs and public registry names stay (a static pod's node-name suffix is masked)`

// present is where the engine's results leave for printing: with
// --redact it masks the FlowList in place (redact.FlowList: the same inputs
// give the same masks in every command and output); raw lines read back
// later are masked by the same Redactor (Analysis.ReadRaws, lines pod).
func present(r *redact.Redactor, fl *timeline.FlowList) { redact.FlowList(r, fl) }

// redactAll masks command-line values (names, patterns) the way the flows
// they are matched against were masked.
func redactAll(r *redact.Redactor, vs []string) []string {
	if r == nil {
		return vs
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = r.Text(v)
	}
	return out
}

// redactHead is how much of each input keys --redact's masks.
const redactHead = 4 << 10

// headReader keeps the first bytes read from standard input, to key the
// masks (keyRedact) without reading it twice.
type headReader struct {
	r    io.Reader
	head []byte
	read bool
}

// Head reads and keeps the first redactHead bytes (fewer at the end of
// the input); Read gives them back first.
func (h *headReader) Head() []byte {
	if !h.read {
		h.read = true
		buf := make([]byte, redactHead)
		n, _ := io.ReadFull(h.r, buf)
		h.head = buf[:n]
		h.r = io.MultiReader(bytes.NewReader(h.head), h.r)
	}
	return h.head
}

func (h *headReader) Read(p []byte) (int, error) { return h.r.Read(p) }

// redactStdin is standard input as the inputs are to be read from: under
// --redact, through a headReader that keyRedact reads the head of.
func redactStdin(ioS *IO, paths []string) io.Reader {
	if ioS.Redact == nil || !contains(paths, "-") {
		return ioS.In
	}
	if h, ok := ioS.In.(*headReader); ok {
		return h
	}
	h := &headReader{r: ioS.In}
	ioS.In = h
	return h
}

// keyRedact keys --redact's masks (redact.Redactor.SetKey) with the first
// 4 KiB of every input as stored, in any order, so that the same inputs
// give the same masks in every command, and one who has only the output
// cannot compute a mask by hashing guesses; PODFLOW_REDACT_KEY, when set,
// is the key instead.
func keyRedact(ioS *IO, srcs []parser.Source, stdin io.Reader) {
	r := ioS.Redact
	if r == nil {
		return
	}
	getenv := ioS.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if k := getenv("PODFLOW_REDACT_KEY"); k != "" {
		r.SetKey([]byte("key:" + k))
		return
	}
	var parts [][]byte
	for _, s := range srcs {
		if s.IsStdin() {
			if h, ok := stdin.(*headReader); ok {
				parts = append(parts, h.Head())
			}
			continue
		}
		f, err := os.Open(s.Path)
		if err != nil {
			continue
		}
		buf := make([]byte, redactHead)
		n, _ := io.ReadFull(f, buf)
		f.Close()
		parts = append(parts, buf[:n])
	}
	r.SetKey(parts...)
}
