package parser

import (
	"bytes"
	"time"
)

// prefix is what a wrapper put before the log line proper: a journald or
// syslog prefix, a paste marker, a grep -n line number.
type prefix struct {
	host       string
	component  string
	pid        int
	time       time.Time
	hasTime    bool
	annotation bool // the whole line is something people add around logs
}

// stripPrefix removes wrappers from a physical line and returns the log
// line proper.
func (r *Reader) stripPrefix(line []byte) ([]byte, prefix) {
	var p prefix
	if bytes.HasPrefix(line, []byte("-- ")) && bytes.HasSuffix(line, []byte(" --")) {
		p.annotation = true
	}
	return line, p
}
