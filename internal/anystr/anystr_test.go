package anystr

import (
	"bytes"
	"strings"
	"testing"
)

// naive is what Match must answer.
func naive(b []byte, needles [][]byte) bool {
	for _, n := range needles {
		if bytes.Contains(b, n) {
			return true
		}
	}
	return false
}

func bs(s ...string) [][]byte {
	var out [][]byte
	for _, x := range s {
		out = append(out, []byte(x))
	}
	return out
}

const (
	cid  = "258f0b7f2c3c1e9f1e5b8e0c37a6c3c1e1e2f8b9d9a4c3b2a1f0e9d8c7b6a5f4"
	cid2 = "85af0c47e1d2c3b4a5968778695a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6"
	uid  = "d003917a-5e3c-4b8e-9d0f-6a7b8c9d0e1f"
)

func TestMatch(t *testing.T) {
	pod := bs(`"default/web-7d9f8c6b5-x2kqp"`, "web-7d9f8c6b5-x2kqp_default(", uid, cid, cid2)
	tests := []struct {
		name    string
		needles [][]byte
		text    string
		want    bool
	}{
		{"no needles", nil, "anything", false},
		{"empty needle", bs("abcdefgh", ""), "x", true},
		{"empty text", pod, "", false},
		{"name", pod, `I1122 06:03:25.671184   21321 config.go:326] "Receiving a new pod" pod="default/web-7d9f8c6b5-x2kqp"`, true},
		{"other pod", pod, `I1122 06:03:25.671184   21321 config.go:326] "Receiving a new pod" pod="default/web-7d9f8c6b5-x2kqq"`, false},
		{"name without quotes", pod, `pod="default/web-7d9f8c6b5-x2kqp-2"`, false},
		{"uid alone", pod, "(UID: " + uid + ")", true},
		{"container ID at the very start", pod, cid, true},
		{"container ID at the very end", pod, `containerID="` + cid, true},
		{"container ID cut short", pod, `containerID="` + cid[:63], false},
		{"other container ID", pod, strings.Repeat(cid[:32]+"0", 3), false},
		{"hex all around", pod, strings.Repeat("0123456789abcdef", 40) + cid2 + strings.Repeat("fedcba", 9), true},
		{"short needles", bs("ab", "xyz"), "..xy.ab", true},
		{"short needles, none", bs("ab", "xyz"), "..xy.a.b", false},
		{"needle longer than a shift", bs(strings.Repeat("a", 300) + "b"), strings.Repeat("a", 400) + "b", true},
		{"needle longer than a shift, none", bs(strings.Repeat("a", 300) + "b"), strings.Repeat("a", 299) + "b" + strings.Repeat("a", 300), false},
		{"text shorter than the window", pod, "web-7d9f", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := New(tt.needles).Match([]byte(tt.text)); got != tt.want {
				t.Errorf("Match = %v, want %v", got, tt.want)
			}
			if n := naive([]byte(tt.text), tt.needles); n != tt.want {
				t.Fatalf("the case is wrong: bytes.Contains says %v", n)
			}
		})
	}
}

// FuzzMatch holds Match to bytes.Contains over every needle, for needles
// cut from the text (so that most texts have near misses) and others.
func FuzzMatch(f *testing.F) {
	f.Add("pod=\"default/web-7d9f8c6b5-x2kqp\" containerID="+cid, uint8(5), uint8(20), "default/web", cid2, uid)
	f.Add(strings.Repeat("abcabd", 20), uint8(3), uint8(9), "abcabdabc", "bcabdx", "cabdabcab")
	f.Add("aaaaaaab", uint8(0), uint8(8), "aaab", "", "zz")
	f.Fuzz(func(t *testing.T, text string, from, n uint8, a, b, c string) {
		needles := bs(a, b, c)
		if int(from) < len(text) {
			needles = append(needles, []byte(text[from:min(len(text), int(from)+int(n))]))
			needles[0] = append(needles[0], 'x') // and a near miss, when a is cut from text
		}
		for k := len(needles); k >= 0; k-- {
			got, want := New(needles[:k]).Match([]byte(text)), naive([]byte(text), needles[:k])
			if got != want {
				t.Fatalf("needles %q, text %q: Match %v, bytes.Contains %v", needles[:k], text, got, want)
			}
		}
	})
}

func BenchmarkMatch(b *testing.B) {
	pod := bs(`"default/web-7d9f8c6b5-x2kqp"`, `"name":"web-7d9f8c6b5-x2kqp","namespace":"default"`, "web-7d9f8c6b5-x2kqp_default(", uid, cid, cid2)
	line := []byte(`I1122 06:25:28.253785   12052 reconciler_common.go:214] "Starting operationExecutor.MountVolume for volume \"config\" (UniqueName: \"kubernetes.io/configmap/cf1ba443-e225-95a9-dba6-bd33abae1f39-config\") pod \"batch-2931670da-xj8xd\" (UID: \"cf1ba443-e225-95a9-dba6-bd33abae1f39\") " pod="default/batch-2931670da-xj8xd" containerID="0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"`)
	m := New(pod)
	b.Run("anystr", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if m.Match(line) {
				b.Fatal("match")
			}
		}
	})
	b.Run("contains", func(b *testing.B) {
		b.SetBytes(int64(len(line)))
		for b.Loop() {
			if naive(line, pod) {
				b.Fatal("match")
			}
		}
	})
}
