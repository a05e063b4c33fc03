package parser

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// exportSalvage reads the "key": "value" members of text that does not
// decode (a record cut short, or whose start was not pasted): each log
// line field is a record, with the time field nearest to it.
func (r *Reader) exportSalvage(text []byte, host string) ([]exportRec, int) {
	type member struct {
		at  int
		key string
		val string
	}
	var msgs, times, hosts []member
	for i := 0; i < len(text); i++ {
		if text[i] != '"' {
			continue
		}
		key, rest, ok := memberKey(text[i:])
		if !ok {
			continue
		}
		at := i
		i += 1 + len(key)
		if len(rest) == 0 || rest[0] != '"' && !isDigit(rest[0]) {
			continue
		}
		var val string
		if rest[0] == '"' {
			e := quotedEnd(rest, 0)
			if e <= 0 {
				// A value cut short: what there is of it.
				e = bytes.IndexByte(rest, '\n')
				if e < 0 {
					e = len(rest)
				}
				if s, err := strconv.Unquote(string(bytes.TrimRight(rest[:e], `,\ `)) + `"`); err == nil {
					val = s
				} else {
					continue
				}
			} else if s, err := strconv.Unquote(string(rest[:e])); err == nil {
				val = s
			} else {
				var js string
				if json.Unmarshal(rest[:e], &js) != nil {
					continue
				}
				val = js
			}
		} else {
			e := 0
			for e < len(rest) && (isDigit(rest[e]) || rest[e] == '.') {
				e++
			}
			val = string(rest[:e])
		}
		m := member{at, key, val}
		switch {
		case contains(exportMsgKeys, key):
			msgs = append(msgs, m)
		case contains(exportTimeKeys, key):
			times = append(times, m)
		case contains(exportHostKeys, key):
			hosts = append(hosts, m)
		}
	}
	var out []exportRec
	for _, m := range msgs {
		c := exportCtx{host: host}
		best := -1
		for k, t := range times {
			if best < 0 || abs(t.at-m.at) < abs(times[best].at-m.at) {
				if _, ok := r.exportTime(t.val); ok {
					best = k
				}
			}
		}
		if best >= 0 {
			v := any(times[best].val)
			if isDigit(times[best].val[0]) && !isISODate([]byte(times[best].val+" ")) {
				v = json.Number(times[best].val)
			}
			c.t, _ = r.exportTime(v)
		}
		if len(hosts) > 0 && c.host == "" {
			c.host = hosts[0].val
		}
		out = append(out, exportRec{text: []byte(strings.TrimRight(m.val, "\r\n")), time: c.t, host: c.host})
	}
	return out, len(out)
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
