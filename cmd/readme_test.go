package cmd

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// The README's ```console blocks are real sessions: each `$ podflow …` line
// is run from the repository root and its output must match what follows,
// so the README never shows output podflow no longer prints. A block may end
// its output early with a line "…" (the rest is not compared). `-update`
// rewrites the outputs in place (review the diff).
func TestReadmeSessions(t *testing.T) {
	t.Chdir("..")
	raw, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	var out []string
	sessions := 0
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		if lines[i] != "```console" {
			continue
		}
		// One block: commands and their outputs until the closing fence.
		i++
		for i < len(lines) && lines[i] != "```" {
			cmdLine := lines[i]
			out = append(out, cmdLine)
			i++
			if !strings.HasPrefix(cmdLine, "$ podflow ") {
				continue
			}
			var want []string
			for i < len(lines) && lines[i] != "```" && !strings.HasPrefix(lines[i], "$ ") {
				want = append(want, lines[i])
				i++
			}
			sessions++
			got := runSession(t, strings.TrimPrefix(cmdLine, "$ podflow "))
			cut := len(want) > 0 && want[len(want)-1] == "…"
			if cut {
				n := len(want) - 1
				if n > len(got) {
					n = len(got)
				}
				got = append(got[:n:n], "…")
			}
			if updating() {
				out = append(out, got...)
				continue
			}
			out = append(out, want...)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("README session `podflow %s` prints:\n%s\nREADME shows:\n%s\n(run `go test ./cmd -run TestReadmeSessions -update` and review the diff)",
					strings.TrimPrefix(cmdLine, "$ podflow "), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
		if i < len(lines) {
			out = append(out, lines[i])
		}
	}
	if sessions == 0 {
		t.Fatal("README has no ```console session")
	}
	if updating() {
		if err := os.WriteFile("README.md", []byte(strings.Join(out, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runSession runs one README command line (words split on spaces, single
// quotes group) and returns its stdout lines, trailing spaces trimmed as an
// editor would.
func runSession(t *testing.T, cmdLine string) []string {
	t.Helper()
	args := splitWords(cmdLine)
	stdout, stderr, code := runPodflow(t, false, args...)
	if code != 0 && code != ExitRule {
		t.Errorf("podflow %s: exit %d: %s", cmdLine, code, stderr)
	}
	var got []string
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for sc.Scan() {
		got = append(got, strings.TrimRight(sc.Text(), " "))
	}
	return got
}

func splitWords(s string) []string {
	var words []string
	var cur strings.Builder
	inQuote, any := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			inQuote, any = !inQuote, true
		case r == ' ' && !inQuote:
			if any {
				words = append(words, cur.String())
				cur.Reset()
				any = false
			}
		default:
			cur.WriteRune(r)
			any = true
		}
	}
	if any {
		words = append(words, cur.String())
	}
	return words
}
