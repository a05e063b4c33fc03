package cmd

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/podflow/podflow/parser"
	"github.com/podflow/podflow/tools/benchgen/gen"
)

// TestStdinNotSpooled: standard input is read as a stream, nothing of it
// written to $TMPDIR (it was copied there whole: disk, or RAM on tmpfs,
// grew with it, and a small $TMPDIR cut it). With $TMPDIR a file, where
// nothing can be created, every command that reads lines back after the
// load (lines pod, describe pod, report) prints on standard input what it
// prints on the same file: real logs, a hard-wrapped one, a newest-first
// one, and a generated log of 24 MiB.
func TestStdinNotSpooled(t *testing.T) {
	dir := t.TempDir()
	inputs := map[string][]byte{}
	for _, p := range []string{
		corpus + "v1.36.3/01-happy-path.log",
		corpus + "v1.36.3/02-image-pull-failure.log",
		corpus + "v1.36.3/04-sandbox-failure.log",
		corpus + "v1.36.3/07-twenty-pods.log",
		corpus + "v1.36.3/11-volume-mount-failure.log",
		"../testdata/wild/nixos-39833-pause-denied.log",
		"../testdata/wild/containerd-12438-reverse.log",
		// (Not a kubectl describe paste: its end is the file's
		// modification time, or now for standard input.)
	} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs[filepath.Base(p)] = b
	}
	c, err := gen.LoadCorpus(corpus + "v1.36.3")
	if err != nil {
		t.Fatal(err)
	}
	var big bytes.Buffer
	if _, _, err := gen.Generate(c, &big, 24<<20, 7); err != nil {
		t.Fatal(err)
	}
	inputs["generated"] = big.Bytes()

	notDir := filepath.Join(dir, "not-a-directory")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", notDir)
	if _, err := os.CreateTemp("", "x"); err == nil {
		t.Fatal("a temporary file could be made: the test proves nothing")
	}
	// The file is named Q, as long a name as "-", so that what is cut to
	// fit a width is cut alike.
	t.Chdir(dir)
	asStdin := regexp.MustCompile(`\bQ\b`)
	run := func(stdin []byte, args ...string) (string, int) {
		ioS, in, out, _ := NewTestIO(false)
		in.Write(stdin)
		code := Main(ioS, append([]string{"podflow"}, args...))
		return out.String(), code
	}
	for name, data := range inputs {
		if err := os.WriteFile("Q", data, 0o644); err != nil {
			t.Fatal(err)
		}
		names, _ := run(nil, "get", "pods", "Q", "-o", "name")
		cmds := [][]string{{"get", "pods"}, {"report", "-o", "-"}}
		pods := strings.Fields(names)
		for i, p := range pods {
			if i == 3 || i > 0 && name == "generated" {
				break
			}
			p = p[strings.LastIndexByte(p, '/')+1:]
			cmds = append(cmds, []string{"lines", "pod", p}, []string{"describe", "pod", p})
		}
		if len(pods) == 0 {
			t.Errorf("%s: no pods", name)
		}
		for _, args := range cmds {
			want, wantCode := run(nil, append(args, "Q")...)
			got, code := run(data, append(args, "-")...)
			if want = asStdin.ReplaceAllString(want, "-"); got != want || code != wantCode {
				t.Errorf("%s: %s: standard input gives (exit %d)\n%.3000s\nthe file (exit %d)\n%.3000s", name, strings.Join(args, " "), code, got, wantCode, want)
			}
		}
	}
}

// TestPodLinesPassBounded: what lines pod keeps of standard input does not
// grow with it: every line while they fit in half of parser.KeepBytes, then
// the pod's lines only (and 8 MiB of lines naming IDs, held).
func TestPodLinesPassBounded(t *testing.T) {
	c, err := gen.LoadCorpus(corpus + "v1.36.3")
	if err != nil {
		t.Fatal(err)
	}
	var big bytes.Buffer
	if _, _, err := gen.Generate(c, &big, 64<<20, 3); err != nil {
		t.Fatal(err)
	}
	// A pod of the first hour and of the last.
	var early, late string
	for _, m := range regexp.MustCompile(`pod="[^/"]+/([^"]+)"`).FindAllSubmatch(big.Bytes(), -1) {
		if early == "" {
			early = string(m[1])
		}
		late = string(m[1])
	}
	for _, pod := range []string{early, late} {
		pass := startPodLinesPass(bytes.NewReader(big.Bytes()), pod, "", false, parser.Options{})
		// The load's side of the feed, read to its end as Analyze reads it.
		if _, err := io.Copy(io.Discard, pass.load); err != nil {
			t.Fatal(err)
		}
		kept, lost := pass.wait()
		var n, mine int
		for _, k := range kept {
			n += len(k.Raw)
			if bytes.Contains(k.Raw, []byte(pod)) {
				mine++
			}
		}
		t.Logf("%s: kept %d lines, %d MiB, %d naming the pod, of %d MiB", pod, len(kept), n>>20, mine, big.Len()>>20)
		if lost > 0 || mine == 0 {
			t.Errorf("%s: %d lines lost, %d naming the pod kept", pod, lost, mine)
		}
		if limit := parser.KeepBytes/2 + heldBytes + 1<<20; n > limit {
			t.Errorf("%s: kept %d bytes of a %d-byte input, want at most %d", pod, n, big.Len(), limit)
		}
	}
}
