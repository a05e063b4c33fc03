package parser

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// kl is a klog line as klog writes it: severity I, November 22nd, the PID
// right-aligned in seven columns.
func kl(clock string, pid int, src, payload string) string {
	return fmt.Sprintf("I1122 %s %7d %s %s\n", clock, pid, src, payload)
}

// bareCases are inputs for what Reader.bare takes from the lines before
// a line: the second of the clock, the PID field, the message of a call
// site (sites). Each case has lines that share them and lines that share
// all but a byte of them.
var bareCases = []struct{ name, input string }{
	{"a site's other messages", kl("06:25:28.100000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/a"`) +
		kl("06:25:28.100001", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/b"`) +
		kl("06:25:28.100002", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod and more" pod="ns/a"`) +
		kl("06:25:28.100003", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod\" quoted" pod="ns/a"`) +
		kl("06:25:28.100004", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod`) +
		kl("06:25:28.100005", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod"`) +
		kl("06:25:28.100006", 12052, "kubelet.go:2545]", `"SyncLoop (PLEG): event for pod" pod="ns/c"`) +
		kl("06:25:28.100007", 12052, "kubelet.go:2544]", `SyncLoop (PLEG): event for pod" pod="ns/d"`) +
		kl("06:25:28.100008", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/e"`)},
	{"backslashes before the quote", kl("06:25:28.100000", 12052, "mount_linux.go:259]", `"Mounting the volume at C:\\" path="a"`) +
		kl("06:25:28.100001", 12052, "mount_linux.go:259]", `"Mounting the volume at C:\\" path="b"`) +
		kl("06:25:28.100002", 12052, "mount_linux.go:259]", `"Mounting the volume at C:\\\" path="c"`) +
		kl("06:25:28.100003", 12052, "mount_linux.go:259]", `"Mounting the volume at C:\`) +
		kl("06:25:28.100004", 12052, "mount_linux.go:259]", `"Mounting the volume at C:\" path="d"`) +
		kl("06:25:28.100005", 12052, "mount_linux.go:259]", `"Mounting the volume at C:\\" path="e"`)},
	{"many messages of one site", func() string {
		var b strings.Builder
		for i := range 3 * siteSame {
			for j := range 2 {
				b.WriteString(kl(fmt.Sprintf("06:25:28.%06d", 2*i+j), 12052, "operation_generator.go:721]",
					fmt.Sprintf(`"MountVolume.SetUp succeeded for volume number %d" pod="ns/p%d"`, i%(siteSame+2), j)))
			}
		}
		return b.String()
	}()},
	{"multi-line values", kl("06:25:28.100000", 12052, "status_manager.go:1184]", `"Status for pod updated" status=<`) +
		"\tline one\n\n\tline two\n >\n" +
		kl("06:25:28.100001", 12052, "status_manager.go:1184]", `"Status for pod updated" status=<`) +
		"\tline one\n" +
		kl("06:25:28.100002", 12052, "status_manager.go:1184]", `"Status for pod updated" status="plain"`) +
		"\n" + kl("06:25:28.100003", 12052, "status_manager.go:1184]", `"Status for pod updated" status=<`)},
	{"after a declined line", kl("06:25:28.100000", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		kl("06:25:28.1x0000", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		kl("06:25:28.100001", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		kl("06:25:28,100002", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		kl("06:25:28.100003", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		func(l string) string { return l[:21] + "x" + l[22:] }(kl("06:25:28.100004", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`)) +
		kl("06:25:28.100005", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		strings.Replace(kl("06:25:28.100006", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`), "12052", "1205x", 1) +
		kl("06:25:28.100007", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		strings.Replace(kl("06:25:28.100008", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`), "1184]", "1184", 1)},
	{"journald, then bare", "Nov 22 06:25:28 node kubelet[12052]: " + kl("06:25:28.100000", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		kl("06:25:28.100001", 12052, "status_manager.go:1184]", `"Pod status is updated" pod="ns/a"`) +
		"Nov 22 06:25:28 node kubelet[12052]: \tmore of it\n" +
		kl("06:25:28.100002", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/a"`) +
		"Nov 22 06:25:28 node kubelet[12052]: \tmore of it\n"},
	{"CRLF", strings.ReplaceAll(kl("06:25:28.100000", 12052, "mount_linux.go:259]", `"Mounting the volume at C:\`)+
		kl("06:25:28.100001", 12052, "mount_linux.go:259]", "\"Mounting the volume at C:\\\r\" path=\"a\"")+
		kl("06:25:28.100002", 12052, "mount_linux.go:259]", `"Mounting the volume at C:\`), "\n", "\r\n")},
	{"times and PIDs", kl("06:25:28.100000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/a"`) +
		kl("06:25:28.1x0000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/a"`) +
		kl("06:25:28:100000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/a"`) +
		kl("06:25:28.099999", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/b"`) +
		kl("06:25:28.200000", 12053, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/c"`) +
		kl("06:25:28.300000", 12345678, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/d"`) +
		strings.Replace(kl("06:25:28.400000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/e"`), "12052", "12a52", 1) +
		kl("06:25:29.000000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/f"`) +
		kl("06:25:28.500000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/g"`) +
		strings.Replace(kl("06:25:28.500000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/h"`), "I1122", "I1322", 1) +
		strings.Replace(kl("06:25:28.500000", 12052, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/i"`), "I1122", "I1100", 1)},
	{"new year", strings.ReplaceAll(kl("23:59:59.900000", 1, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/a"`), "I1122", "I1231") +
		strings.ReplaceAll(kl("00:00:00.100000", 1, "kubelet.go:2544]", `"SyncLoop (PLEG): event for a pod" pod="ns/b"`), "I1122", "I0101") +
		strings.ReplaceAll(kl("23:59:59.900000", 1, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/c"`), "I1122", "I1231") +
		strings.ReplaceAll(kl("23:59:59.950000", 1, "kubelet.go:2544]", `"SyncLoop (PLEG): event for a pod" pod="ns/d"`), "I1122", "I1231") +
		strings.ReplaceAll(kl("00:00:00.100000", 1, "kubelet.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/e"`), "I1122", "I0101")},
	{"short and odd headers", kl("06:25:28.100000", 1, "a.go:1]", `"m"`) +
		kl("06:25:28.100001", 1, "a.go:1]", `"m" k="v"`) +
		kl("06:25:28.100002", 12052, "kubelet.go:2544", `"SyncLoop (PLEG): event for pod" pod="ns/a"`) +
		kl("06:25:28.100003", 12052, "kubelet.go:2544]", ``) +
		strings.TrimSuffix(kl("06:25:28.100004", 12052, "kubelet.go:2544]", ``), " \n") + "\n" +
		kl("06:25:28.100005", 12052, "kube let.go:2544]", `"SyncLoop (PLEG): event for pod" pod="ns/a"`) +
		kl("06:25:28.100006", 12052, "kubelet.go:2544]", `Legacy printf message for pod ns/a with its values`) +
		kl("06:25:28.100007", 12052, "kubelet.go:2544]", `Legacy printf message for pod ns/a with its values`)},
}

// TestBareMatchesFullPath reads bareCases with consume's shortcut for bare
// klog lines and without it.
func TestBareMatchesFullPath(t *testing.T) {
	for _, c := range bareCases {
		t.Run(c.name, func(t *testing.T) { checkFastPath(t, []byte(c.input)) })
	}
}

// TestDeclinedRecordsMoveTheClock checks that declining records changes
// no time of the others, nor the span of the Stats: a declined record
// moves the clock (the December→January rollover) where it stands among
// the records as a kept one does, back and forth across New Year and
// after an anchor.
func TestDeclinedRecordsMoveTheClock(t *testing.T) {
	at := func(md, clock, msg string) string {
		return fmt.Sprintf("I%s %s       1 kubelet.go:2544] %q pod=\"ns/a\"\n", md, clock, msg)
	}
	inputs := []struct {
		name        string
		in          string
		n, lastYear int
	}{
		{"back and forth", at("1231", "23:59:59.100000", "a") + at("1231", "23:59:59.900000", "bb") + at("0101", "00:00:00.100000", "c") +
			at("0101", "00:00:00.200000", "dd") + at("1231", "23:59:59.950000", "e") + "legacy continuation\n" +
			at("1231", "23:59:59.960000", "ff") + at("0101", "00:00:01.000000", "g") + at("0101", "00:00:01.500000", "hh") +
			`{"ts":1893456002000.0,"msg":"anchor","v":1}` + "\n" + at("1231", "23:59:59.000000", "jj") + at("0101", "00:00:03.000000", "k"),
			11, 2031},
		// The anchor (January) moves the month on but not the year: the
		// next line, of the second before it, moves the month back to
		// December, so that January is a new year.
		{"anchor within a second", at("1231", "23:59:59.100000", "a") + `{"ts":1736899200000.0,"msg":"anchor","v":1}` + "\n" +
			at("1231", "23:59:59.200000", "bb") + at("0101", "00:00:00.100000", "c") + at("0101", "00:00:00.200000", "dd"),
			5, 2026},
		// The anchor (December 2026) moves the year on but not the
		// month: the last line, of the second before it, is in 2026.
		{"anchor of another year", at("1231", "23:59:59.100000", "a") + `{"ts":1797292800000.0,"msg":"anchor","v":1}` + "\n" +
			at("1231", "23:59:59.200000", "bb"),
			3, 2026},
	}
	type result struct {
		times      map[int64]time.Time // by line
		first, end time.Time
	}
	read := func(in string, want func([]byte) bool, workers int) result {
		rd := NewReader(strings.NewReader(in), Options{ModTime: time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC), NoPrescan: true, Want: want, Workers: workers, ChunkBytes: 64})
		res := result{times: map[int64]time.Time{}}
		for {
			rec, err := rd.Next()
			if err != nil {
				break
			}
			res.times[rec.Pos.Line] = rec.Time
		}
		st := rd.Stats()
		res.first, res.end = st.FirstTime, st.LastTime
		return res
	}
	for _, c := range inputs {
		all := read(c.in, nil, 1)
		if last := all.times[int64(len(strings.Split(c.in, "\n"))-1)]; len(all.times) != c.n || last.Year() != c.lastYear {
			t.Fatalf("%s: all records: %v", c.name, all.times)
		}
		for i, want := range []func([]byte) bool{
			func(m []byte) bool { return false },
			func(m []byte) bool { return len(m)%2 == 0 },
			func(m []byte) bool { return len(m)%2 == 1 },
			func(m []byte) bool { return string(m) == "k" },
		} {
			for _, workers := range []int{1, 2} {
				// (A declined JSON record anchors no clock: the anchor is kept.)
				got := read(c.in, func(m []byte) bool { return string(m) == "anchor" || want(m) }, workers)
				for line, tm := range got.times {
					if !tm.Equal(all.times[line]) {
						t.Errorf("%s, want #%d, workers=%d: line %d at %v, %v when all records are kept", c.name, i, workers, line, tm, all.times[line])
					}
				}
				if !got.first.Equal(all.first) || !got.end.Equal(all.end) {
					t.Errorf("%s, want #%d, workers=%d: stats span %v to %v, %v to %v when all records are kept", c.name, i, workers, got.first, got.end, all.first, all.end)
				}
			}
		}
	}
}
