package parser

import "bytes"

// LineShape is a kind of line the parser could not read: its likely shape,
// what to do about it, how many lines had it and the first of them.
type LineShape struct {
	Shape  string `json:"shape"`
	Advice string `json:"advice"`
	Lines  int64  `json:"lines"`
	First  int64  `json:"first"` // line number of the first
}

// The shapes of unread lines, told apart by a look at their start.
const (
	shapeDescribe = iota
	shapeStack
	shapeCutHeader
	shapeOtherLog
	shapeJSON
	shapeOther
	shapeExportText
	nShapes
)

var shapeText = [nShapes][2]string{
	shapeDescribe:   {"kubectl describe or get output", "podflow reads the kubelet's own log: journalctl -u kubelet, /var/log/kubelet.log, or a node's logs from kind export logs"},
	shapeStack:      {"a Go stack trace or panic", "paste the log line it follows too: it continues that record"},
	shapeCutHeader:  {"a klog line cut before its file:line", "paste whole lines (systemctl status -l, journalctl --no-pager, a wider terminal)"},
	shapeOtherLog:   {"a time-stamped line of another program or format", "podflow reads klog, the kubelet's JSON format, and containerd or CRI-O logrus lines; leave the rest out or ignore it"},
	shapeJSON:       {"JSON without a log line", "export the records with their log line field (log, message, MESSAGE, textPayload, jsonPayload.message, line)"},
	shapeOther:      {"text that is no log line (prose, command output)", "nothing to do: podflow reads the log lines around it"},
	shapeExportText: {"records of a JSON export whose text is no log line", "nothing to do: podflow reads the export's kubelet lines"},
}

// unreadShape tells the likely shape of a line the parser could not read.
func unreadShape(b []byte) int {
	t := bytes.TrimLeft(b, " \t")
	switch {
	case len(t) == 0:
		return shapeOther
	case bytes.HasPrefix(t, []byte("goroutine ")) || bytes.HasPrefix(t, []byte("panic:")) || bytes.HasPrefix(t, []byte("created by ")) ||
		len(b) > 0 && b[0] == '\t' && bytes.Contains(t, []byte(".go:")):
		return shapeStack
	case bareHeaderByte[t[0]] && len(t) > 5 && isDigit(t[1]) && isDigit(t[4]):
		return shapeCutHeader
	case t[0] == '{' || t[0] == '[' || t[0] == '"' && bytes.Contains(t[:min(len(t), 80)], []byte(`":`)):
		return shapeJSON
	case isISODate(t) || parseJournal(t).ok || len(t) > 15 && t[2] == ':' && t[5] == ':':
		return shapeOtherLog
	}
	for _, w := range []string{"Events:", "Type ", "Normal ", "Warning ", "Name:", "Namespace:", "Status:", "Conditions:", "Containers:",
		"State:", "Reason:", "Last State:", "Image:", "Message:", "NAME ", "LAST SEEN", "Ready:", "Restart Count:"} {
		if bytes.HasPrefix(t, []byte(w)) {
			return shapeDescribe
		}
	}
	return shapeOther
}

// unreadCount is what a Reader keeps of its unread lines' shapes.
type unreadCount [nShapes]struct{ lines, first int64 }

// noteUnread counts a line the parser could not read (its text after any
// prefix) by its shape.
func (r *Reader) noteUnread(b []byte) {
	c := &r.unread[unreadShape(b)]
	if c.lines == 0 {
		c.first = r.lineNo
	}
	c.lines++
}

// noteShape counts n lines of the shape k.
func (r *Reader) noteShape(k int, n int64) {
	if n <= 0 {
		return
	}
	c := &r.unread[k]
	if c.lines == 0 {
		c.first = r.lineNo
	}
	c.lines += n
}

// shapes returns the counts as LineShapes, moved by d lines.
func (u *unreadCount) shapes(d int64) []LineShape {
	var out []LineShape
	for k, c := range u {
		if c.lines > 0 {
			out = append(out, LineShape{Shape: shapeText[k][0], Advice: shapeText[k][1], Lines: c.lines, First: c.first + d})
		}
	}
	return out
}

// addShapes merges shapes o into s: counts summed, the first line the
// least.
func addShapes(s, o []LineShape) []LineShape {
	for _, x := range o {
		found := false
		for i := range s {
			if s[i].Shape == x.Shape {
				s[i].Lines += x.Lines
				s[i].First = min(s[i].First, x.First)
				found = true
				break
			}
		}
		if !found {
			s = append(s, x)
		}
	}
	return s
}
