package cmd

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/podflow/podflow/internal/redact"
)

// testRedactor is the Redactor a command of the tests makes with --redact
// (NewTestIO's key), for a view driven without Main (the TUI).
func testRedactor(t *testing.T) *redact.Redactor {
	t.Helper()
	ioS, _, _, _ := NewTestIO(false)
	r, err := newRedactor(ioS, "")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// keyIO is a test IO whose configuration directory is dir and whose
// environment is env.
func keyIO(dir string, env map[string]string) *IO {
	ioS, _, _, _ := NewTestIO(false)
	ioS.Getenv = func(k string) string { return env[k] }
	ioS.ConfigDir = func() (string, error) { return dir, nil }
	return ioS
}

func runIO(ioS *IO, args ...string) (stdout, stderr string, code int) {
	out, errOut := &strings.Builder{}, &strings.Builder{}
	ioS.Out, ioS.ErrOut = out, errOut
	code = Main(ioS, append([]string{"podflow"}, args...))
	return out.String(), errOut.String(), code
}

var reMask = regexp.MustCompile(`\b(?:ip|host|token|cred|value)-[0-9a-f]{8,24}\b`)

// TestRedactKeyRecovery runs the attack of issue #28 against parse
// --redact: whoever holds the output holds the input's first lines but
// for their masked values, which are guessable (0.0.0.0, true), so a key
// derived from the input's head could be rebuilt, and every mask then
// reversed by hashing guesses. The attacker here is stronger still: it
// has the real head of the input and, as its dictionary, every value the
// input holds, and it tries every key the head could give (the head's
// hash as podflow keyed it before, the head itself, its SHA-256, an empty
// key) at 32 and 64 bits of mask. It must find nothing: the key is the
// user's, random, kept in their configuration directory. (Before, the
// first candidate reproduced the output's masks.) It must also find the
// masks when the key is the head's, or it proves nothing.
func TestRedactKeyRecovery(t *testing.T) {
	in := filepath.Join("..", "testdata", "corpus", "v1.36.3", "06b-static-pod-add-remove.log")
	raw, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	out, stderr, code := runIO(keyIO(dir, nil), "parse", in, "--redact")
	if code != ExitOK {
		t.Fatalf("parse --redact: exit %d: %s", code, stderr)
	}
	masks := reMask.FindAllString(out, -1)
	if len(masks) < 20 {
		t.Fatalf("%d masks in the output; the attack needs some", len(masks))
	}
	head := raw[:min(len(raw), 4<<10)]
	dict := attackDictionary(string(raw))
	if found := keyAttack(head, dict, masks); len(found) > 0 {
		t.Errorf("the attack reversed %d masks from the output, e.g. %s", len(found), found[0])
	}

	// The same attack against a Redactor keyed as podflow keyed it before
	// (the head's hash) reverses masks.
	old := redact.New()
	old.SetKey(oldHeadKey(head))
	var texts []string
	for _, v := range dict[:min(len(dict), 200)] {
		texts = append(texts, old.Text("peer "+v+" refused"), old.Host(v))
	}
	if found := keyAttack(head, dict, reMask.FindAllString(strings.Join(texts, " "), -1)); len(found) == 0 {
		t.Error("the attack finds nothing even when the key is the input's head: it tests nothing")
	}

	// The key was created for the user alone, and a second run masks alike.
	path := filepath.Join(dir, "podflow", redact.KeyFileName)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatalf("no key file: %v", err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, want 0600", fi.Mode().Perm())
	}
	if di, err := os.Stat(filepath.Dir(path)); err != nil || di.Mode().Perm() != 0o700 {
		t.Errorf("key directory: %v %v, want mode 0700", di.Mode().Perm(), err)
	}
	again, _, _ := runIO(keyIO(dir, nil), "parse", in, "--redact")
	if again != out {
		t.Error("a second run with the same key file masks differently")
	}
}

// attackDictionary is every value an attacker would try: the guessable
// ones and, to be generous, every address, word and name in the input.
func attackDictionary(text string) []string {
	seen := map[string]bool{"0.0.0.0": true, "true": true, "false": true, "::": true}
	for _, w := range regexp.MustCompile(`[A-Za-z0-9][A-Za-z0-9._:-]*[A-Za-z0-9]`).FindAllString(text, -1) {
		seen[w] = true
	}
	dict := make([]string, 0, len(seen))
	for w := range seen {
		dict = append(dict, w)
	}
	sort.Strings(dict)
	return dict
}

// oldHeadKey is the key podflow derived from an input's first 4 KiB
// before issue #28.
func oldHeadKey(head []byte) []byte {
	s := sha256.Sum256(head)
	h := sha256.New()
	h.Write([]byte("podflow-redact-v1"))
	h.Write(s[:])
	return h.Sum(nil)
}

// keyAttack hashes every value of dict under every key the head could
// give, and returns the masks of masks it reproduces, as "mask=value".
func keyAttack(head []byte, dict, masks []string) []string {
	have := map[string]bool{}
	for _, m := range masks {
		have[m] = true
	}
	sum := sha256.Sum256(head)
	keys := [][]byte{oldHeadKey(head), head, sum[:], nil}
	var found []string
	for _, key := range keys {
		for _, kind := range []string{redact.KindIP, redact.KindHost, redact.KindValue, redact.KindToken, redact.KindCred} {
			for _, v := range dict {
				h := hmac.New(sha256.New, key)
				h.Write([]byte(kind + "\x00" + v))
				s := h.Sum(nil)
				for _, n := range []int{4, 8} {
					if m := kind + "-" + hex.EncodeToString(s[:n]); have[m] {
						found = append(found, m+"="+v)
					}
				}
			}
		}
	}
	return found
}

// TestRedactKeySources: the user's own key file is created once and used
// by every run; PODFLOW_REDACT_KEY and a key file (--redact-key-file or
// PODFLOW_REDACT_KEY_FILE) override it, a team sharing one gets the same
// masks, and a key too short to be secret, or a file that cannot be read,
// is refused.
func TestRedactKeySources(t *testing.T) {
	in := filepath.Join("..", "testdata", "corpus", "v1.36.3", "04-sandbox-failure.log")
	args := []string{"get", "pods", in, "--redact", "-o", "wide"}
	mine, theirs := t.TempDir(), t.TempDir()
	own, _, code := runIO(keyIO(mine, nil), args...)
	if code != ExitOK || !reMask.MatchString(own) {
		t.Fatalf("exit %d, output %q", code, own)
	}
	other, _, _ := runIO(keyIO(theirs, nil), args...)
	if other == own {
		t.Error("two users' own keys give the same masks")
	}
	shared := filepath.Join(t.TempDir(), "team.key")
	if err := os.WriteFile(shared, []byte("7f3e9a1c55d20b8e4a6c9f13b7d2e08a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a, _, _ := runIO(keyIO(mine, nil), append(args, "--redact-key-file", shared)...)
	b, _, _ := runIO(keyIO(theirs, map[string]string{redactKeyFileEnv: shared}), args...)
	if a != b || a == own {
		t.Errorf("a shared key file: masks differ between team members, or equal the user's own:\n%s\n%s", a, b)
	}
	c, _, _ := runIO(keyIO(mine, map[string]string{"PODFLOW_REDACT_KEY": "7f3e9a1c55d20b8e4a6c9f13b7d2e08a"}), args...)
	d, _, _ := runIO(keyIO(theirs, map[string]string{"PODFLOW_REDACT_KEY": "7f3e9a1c55d20b8e4a6c9f13b7d2e08a"}), args...)
	if c != d || c == own {
		t.Error("PODFLOW_REDACT_KEY: masks differ between team members, or equal the user's own")
	}
	short := filepath.Join(t.TempDir(), "short.key")
	os.WriteFile(short, []byte("hunter2"), 0o600)
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{map[string]string{"PODFLOW_REDACT_KEY": "hunter2"}, args, "at least 16"},
		{nil, append(args, "--redact-key-file", short), "at least 16"},
		{map[string]string{redactKeyFileEnv: filepath.Join(shared, "missing")}, args, "redaction key"},
		{nil, []string{"get", "pods", in, "--redact-key-file", shared}, "without --redact"},
	} {
		_, stderr, code := runIO(keyIO(mine, tc.env), tc.args...)
		if code != ExitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want exit %d saying %q", tc.env, tc.args, code, stderr, ExitUsage, tc.want)
		}
	}
	// No configuration directory: masked all the same, with a key of the
	// run's own, and said so.
	ioS := keyIO("", nil)
	ioS.ConfigDir = func() (string, error) { return "", errors.New("$HOME is not defined") }
	out, stderr, code := runIO(ioS, args...)
	if code != ExitOK || !reMask.MatchString(out) || !strings.Contains(stderr, "this run's alone") {
		t.Errorf("no config dir: exit %d, stderr %q", code, stderr)
	}
}
