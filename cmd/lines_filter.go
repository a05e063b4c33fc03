package cmd

import (
	"bufio"
	"bytes"
	"strings"
	"time"

	"github.com/podflow/podflow/parser"
)

// severityNotRead marks a line whose severity was not read with it (a
// line of standard input kept as it went by): severityOf reads it again
// when --level asks.
const severityNotRead = parser.Severity(255)

// levelSet is --level's severities: klog's letters (I, W, E, F), given
// together ("EW") or apart ("E,W"); nil when none.
func levelSet(v string) (map[parser.Severity]bool, error) {
	if v == "" {
		return nil, nil
	}
	set := map[parser.Severity]bool{}
	for _, r := range strings.ToUpper(v) {
		switch r {
		case 'I':
			set[parser.SeverityInfo] = true
		case 'W':
			set[parser.SeverityWarning] = true
		case 'E':
			set[parser.SeverityError] = true
		case 'F':
			set[parser.SeverityFatal] = true
		case ',', ' ':
		default:
			return nil, usageErrorf("--level %q: want klog severity letters among E, W, I, F (E,W: errors and warnings)", v)
		}
	}
	return set, nil
}

// severityOf reads the severity of one raw line as the parser does (klog
// header, JSON, behind any prefix).
func severityOf(raw []byte, year int, loc *time.Location) parser.Severity {
	r := parser.NewReader(bytes.NewReader(raw), parser.Options{Year: year, Location: loc})
	rec, err := r.Next()
	if err != nil || rec == nil {
		return parser.SeverityUnknown
	}
	return rec.Severity
}

// lineSink writes the lines printed, or with tail keeps only the last
// tail of them (a ring) to write at flush.
type lineSink struct {
	w    *bufio.Writer
	tail int
	ring []string
	next int
	full bool
}

func (s *lineSink) line(l string) {
	if s.tail <= 0 {
		s.w.WriteString(l)
		s.w.WriteByte('\n')
		return
	}
	if s.ring == nil {
		s.ring = make([]string, s.tail)
	}
	s.ring[s.next] = l
	s.next++
	if s.next == s.tail {
		s.next, s.full = 0, true
	}
}

func (s *lineSink) flush() {
	if s.tail <= 0 {
		return
	}
	from, n := 0, s.next
	if s.full {
		from, n = s.next, s.tail
	}
	for i := 0; i < n; i++ {
		s.w.WriteString(s.ring[(from+i)%s.tail])
		s.w.WriteByte('\n')
	}
}
