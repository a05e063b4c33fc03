package parser

import (
	"strings"
	"testing"
	"time"
)

const klogLine = `I1122 06:03:25.671345   21321 kubelet.go:2709] "SyncLoop ADD" source="api" pods=["default/web-7d9f8c6b5-x2kqp"]`

func TestStripPrefix(t *testing.T) {
	tests := []struct {
		name       string
		line       string
		content    string
		host       string
		component  string
		pid        int
		time       time.Time // zero: no prefix time
		annotation bool
	}{
		{name: "bare klog", line: klogLine, content: klogLine},
		{name: "journalctl short", line: "Nov 22 06:03:25 node-a kubelet[21321]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 21321, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "syslog padded day", line: "Nov  2 06:03:25 node-a kubelet[21321]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 21321, time: utc(2026, 11, 2, 6, 3, 25, 0)},
		{name: "short-precise", line: "Nov 22 06:03:25.671402 node-a kubelet[21321]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 21321, time: utc(2026, 11, 22, 6, 3, 25, 671402000)},
		{name: "short-iso", line: "2026-11-22T07:03:25+0100 node-a kubelet[21321]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 21321, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "short-iso-precise", line: "2026-11-22T06:03:25.671402+00:00 node-a kubelet[21321]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 21321, time: utc(2026, 11, 22, 6, 3, 25, 671402000)},
		{name: "ident without pid", line: "Nov 22 06:03:25 node-a kubelet: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "hyperkube", line: "Nov 22 06:03:25 node-a hyperkube[7]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 7, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "k3s", line: "Nov 22 06:03:25 node-a k3s[7]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 7, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "microk8s", line: "Nov 22 06:03:25 node-a microk8s.daemon-kubelet[7]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 7, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "microshift with second word", line: "Nov 22 06:03:25 node-a microshift[7]: kubelet " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 7, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "containerd", line: `Nov 22 06:03:25 node-a containerd[612]: time="2026-11-22T06:03:25Z" level=info msg="x"`, content: `time="2026-11-22T06:03:25Z" level=info msg="x"`,
			host: "node-a", component: "containerd", pid: 612, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "crio", line: `Nov 22 06:03:25 node-a crio[9]: time="2026-11-22 06:03:25Z" level=info msg="x"`, content: `time="2026-11-22 06:03:25Z" level=info msg="x"`,
			host: "node-a", component: "crio", pid: 9, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "other ident kept", line: "Nov 22 06:03:25 node-a systemd[1]: Started kubelet.service.", content: "Started kubelet.service.",
			host: "node-a", component: "systemd", pid: 1, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "quote marker", line: "> " + klogLine, content: klogLine},
		{name: "quote marker and journald", line: "> Nov 22 06:03:25 node-a kubelet[1]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 1, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "grep -n", line: "633:" + klogLine, content: klogLine},
		{name: "grep -n context", line: "633-" + klogLine, content: klogLine},
		{name: "grep -nH", line: "kubelet.log:633:" + klogLine, content: klogLine},
		{name: "grep -nH context, dashed name", line: "kubelet-2.log-634-" + klogLine, content: klogLine},
		{name: "grep over journald", line: "kubelet.log:12:Nov 22 06:03:25 node-a kubelet[1]: " + klogLine, content: klogLine,
			host: "node-a", component: "kubelet", pid: 1, time: utc(2026, 11, 22, 6, 3, 25, 0)},
		{name: "logs begin", line: "-- Logs begin at Sun 2026-11-22 05:48:50 UTC, end at Sun 2026-11-22 06:10:00 UTC. --", annotation: true},
		{name: "journal begins", line: "-- Journal begins at Sun 2026-11-22 05:48:50 UTC, ends at Sun 2026-11-22 06:10:00 UTC. --", annotation: true},
		{name: "no entries", line: "-- No entries --", annotation: true},
		{name: "grep separator", line: "--", annotation: true},
		{name: "dots", line: "...", annotation: true},
		{name: "ellipsis", line: "  …", annotation: true},
		{name: "bracketed elision", line: "[...]", annotation: true},
		{name: "quoted elision", line: "> ...", annotation: true},
		{name: "not grep: digits in text", line: "12:30 is a time", content: "12:30 is a time"},
		{name: "month word of a locale not known: no time", line: "Foo 22 06:03:25 node-a kubelet[1]: x", content: "x",
			host: "node-a", component: "kubelet", pid: 1},
		{name: "not journald: no month word", line: "F00 22 06:03:25 node-a kubelet[1]: x", content: "F00 22 06:03:25 node-a kubelet[1]: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(""), Options{Year: 2026})
			content, p := r.stripPrefix([]byte(tt.line))
			if p.annotation != tt.annotation {
				t.Fatalf("annotation = %v, want %v", p.annotation, tt.annotation)
			}
			if tt.annotation {
				return
			}
			if string(content) != tt.content {
				t.Errorf("content = %q\nwant      %q", content, tt.content)
			}
			if p.host != tt.host || p.component != tt.component || p.pid != tt.pid {
				t.Errorf("host, component, pid = %q, %q, %d; want %q, %q, %d", p.host, p.component, p.pid, tt.host, tt.component, tt.pid)
			}
			if tt.time.IsZero() != !p.hasTime || p.hasTime && !p.time.Equal(tt.time) {
				t.Errorf("time = %v (has %v), want %v", p.time, p.hasTime, tt.time)
			}
		})
	}
}

// TestMonthLocales checks strftime %b month names in several locales.
func TestMonthLocales(t *testing.T) {
	tests := []struct {
		locale string
		names  [12]string
	}{
		{"C", [12]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}},
		{"de", [12]string{"Jan", "Feb", "Mär", "Apr", "Mai", "Jun", "Jul", "Aug", "Sep", "Okt", "Nov", "Dez"}},
		{"fr", [12]string{"janv.", "févr.", "mars", "avril", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}},
		{"es", [12]string{"ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"}},
		{"it", [12]string{"gen", "feb", "mar", "apr", "mag", "giu", "lug", "ago", "set", "ott", "nov", "dic"}},
		{"nl", [12]string{"jan", "feb", "mrt", "apr", "mei", "jun", "jul", "aug", "sep", "okt", "nov", "dec"}},
		{"pt", [12]string{"jan", "fev", "mar", "abr", "mai", "jun", "jul", "ago", "set", "out", "nov", "dez"}},
		{"ru", [12]string{"янв", "фев", "мар", "апр", "мая", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"}},
		{"ru capitalized", [12]string{"Янв", "Фев", "Мар", "Апр", "Мая", "Июн", "Июл", "Авг", "Сен", "Окт", "Ноя", "Дек"}},
	}
	for _, tt := range tests {
		t.Run(tt.locale, func(t *testing.T) {
			for i, name := range tt.names {
				line := name + " 05 06:03:25 node-a kubelet[1]: " + klogLine
				jp := parseJournal([]byte(line))
				if !jp.ok || jp.tm.month != i+1 || jp.tm.day != 5 {
					t.Errorf("%q: ok=%v month=%d day=%d, want month %d", name, jp.ok, jp.tm.month, jp.tm.day, i+1)
				}
			}
		})
	}
}

// TestClockRollover checks December to January and the mtime fallback.
func TestClockRollover(t *testing.T) {
	tests := []struct {
		name  string
		opts  Options
		input string
		want  []time.Time
	}{
		{name: "fixed year rolls over", opts: Options{Year: 2025},
			input: "I1231 23:59:59.000000 1 a.go:1] \"a\"\nI0101 00:00:01.000000 1 a.go:1] \"b\"\nI0101 00:00:02.000000 1 a.go:1] \"c\"\n",
			want:  []time.Time{utc(2025, 12, 31, 23, 59, 59, 0), utc(2026, 1, 1, 0, 0, 1, 0), utc(2026, 1, 1, 0, 0, 2, 0)}},
		{name: "mtime in January, log from December", opts: Options{ModTime: utc(2026, 1, 1, 0, 5, 0, 0), NoPrescan: true},
			input: "I1231 23:59:59.000000 1 a.go:1] \"a\"\nI0101 00:00:01.000000 1 a.go:1] \"b\"\n",
			want:  []time.Time{utc(2025, 12, 31, 23, 59, 59, 0), utc(2026, 1, 1, 0, 0, 1, 0)}},
		{name: "anchored by a runtime line", opts: Options{ModTime: utc(2030, 6, 1, 0, 0, 0, 0)},
			input: "time=\"2024-12-31T23:59:58Z\" level=info msg=\"x\"\nI1231 23:59:59.000000 1 a.go:1] \"a\"\nI0101 00:00:01.000000 1 a.go:1] \"b\"\n",
			want:  []time.Time{utc(2024, 12, 31, 23, 59, 58, 0), utc(2024, 12, 31, 23, 59, 59, 0), utc(2025, 1, 1, 0, 0, 1, 0)}},
		{name: "anchored by an RFC 3339 time in a kubelet line", opts: Options{ModTime: utc(2030, 6, 1, 0, 0, 0, 0)},
			input: "I1122 06:03:19.000000 1 a.go:1] \"Certificate expiration is 2031-11-22 06:03:19 +0000 UTC\"\nI1122 06:03:25.000000 1 a.go:1] \"Patch\" patch=\"{\\\"lastTransitionTime\\\":\\\"2027-11-22T06:03:25Z\\\"}\"\n",
			want:  []time.Time{utc(2027, 11, 22, 6, 3, 19, 0), utc(2027, 11, 22, 6, 3, 25, 0)}},
		{name: "anchored by journald short-iso", opts: Options{ModTime: utc(2030, 6, 1, 0, 0, 0, 0)},
			input: "2028-02-29T10:00:00+0000 n kubelet[1]: I0229 10:00:00.500000 1 a.go:1] \"a\"\n",
			want:  []time.Time{utc(2028, 2, 29, 10, 0, 0, 500000000)}},
		{name: "anchored by JSON ts", opts: Options{ModTime: utc(2030, 6, 1, 0, 0, 0, 0)},
			input: "I1122 06:14:19.913405 1 a.go:1] \"text first\"\n{\"ts\":1795328059915.4084,\"msg\":\"x\",\"v\":1}\n",
			want:  []time.Time{utc(2026, 11, 22, 6, 14, 19, 913405000), time.Unix(1795328059, 915408400).UTC()}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, st := readRecords(t, strings.NewReader(tt.input), tt.opts)
			if !st.Accounted() || st.Unrecognized != 0 {
				t.Errorf("stats %+v", st)
			}
			if len(recs) != len(tt.want) {
				t.Fatalf("got %d records, want %d", len(recs), len(tt.want))
			}
			for i, w := range tt.want {
				if !recs[i].Time.Equal(w) {
					t.Errorf("record %d time = %v, want %v", i, recs[i].Time, w)
				}
			}
		})
	}
}

// TestJournalContinuations checks that lines of another process are not
// joined to a record under journald.
func TestJournalContinuations(t *testing.T) {
	in := "Nov 22 06:03:25 n kubelet[1]: I1122 06:03:25.000000 1 a.go:1] \"m\" v=<\n" +
		"Nov 22 06:03:25 n kubelet[1]: \tline one\n" +
		"Nov 22 06:03:25 n kubelet[1]:  >\n" +
		"Nov 22 06:03:26 n systemd[1]: Stopping kubelet.service...\n" +
		"Nov 22 06:03:27 n kubelet[2]: I1122 06:03:27.000000 2 a.go:1] \"n\"\n"
	recs, st := readRecords(t, strings.NewReader(in), Options{Year: 2026})
	if len(recs) != 2 || recs[0].Str("v") != "line one" || recs[0].Pos.Lines != 3 {
		t.Fatalf("records %+v", recs)
	}
	if st.Unrecognized != 1 || st.Continuations != 2 || !st.Accounted() {
		t.Errorf("stats %+v", st)
	}
}
