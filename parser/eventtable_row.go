package parser

import (
	"bytes"
	"strconv"
	"strings"
	"time"
)

// kubeletReasons are the reasons of the events only the kubelet records,
// for tables without a source column (lower case before 1.2).
var kubeletReasons = []string{
	"Pulling", "Pulled", "Failed", "BackOff", "Created", "Started", "Killing", "Unhealthy", "ProbeWarning",
	"FailedMount", "FailedAttachVolume", "FailedMapVolume", "FailedCreatePodSandBox", "FailedPodSandBoxStatus",
	"SandboxChanged", "FailedKillPod", "FailedCreatePodContainer", "FailedSync", "FailedValidation",
	"FailedPostStartHook", "FailedPreStopHook", "ErrImageNeverPull", "InspectFailed", "ExceededGracePeriod",
	"Evicted", "Preempting", "NetworkNotReady", "HostPortConflict", "NodeSelectorMismatching",
	"OutOfDisk", "UnexpectedAdmissionError", "NodeAffinity", "OutOfcpu", "OutOfmemory",
	"FailedToUpdateEndpoint", "DNSConfigForming", "FailedCreate",
}

func kubeletReason(r string) bool {
	for _, k := range kubeletReasons {
		if strings.EqualFold(k, r) {
			return true
		}
	}
	return false
}

// sourceComponent is the component of a From or SOURCE cell: "kubelet",
// "kubelet, node-1", "{kubelet node-1}".
func sourceComponent(s string) string {
	s = strings.TrimPrefix(s, "{")
	if i := strings.IndexAny(s, " ,}"); i >= 0 {
		s = s[:i]
	}
	return s
}

// kubeletRow reports a row of the kubelet's: its source says so, or
// with none its reason is one only the kubelet gives.
func kubeletRow(row *eventRow) bool {
	switch {
	case row.reason == "":
		return false
	case row.source != "":
		return sourceComponent(row.source) == "kubelet"
	}
	return kubeletReason(row.reason)
}

// parseRow reads a row of the table t heads; ok false when the line is
// no row of it. The message is t[from:to].
func (t *eventTable) parseRow(text []byte) (row eventRow, from, to int, ok bool) {
	var buf [maxRowTokens]span
	ws := words(text, buf[:])
	i, j := 0, len(ws)
	var objKind, objName string
	typeCol := false
	var last, first time.Duration
	lastKnown, firstKnown, hasAge := false, false, false
	word := func(k int) []byte { return text[ws[k].from:ws[k].to] }
	// The columns after the message, from the right.
	for c := len(t.cols) - 1; c > t.msg; c-- {
		if j <= i {
			return row, 0, 0, false
		}
		j--
		w := word(j)
		switch t.cols[c] {
		case colFirstSeen:
			d, known, ok := parseAge(w)
			if !ok {
				return row, 0, 0, false
			}
			first, firstKnown = d, known
		case colCount:
			n, err := strconv.Atoi(string(w))
			if err != nil {
				return row, 0, 0, false
			}
			row.count = n
		case colLastSeen:
			d, known, ok := parseAge(w)
			if !ok {
				return row, 0, 0, false
			}
			last, lastKnown, hasAge = d, known, true
			row.age = string(w)
		}
	}
	for _, c := range t.cols[:t.msg] {
		if i >= j {
			if c == colSubobject || c == colSource {
				continue // (empty cells at the end)
			}
			return row, 0, 0, false
		}
		w := word(i)
		switch c {
		case colLastSeen, colFirstSeen:
			d, known, ok := parseAge(w)
			if !ok {
				return row, 0, 0, false
			}
			s := ws[i].from
			i++
			// "3m (x4 over 5m)"
			var over time.Duration
			overKnown := false
			if i+2 < j && bytes.HasPrefix(word(i), []byte("(x")) && string(word(i+1)) == "over" && bytes.HasSuffix(word(i+2), []byte(")")) {
				n, err := strconv.Atoi(string(word(i)[2:]))
				o, k, ok := parseAge(bytes.TrimSuffix(word(i+2), []byte(")")))
				if err == nil && ok {
					row.count, over, overKnown = n, o, k
					i += 3
				}
			}
			if c == colLastSeen {
				last, lastKnown, hasAge = d, known, true
				row.age = string(text[s:ws[i-1].to])
				if overKnown {
					first, firstKnown = over, true
				}
			} else {
				first, firstKnown = d, known
			}
		case colTime:
			i++
			if tm, err := time.Parse(time.RFC3339Nano, string(w)); err == nil {
				row.t = tm
			}
		case colCount:
			n, err := strconv.Atoi(string(w))
			if err != nil {
				return row, 0, 0, false
			}
			row.count = n
			i++
		case colType:
			if string(w) != "Normal" && string(w) != "Warning" {
				return row, 0, 0, false
			}
			row.typ, typeCol = string(w), true
			i++
		case colReason:
			row.reason = string(w)
			i++
		case colObject:
			objName = string(w)
			if k := strings.IndexByte(objName, '/'); k > 0 {
				objKind, objName = objName[:k], objName[k+1:]
			}
			i++
		case colKind:
			objKind = string(w)
			i++
		case colName:
			if t.has(colKind) {
				objName = string(w)
			}
			i++
		case colNamespace:
			row.ns = string(w)
			i++
		case colSubobject:
			// Empty for the pod itself: a field path or nothing.
			if bytes.HasPrefix(w, []byte("spec.")) || bytes.HasPrefix(w, []byte("status.")) {
				s := ws[i].from
				for i < j-1 && bytes.IndexByte(word(i), '}') < 0 && bytes.IndexByte(word(i), '{') >= 0 {
					i++
				}
				row.fieldPath = string(text[s:ws[i].to])
				i++
			}
		case colSource:
			s := ws[i].from
			switch {
			case w[0] == '{':
				for i < j-1 && bytes.IndexByte(word(i), '}') < 0 {
					i++
				}
			case w[len(w)-1] == ',' && i < j-1:
				i++
			}
			row.source = string(text[s:ws[i].to])
			i++
		default:
			i++
		}
	}
	if row.reason == "" || !hasAge && row.t.IsZero() && !t.has(colTime) || !typeCol && t.has(colType) {
		return row, 0, 0, false
	}
	if t.has(colLastSeen) && !hasAge {
		return row, 0, 0, false
	}
	if i < j {
		from, to = ws[i].from, ws[j-1].to
	} else {
		from, to = len(text), len(text)
	}
	if hasAge {
		row.t = t.base
		if lastKnown {
			row.t = t.base.Add(-last)
		}
		if firstKnown {
			row.first = t.base.Add(-first)
		}
	} else if row.t.IsZero() {
		row.t = t.base
	}
	if objKind != "" && !strings.EqualFold(objKind, "pod") {
		row.reason = "" // another object's event
		return row, from, to, true
	}
	row.name = objName
	msg := text[from:to]
	if row.reason == "Scheduled" {
		t.noteAssigned(msg, objName)
	}
	switch {
	case row.name == "":
		row.ns, row.name = t.ns, t.name
	case row.ns == "":
		row.ns = t.nsOf(row.name)
	}
	return row, from, to, true
}

func (t *eventTable) has(c evCol) bool {
	for _, x := range t.cols {
		if x == c {
			return true
		}
	}
	return false
}

// noteAssigned learns the pod a Scheduled row names in its message
// ("Successfully assigned ns/name to node"), of the object name when
// the table has one.
func (t *eventTable) noteAssigned(msg []byte, obj string) {
	const p = "Successfully assigned "
	if !bytes.HasPrefix(msg, []byte(p)) {
		return
	}
	ref := msg[len(p):]
	if k := bytes.IndexByte(ref, ' '); k >= 0 {
		ref = ref[:k]
	}
	k := bytes.IndexByte(ref, '/')
	if k <= 0 || k == len(ref)-1 {
		return
	}
	ns, name := string(ref[:k]), string(ref[k+1:])
	if obj != "" && obj != name {
		return
	}
	if obj == "" && t.name == "" {
		t.ns, t.name = ns, name
	}
	if len(t.assigned) < 64 {
		t.assigned = append(t.assigned, [2]string{name, ns})
	}
}

// nsOf is the namespace known of the pod name.
func (t *eventTable) nsOf(name string) string {
	if name == t.name {
		return t.ns
	}
	for _, a := range t.assigned {
		if a[0] == name {
			return a[1]
		}
	}
	return ""
}
