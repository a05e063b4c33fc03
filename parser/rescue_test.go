package parser

import (
	"fmt"
	"strings"
	"testing"
)

// TestRescue: of the records Want declines, the rescue decodes those at
// its severity and the first that names each identity, whatever the
// rendering of the identity: a one-pod list is the pod, and a key with
// a Needs names one only beside the key it needs.
func TestRescue(t *testing.T) {
	rescue := &Rescue{
		Keys:     []string{"pod", "pods", "podUID", "podName"},
		Severity: SeverityError,
		Needs:    map[string]string{"podName": "podNamespace"},
		Text: func(b []byte) []byte {
			if i := strings.Index(string(b), "uid:"); i >= 0 {
				return b[i+4 : i+8]
			}
			return nil
		},
	}
	const h = `I1122 06:03:25.671184   21321 `
	for _, c := range []struct {
		name  string
		lines []string
		want  []int // the lines decoded, 1-based
	}{
		{"first of each pod", []string{
			h + `a.go:1] "Routine" pod="ns/a"`,
			h + `a.go:1] "Routine" pod="ns/a"`,
			h + `a.go:1] "Routine" pod="ns/b"`,
			h + `b.go:2] "Other" x=1 pod="ns/a"`,
		}, []int{1, 3}},
		{"a list of one is its pod", []string{
			h + `a.go:1] "Sync" pods=["ns/a"]`,
			h + `b.go:2] "Routine" pod="ns/a"`,
			h + `a.go:1] "Sync" pods=["ns/b","ns/c"]`,
			h + `b.go:2] "Routine" pod="ns/b"`,
		}, []int{1, 3, 4}},
		{"a name alone is none", []string{
			h + `c.go:3] "Pinned" podName="web-1"`,
			h + `c.go:3] "Pinned" podName="web-2"`,
			`E1122 06:03:25.671184   21321 c.go:4] "Refused" podName="web-3"`,
		}, []int{3}},
		{"a name with its namespace", []string{
			h + `d.go:5] "Affinity" podName="db-0" podNamespace="data"`,
			h + `d.go:5] "Affinity" podName="db-0" podNamespace="data"`,
			h + `d.go:5] "Affinity" podName="db-1" podNamespace="data"`,
			h + `d.go:5] "Affinity" podName="db-0" podNamespace="other"`,
			h + `a.go:1] "Routine" pod="other/db-0"`,
			h + `a.go:1] "Routine" pod="other/db-1"`,
		}, []int{1, 3, 4, 6}},
		{"a key without its need leaves Text", []string{
			h + `e.go:6] "Mount" podName="web-1" path="uid:abcd"`,
			h + `e.go:6] "Mount" podName="web-2" path="uid:abcd"`,
			h + `e.go:6] "Mount" podName="web-2" path="uid:ef01"`,
		}, []int{1, 3}},
		{"printf text", []string{
			h + `f.go:7] Setting up uid:abcd`,
			h + `f.go:7] Setting up uid:abcd again`,
			h + `f.go:7] Setting up uid:ef01`,
		}, []int{1, 3}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(strings.Join(c.lines, "\n")+"\n"), Options{Year: 2026, Want: func([]byte) bool { return false }, Rescue: rescue})
			var got []int
			for {
				rec, err := r.Next()
				if err != nil {
					break
				}
				got = append(got, int(rec.Pos.Line))
			}
			if len(got) != len(c.want) {
				t.Fatalf("decoded lines %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("decoded lines %v, want %v", got, c.want)
				}
			}
		})
	}
}

// FuzzRescue reads fuzzed klog lines, some at error severity, with every
// message declined and the rescue on, on one goroutine and in parallel
// chunks: nothing panics, and every error line is decoded, whatever its
// payload does to the key, list and text searches.
func FuzzRescue(f *testing.F) {
	f.Add([]byte("\"Routine\" pod=\"ns/a\"\n\"Sync\" pods=[\"ns/a\"]\n\"Pinned\" podName=\"x\"\nSetting up uid:abcd"), uint64(0b1010))
	f.Add([]byte("\"A\" pods=[\"\"]\n\"B\" pods=[\"]\n\"C\" podName=\"x\" podNamespace=\n\"D\" pod="), uint64(1))
	rescue := &Rescue{
		Keys:     []string{"pod", "pods", "podUID", "podName"},
		Severity: SeverityError,
		Needs:    map[string]string{"podName": "podNamespace"},
		Text: func(b []byte) []byte {
			if i := strings.Index(string(b), "uid:"); i >= 0 && i+8 <= len(b) {
				return b[i+4 : i+8]
			}
			return nil
		},
	}
	f.Fuzz(func(t *testing.T, data []byte, sevs uint64) {
		var sb strings.Builder
		errs := map[int]bool{}
		for i, payload := range strings.SplitN(string(data), "\n", 64) {
			sev := byte('I')
			if sevs&(1<<i) != 0 {
				sev, errs[i+1] = 'E', true
			}
			fmt.Fprintf(&sb, "%c1122 06:03:25.%06d   21321 f%d.go:%d] %s\n", sev, i, i%3, i%5, payload)
		}
		in := sb.String()
		for _, workers := range []int{1, 2} {
			r := NewReader(strings.NewReader(in), Options{Year: 2026, Workers: workers, ChunkBytes: 64, Want: func([]byte) bool { return false }, Rescue: rescue})
			got := map[int]bool{}
			for {
				rec, err := r.Next()
				if err != nil {
					break
				}
				got[int(rec.Pos.Line)] = true
			}
			for line := range errs {
				if !got[line] {
					t.Fatalf("workers=%d: error line %d not decoded\n%s", workers, line, in)
				}
			}
		}
	})
}
