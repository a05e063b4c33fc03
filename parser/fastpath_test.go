package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// readText reads data to the end and renders every record and the Stats
// as text, for comparing two ways of reading.
func readText(t *testing.T, data []byte, opts Options, slow bool) string {
	t.Helper()
	rd := NewReader(bytes.NewReader(data), opts)
	if slow {
		rd.slow = slowTest
	}
	var b strings.Builder
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		r := *rec
		r.Fields = nil // (a parallel reader's empty Fields may be nil or not)
		if len(rec.Fields) > 0 {
			r.Fields = expandFields(rec.Fields)
		}
		fmt.Fprintf(&b, "%#v\n", r)
	}
	fmt.Fprintf(&b, "%#v\n", rd.Stats())
	return b.String()
}

// fastPathWants are Want filters the fast-path comparisons run with: none,
// one that declines half the messages, one that keeps a few by prefix.
var fastPathWants = []func([]byte) bool{
	nil,
	func(m []byte) bool { return len(m)%2 == 0 },
	func(m []byte) bool {
		return bytes.HasPrefix(m, []byte("SyncLoop")) || bytes.HasPrefix(m, []byte("Event"))
	},
}

// checkFastPath reads data with consume's shortcut for bare klog lines
// and with the full path only: records, positions and Stats must agree.
func checkFastPath(t *testing.T, data []byte) {
	for i, want := range fastPathWants {
		for _, workers := range []int{1, 2} {
			opts := Options{Year: 2026, Want: want, MaxLineBytes: 4096, Workers: workers, ChunkBytes: 256}
			if workers > 1 {
				opts.MaxLineBytes = 0 // (the parallel path keeps the default)
			}
			fast, slow := readText(t, data, opts, false), readText(t, data, opts, true)
			if fast != slow {
				f, s := strings.Split(fast, "\n"), strings.Split(slow, "\n")
				k := 0
				for k < min(len(f), len(s))-1 && f[k] == s[k] {
					k++
				}
				t.Fatalf("want #%d, workers=%d, %d bytes of input, line %d of the output:\nfast path:\n%s\nfull path:\n%s",
					i, workers, len(data), k+1, f[k], s[k])
			}
		}
	}
}

func TestFastPathMatchesFullPath(t *testing.T) {
	for _, f := range []string{
		"corpus/v1.36.3/07-twenty-pods.log", "corpus/v1.28.15/01-happy-path.log", "formats/klog-multiline.log",
		"formats/hard-wrapped-80.log", "formats/pasted-quote.log", "formats/grep-n.log", "formats/crlf.log",
		"formats/journald-short.log", "formats/annotations.log", "formats/klog-legacy.log",
	} {
		t.Run(f, func(t *testing.T) { checkFastPath(t, testdataBytes(t, f)) })
	}
}

func FuzzFastPath(f *testing.F) {
	seedFile(f, "formats/klog-multiline.log", "formats/hard-wrapped-80.log", "formats/pasted-quote.log",
		"formats/grep-n.log", "formats/crlf.log", "formats/annotations.log", "formats/klog-1.2x.log")
	seedLines(f, 20, "corpus/v1.36.3/01-happy-path.log")
	f.Add([]byte("\xef\xbb\xbf" + klogLine + "\n> " + klogLine + "\n\t" + klogLine + "\n" + klogLine[:29] + "\n"))
	f.Add([]byte(`I1122 06:03:25.000000 1 a.go:1] "m" k=<` + "\n\tx\n" + klogLine + "\n >\n"))
	for _, c := range bareCases {
		f.Add([]byte(c.input))
	}
	f.Fuzz(checkFastPath)
}

// TestDeclinedRecordTimes checks the first and last times of the Stats
// when records are declined, which are gathered by the second: out of
// order within a second and across seconds, as with every record kept.
func TestDeclinedRecordTimes(t *testing.T) {
	at := func(i int, clock string) string {
		return fmt.Sprintf("I1122 %s   12052 kubelet.go:1] \"m%d\" k=\"v\"\n", clock, i)
	}
	ts := func(s string) time.Time {
		tm, err := time.Parse("2006-01-02 15:04:05.000000", "2026-11-22 "+s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	tests := []struct {
		name        string
		clocks      []string
		first, last string
	}{
		{"in order", []string{"06:00:01.100000", "06:00:01.200000", "06:00:02.000001"}, "06:00:01.100000", "06:00:02.000001"},
		{"back within a second", []string{"06:00:01.500000", "06:00:01.200000", "06:00:01.999999", "06:00:01.300000"}, "06:00:01.200000", "06:00:01.999999"},
		{"back a second", []string{"06:00:01.500000", "06:00:00.900000", "06:00:02.100000", "06:00:01.999000"}, "06:00:00.900000", "06:00:02.100000"},
		{"one record", []string{"06:00:01.500000"}, "06:00:01.500000", "06:00:01.500000"},
		{"the same second again", []string{"06:00:01.500000", "06:00:02.000000", "06:00:01.000000", "06:00:01.700000"}, "06:00:01.000000", "06:00:02.000000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var in strings.Builder
			for i, c := range tt.clocks {
				in.WriteString(at(i, c))
			}
			odd := func(m []byte) bool { return m[len(m)-1]%2 == 1 }
			for _, want := range []func([]byte) bool{func([]byte) bool { return false }, nil, odd} {
				rd := NewReader(strings.NewReader(in.String()), Options{Year: 2026, Want: want})
				for {
					if _, err := rd.Next(); err != nil {
						break
					}
				}
				st := rd.Stats()
				if !st.FirstTime.Equal(ts(tt.first)) || !st.LastTime.Equal(ts(tt.last)) {
					t.Errorf("first %v, last %v; want %s, %s", st.FirstTime, st.LastTime, tt.first, tt.last)
				}
			}
		})
	}
}

// A declined JSON record's time moves the Stats' span as a declined klog
// record's does: the log ends at its last line, not at the last line the
// caller wanted (a -v=4 JSON log ended 25 s early).
func TestDeclinedJSONRecordTimes(t *testing.T) {
	in := `{"ts":1795328690386.9094,"caller":"kubelet/kubelet.go:2400","msg":"SyncLoop ADD","v":2,"source":"api","pods":["shop/web"]}
{"ts":1795328700000.5,"caller":"prober/prober.go:139","msg":"Exec-Probe runProbe","v":4}
{"ts":1795328715409.9744,"caller":"prober/prober.go:116","msg":"Probe succeeded","v":3}
{"ts":1795328710000,"caller":"x.go:1","msg":"late line written early","v":4}
`
	first := time.UnixMilli(1795328690386).Add(909400 * time.Nanosecond)
	last := time.UnixMilli(1795328715409).Add(974400 * time.Nanosecond)
	wantSyncLoop := func(m []byte) bool { return string(m) == "SyncLoop ADD" }
	for _, want := range []func([]byte) bool{func([]byte) bool { return false }, nil, wantSyncLoop} {
		rd := NewReader(strings.NewReader(in), Options{Want: want})
		for {
			if _, err := rd.Next(); err != nil {
				break
			}
		}
		st := rd.Stats()
		if !st.FirstTime.Equal(first) || !st.LastTime.Equal(last) {
			t.Errorf("first %v, last %v; want %v, %v", st.FirstTime, st.LastTime, first, last)
		}
	}
}
