package catalog

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestPatternMatch(t *testing.T) {
	tests := []struct {
		format, text string
		want         bool
	}{
		{"SyncPod enter", "SyncPod enter", true},
		{"SyncPod enter", "SyncPod enter ", false},
		{"Killing container %q with %d second grace period", `Killing container "docker://abc" with 30 second grace period`, true},
		{"Killing container %q with %d second grace period", `Killing container "docker://abc" with 30 seconds`, false},
		{"%v", "anything at all", true},
		{"%s: %v", "a: b", true},
		{"%s: %v", "a b", false},
		{"100%% sure %s", "100% sure x", true},
		{"100%% sure %s", "100%% sure x", false},
		{"MountVolume.SetUp succeeded for volume %v", `MountVolume.SetUp succeeded for volume "config" (UniqueName: "x") pod "p" (UID: "u") `, true},
		{"a%vb%vb", "abb", true}, // the verbs render empty
		{"a%vb%vb", "ab", false}, // two b's needed
		{"ab%vab", "ab", false},  // head and tail may not overlap
		{"x %-10.3f y", "x 1.000 y", true},
		{"dangling %", "dangling %", true},
	}
	for _, tt := range tests {
		if got := compile(tt.format).match(tt.text); got != tt.want {
			t.Errorf("compile(%q).match(%q) = %v, want %v", tt.format, tt.text, got, tt.want)
		}
	}
}

func TestCanStartWith(t *testing.T) {
	tests := []struct {
		format, prefix string
		want           bool
	}{
		{"Killing container %q with %d second grace period", "Killing container ", true},
		{"Killing container %q with %d second grace period", `Killing container "`, true}, // the verb renders the quote
		{"Killing container %q with %d second grace period", "Killing pod", false},
		{"No sandbox for pod %q can be found", "No sandbox", true},
		{"%s is ready", "anything", true},
		{"SyncLoop (ADD, %q): %q", "SyncLoop (ADD, ", true},
		{"plain text", "plain text and more", false},
	}
	for _, tt := range tests {
		if got := compile(tt.format).canStartWith(tt.prefix); got != tt.want {
			t.Errorf("compile(%q).canStartWith(%q) = %v, want %v", tt.format, tt.prefix, got, tt.want)
		}
	}
}

const small = `# a test catalog
@versions	kubelet	1.11 1.12 1.13 1.14 1.15
@source	kubelet	1.11	k8s.io/kubernetes@v1.11.10	pkg/kubelet
kubelet	msg	I	4		SyncPod enter	pod,podUID	kubelet.go	1.13-1.15	pod;podUID
kubelet	printf	I	2		Killing container %q with %d second grace period		kuberuntime_container.go	1.11-1.12,1.14	
kubelet	event	W	3	BackOff	Back-off restarting failed container		kuberuntime_manager.go	1.11	object ref
kubelet	dynamic	E	0		err.Error()		kubelet.go	1.11-1.15	
`

func TestParseAndVersions(t *testing.T) {
	c, err := Parse(small)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Entries) != 4 {
		t.Fatalf("%d entries, want 4", len(c.Entries))
	}
	tests := []struct {
		i       int
		str     string
		has     []string
		hasNot  []string
		podBear bool
	}{
		{0, "1.13+", []string{"1.13", "v1.14.2", "1.15"}, []string{"1.12", "1.16"}, true},
		{1, "1.11–1.12, 1.14", []string{"1.11", "1.12", "1.14"}, []string{"1.13", "1.15"}, false},
		{2, "1.11", []string{"1.11"}, []string{"1.12"}, true},
		{3, "1.11+", []string{"1.11", "1.15"}, nil, false},
	}
	for _, tt := range tests {
		e := c.Entries[tt.i]
		if got := e.Versions.String(); got != tt.str {
			t.Errorf("%q: versions %q, want %q", e.Text, got, tt.str)
		}
		for _, v := range tt.has {
			if !e.Versions.Has(v) {
				t.Errorf("%q: Has(%s) false", e.Text, v)
			}
		}
		for _, v := range tt.hasNot {
			if e.Versions.Has(v) {
				t.Errorf("%q: Has(%s) true", e.Text, v)
			}
		}
		if e.PodBearing() != tt.podBear {
			t.Errorf("%q: PodBearing %v", e.Text, e.PodBearing())
		}
	}
	if got := c.Match(Kubelet, "1.14", "SyncPod enter"); len(got) != 1 {
		t.Errorf("Match SyncPod enter in 1.14: %d entries", len(got))
	}
	if got := c.Match(Kubelet, "1.12", "SyncPod enter"); len(got) != 0 {
		t.Errorf("Match SyncPod enter in 1.12 (not logged there): %d entries", len(got))
	}
	if got := c.Match(Kubelet, "1.13", `Killing container "x" with 2 second grace period`); len(got) != 0 {
		t.Errorf("printf matched in 1.13, a version without it")
	}
	if got := c.Match(Kubelet, "", `Killing container "x" with 2 second grace period`); len(got) != 1 {
		t.Errorf("printf not matched in any version")
	}
	if got := c.MatchEvent(Kubelet, "1.11", "BackOff", "Back-off restarting failed container"); len(got) != 1 {
		t.Errorf("event not matched")
	}
}

func TestParseErrors(t *testing.T) {
	bad := []string{
		"kubelet\tmsg\tI\t0\t\tx\t\tf.go\t1.11\t\n",                                     // no @versions
		"@versions\tkubelet\t1.11\nkubelet\tmsg\tI\t0\t\tx\t\tf.go\t1.12\t\n",           // version not listed
		"@versions\tkubelet\t1.11 1.12\nkubelet\tmsg\tI\t0\t\tx\t\tf.go\t1.12-1.11\t\n", // backwards
		"@versions\tkubelet\t1.11\nkubelet\tmsg\tI\t0\t\tx\n",                           // short
		"@versions\tkubelet\t1.11\nkubelet\tweird\tI\t0\t\tx\t\tf.go\t1.11\t\n",         // kind
	}
	for _, b := range bad {
		if _, err := Parse(b); err == nil {
			t.Errorf("Parse(%q) succeeded", b)
		}
	}
}

// TestEmbeddedCoversVersions: the embedded catalog has every kubelet
// minor from 1.11 on without a gap, and each component its messages.
func TestEmbeddedCoversVersions(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	kv := c.ComponentVersions(Kubelet)
	if len(kv) == 0 || kv[0] != "1.11" {
		t.Fatalf("kubelet versions %v do not start at 1.11", kv)
	}
	for i, v := range kv {
		if want := fmt.Sprintf("1.%d", 11+i); v != want {
			t.Fatalf("kubelet versions %v: %s where %s was due", kv, v, want)
		}
	}
	if n, _ := strconv.Atoi(strings.TrimPrefix(kv[len(kv)-1], "1.")); n < 37 {
		t.Errorf("newest kubelet %s is older than 1.37, the newest served when this test was written", kv[len(kv)-1])
	}
	count := map[string]int{}
	for _, e := range c.Entries {
		count[e.Component]++
		if e.Versions.Empty() {
			t.Errorf("%s %q has no versions", e.Component, e.Text)
		}
	}
	for _, comp := range []string{Kubelet, KubeControllerManager, Containerd, CRIO, KubeletLegacy} {
		if count[comp] < 20 {
			t.Errorf("%s has %d messages", comp, count[comp])
		}
	}
}

// header is a klog line's header and a quoted structured message.
var header = regexp.MustCompile(`^[IWEF]\d{4} [\d:.]+\s+\d+ ([\w.-]+):\d+\] (".*)$`)

// TestCorpusLinesMatch proves the catalog on real lines: every
// structured klog line of testdata/corpus that names a pod by a key is
// a message the catalog lists for that kubelet version, from the file
// the line says it was logged from; every other structured line is a
// message of that version too.
func TestCorpusLinesMatch(t *testing.T) {
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob("../../testdata/corpus/v*/*.log")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus logs (%v)", err)
	}
	podKey := regexp.MustCompile(`(^| )(pod|pods|podUID)=`)
	checked, all := 0, 0
	misses := map[string]int{}
	for _, fn := range files {
		version := filepath.Base(filepath.Dir(fn)) // v1.36.3
		f, err := os.Open(fn)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			m := header.FindStringSubmatch(sc.Text())
			if m == nil {
				continue
			}
			quoted, err := strconv.QuotedPrefix(m[2])
			if err != nil {
				continue
			}
			rest := m[2][len(quoted):]
			msg, _ := strconv.Unquote(quoted)
			all++
			if !podKey.MatchString(rest) {
				// every other structured line must be a message of its
				// version too (from any file: a helper logs for its caller)
				es := c.Match(Kubelet, version, msg)
				if notRead[m[1]] == "" && !slices.ContainsFunc(es, func(e *Entry) bool { return fromFile(e, m[1]) && e.Literal() >= 4 }) {
					misses[fmt.Sprintf("%s %s %q (no pod key; %d entries, none from that file)", version, m[1], msg, len(es))]++
				}
				continue
			}
			checked++
			es := c.Match(Kubelet, version, msg)
			if !slices.ContainsFunc(es, func(e *Entry) bool { return fromFile(e, m[1]) }) {
				misses[fmt.Sprintf("%s %s %q (%d entries, none from that file)", version, m[1], msg, len(es))]++
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", fn, err)
		}
	}
	if checked < 1000 || all < 2*checked {
		t.Fatalf("only %d lines with a pod key of %d structured lines checked: the corpus or the line pattern changed", checked, all)
	}
	for k, n := range misses {
		t.Errorf("%d× %s", n, k)
	}
}

// fromFile says a line naming this file can be the entry's: one of its
// files, or "*" (a call that logs at its caller's depth, such as
// apimachinery's HandleError: the line names the caller).
func fromFile(e *Entry, file string) bool {
	return slices.Contains(e.Files, file) || slices.Contains(e.Files, "*")
}

// notRead are the files of real lines (without a pod) from modules the
// catalog does not read, and why.
var notRead = map[string]string{
	"dynamic_serving_content.go": "k8s.io/apiserver's dynamic certificates (the kubelet's serving certificate): a module not read",
}
