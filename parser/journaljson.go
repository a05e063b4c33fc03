package parser

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
)

// journalJSON is one entry of `journalctl -o json` (or json-seq without the
// separator): the log line is its MESSAGE, the host, ident and PID are
// fields, and __REALTIME_TIMESTAMP is an absolute time in microseconds that
// fixes klog's missing year.
type journalJSON struct {
	Message  json.RawMessage `json:"MESSAGE"`
	Host     string          `json:"_HOSTNAME"`
	Ident    string          `json:"SYSLOG_IDENTIFIER"`
	Comm     string          `json:"_COMM"`
	PID      string          `json:"_PID"`
	Realtime string          `json:"__REALTIME_TIMESTAMP"`
}

// isJournalJSON tells a journalctl JSON entry from the kubelet's own JSON
// format at the first key: journal fields that start an entry begin "__".
func isJournalJSON(b []byte) bool { return bytes.HasPrefix(b, []byte(`{"__`)) }

// stripJournalJSON returns the MESSAGE of a journal entry and its prefix
// facts; ok is false when b is not one (then it is parsed as it is). The
// message is a fresh copy: it outlives the line buffer.
func (r *Reader) stripJournalJSON(b []byte) ([]byte, prefix, bool) {
	var e journalJSON
	if err := json.Unmarshal(b, &e); err != nil || len(e.Message) == 0 {
		return b, prefix{}, false
	}
	var msg []byte
	switch e.Message[0] {
	case '"':
		var s string
		if json.Unmarshal(e.Message, &s) != nil {
			return b, prefix{}, false
		}
		msg = []byte(s)
	case '[':
		// Journald stores a message that is not valid UTF-8 as its bytes.
		var raw []int
		if json.Unmarshal(e.Message, &raw) != nil {
			return b, prefix{}, false
		}
		msg = make([]byte, 0, len(raw))
		for _, c := range raw {
			msg = append(msg, byte(c))
		}
	default:
		return b, prefix{}, false
	}
	msg = bytes.TrimRight(msg, "\n")
	p := prefix{journal: true, host: r.interned.get([]byte(e.Host))}
	ident := e.Ident
	if ident == "" {
		ident = e.Comm
	}
	p.component = r.identComponent([]byte(ident))
	p.pid, _ = strconv.Atoi(e.PID)
	if us, err := strconv.ParseInt(e.Realtime, 10, 64); err == nil && us > 0 {
		p.time = time.UnixMicro(us).In(r.clock.loc)
		p.hasTime = true
		r.clock.anchor(p.time)
	}
	return msg, p, true
}
