package parser

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// parseKlogHeaderRef is parseKlogHeader as it was before digit2 and
// klogSource: a loop per number and a search for "] ".
func digitsRef(b []byte, i, n int) (int, bool) {
	v := 0
	for k := i; k < i+n; k++ {
		c := b[k]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int(c-'0')
	}
	return v, true
}
func parseKlogHeaderRef(b []byte) (h klogHeader, ok bool) {
	if len(b) < 30 {
		return h, false
	}
	switch b[0] {
	case 'I':
		h.sev = SeverityInfo
	case 'W':
		h.sev = SeverityWarning
	case 'E':
		h.sev = SeverityError
	case 'F':
		h.sev = SeverityFatal
	default:
		return h, false
	}
	if b[5] != ' ' || b[8] != ':' || b[11] != ':' || b[14] != '.' {
		return h, false
	}
	var ok1, ok2, ok3, ok4, ok5, ok6 bool
	h.month, ok1 = digitsRef(b, 1, 2)
	h.day, ok2 = digitsRef(b, 3, 2)
	h.hour, ok3 = digitsRef(b, 6, 2)
	h.min, ok4 = digitsRef(b, 9, 2)
	h.sec, ok5 = digitsRef(b, 12, 2)
	h.micros, ok6 = digitsRef(b, 15, 6)
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || h.month < 1 || h.month > 12 || h.day < 1 || h.day > 31 {
		return h, false
	}
	var w [16]byte
	copy(w[:], b[1:14])
	h.second = secondKey{binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:])}
	i := 21
	if i >= len(b) || b[i] != ' ' {
		return h, false
	}
	for i < len(b) && b[i] == ' ' {
		i++
	}
	ps := i
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		if i-ps < 10 {
			h.pid = h.pid*10 + int(b[i]-'0')
		}
		i++
	}
	if i == ps || i >= len(b) || b[i] != ' ' {
		return h, false
	}
	i++
	h.srcStart = i
	end := bytes.Index(b[i:], []byte("] "))
	if end < 0 {
		// A header with an empty payload ends in "]".
		if b[len(b)-1] == ']' && bytes.IndexByte(b[i:], ' ') < 0 {
			h.srcEnd = len(b) - 1
			h.payload = len(b)
			return h, true
		}
		return h, false
	}
	h.srcEnd = i + end
	if bytes.IndexByte(b[h.srcStart:h.srcEnd], ' ') >= 0 {
		return h, false
	}
	h.payload = h.srcEnd + 2
	return h, true
}

// FuzzKlogHeader checks parseKlogHeader against parseKlogHeaderRef.
func FuzzKlogHeader(f *testing.F) {
	for _, s := range []string{
		"I1122 06:25:28.451801   12052 status_manager.go:1184] \"Patch status for pod\" pod=\"a/b\"",
		"E0101 00:00:00.000000 9999999999 x]",
		"W1231 23:59:59.999999 1 a.go:1]  two spaces",
		"I1122 06:25:28.451801 1 a b.go:1] space in the source",
		"I1122 06:25:28.451801 1  a.go:1] two spaces before the source",
		"I1122 06:25:28.451801 1 a.go:1]x] late",
		"I1322 06:25:28.451801 1 a.go:1] month 13",
		"I1122 06:2a:28.451801 1 a.go:1] letter",
		"I1122 06:25:28.45180/ 1 a.go:1] slash",
		"F1122 06:25:28.451801 12 ]",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, gok := parseKlogHeader(b)
		want, wok := parseKlogHeaderRef(b)
		if gok != wok || gok && got != want {
			t.Fatalf("parseKlogHeader(%q) = %+v, %v; want %+v, %v", b, got, gok, want, wok)
		}
	})
}

// TestKlogHeaderEveryByte puts every byte value at every place of the
// time and PID of a header, and at two places at once, and checks
// parseKlogHeader against parseKlogHeaderRef.
func TestKlogHeaderEveryByte(t *testing.T) {
	check := func(b []byte) {
		got, gok := parseKlogHeader(b)
		want, wok := parseKlogHeaderRef(b)
		if gok != wok || gok && got != want {
			t.Fatalf("parseKlogHeader(%q) = %+v, %v; want %+v, %v", b, got, gok, want, wok)
		}
	}
	// The time, and the PID field klog writes as "%7d" (read as one
	// word, see klogPID), of lines with PIDs of one to seven digits.
	for _, c := range []struct {
		line     string
		from, to int // the bytes changed
	}{
		{"I1122 06:25:28.451801   12052 status_manager.go:1184] \"m\"", 0, 31},
		{"I1122 06:25:28.451801       1 a.go:1] \"m\"", 21, 31},
		{"I1122 06:25:28.451801 1234567 a.go:1] \"m\"", 21, 31},
	} {
		for i := c.from; i < c.to; i++ {
			for v := 0; v < 256; v++ {
				b := []byte(c.line)
				b[i] = byte(v)
				check(b)
				for j := i + 1; j < c.to; j++ {
					for _, d := range []byte{'0', '9', '/', ':', ' ', 0xfa, 0xff} {
						b2 := bytes.Clone(b)
						b2[j] = d
						check(b2)
					}
				}
			}
		}
	}
}

// TestRecordStringsOutliveBuffers keeps every string of every record, as
// a caller may, and checks them once the whole input is read: the reader
// reuses its line buffers, so a string that aliased one (the message is
// read through a view of the buffer) would have changed. Each record is
// compared with the same line read alone.
func TestRecordStringsOutliveBuffers(t *testing.T) {
	lines := []string{
		`I1122 06:25:31.183000   12052 kubelet.go:2400] "SyncLoop ADD" source="api" pods=["ns/a"]`,
		`I1122 06:25:31.183001   12052 operation_generator.go:721] "MountVolume.SetUp succeeded for volume \"config\" (UniqueName: \"kubernetes.io/configmap/u-config\")" pod="ns/a"`,
		`I1122 06:25:31.183002   12052 kubelet.go:2400] "Prüfung für Pod" pod="ns/ä"`,
		"I1122 06:25:31.183003   12052 kubelet.go:2400] \"bad \xff byte\" k=\"v\xfe\"",
		`I1122 06:25:31.183004   12052 kubelet.go:2400] "JSON \/ escape \u00e9" k="\x41"`,
		`I1122 06:25:31.183005   12052 kubelet.go:2400] "` + strings.Repeat("long message ", 20) + `" k=1`,
		`I1122 06:25:31.183006   12052 kuberuntime_container.go:1115] "Computing init container action" status={"State":"exited","ExitCode":0}`,
		`I1122 06:25:31.183007   12052 server.go:123] legacy printf message with "quotes"  `,
		`I1122 06:25:31.183008   12052 kubelet.go:2400] "SyncLoop ADD" source="api" pods=["ns/b"]`,
	}
	var in strings.Builder
	for range 300 { // more than a parallel chunk
		for _, l := range lines {
			in.WriteString(l + "\n")
		}
	}
	for _, workers := range []int{1, 2} {
		rd := NewReader(strings.NewReader(in.String()), Options{Year: 2026, Workers: workers, ChunkBytes: 4096})
		var kept []Record
		for {
			rec, err := rd.Next()
			if err != nil {
				break
			}
			r := *rec
			r.Fields = append([]Field(nil), rec.Fields...) // (the slice is the reader's; its strings are not)
			kept = append(kept, r)
		}
		if len(kept) != 300*len(lines) {
			t.Fatalf("workers=%d: %d records, want %d", workers, len(kept), 300*len(lines))
		}
		text := func(r *Record) string {
			return fmt.Sprintf("%q %q %q %#v", r.Msg, r.Source, r.Err, expandFields(r.Fields))
		}
		var want []string
		for _, l := range lines {
			alone, err := NewReader(strings.NewReader(l), Options{Year: 2026}).Next()
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, text(alone))
		}
		for i := range kept {
			if g, w := text(&kept[i]), want[i%len(lines)]; g != w {
				t.Fatalf("workers=%d, record %d, kept to the end:\n%s\nread alone:\n%s", workers, i, g, w)
			}
		}
	}
}

// decodeKlogRef is decodeKlog as it was before the header, source and
// message were left out of the record's string: one string per record,
// everything a substring of it.
func decodeKlogRef(b []byte, h klogHeader, sc *scratch) Record {
	s := string(b)
	rec := Record{Source: s[h.srcStart:h.srcEnd], Format: FormatKlogLegacy}
	payload := s[h.payload:]
	if len(payload) > 0 && payload[0] == '"' {
		if msg, e := quoted(payload, 0, sc); e > 0 {
			rec.Format, rec.Msg, rec.Fields = FormatKlog, msg, parseKV(payload[e:], nil, sc)
			// A value cut inside its quotes, list or object: closed.
			if n := len(rec.Fields); n > 0 {
				if f := &rec.Fields[n-1]; f.Value.Kind == KindBare && f.Raw != "" && strings.ContainsAny(f.Raw[:1], `"[{`) {
					if close, raw := closers(f.Raw); close != "" {
						if fs := parseKV(f.Key+"="+raw+close, nil, sc); len(fs) == 1 && fs[0].Key == f.Key {
							fs[0].Raw = f.Raw
							*f = fs[0]
						}
					}
				}
			}
			for _, f := range rec.Fields {
				if f.Key == "err" {
					rec.Err = f.Value.String()
					break
				}
			}
			return rec
		}
	}
	if len(payload) > 1 && payload[0] == '"' && !strings.Contains(payload, "\n") {
		// A message cut before its closing quote.
		_, body := closers(payload)
		if msg, e := quoted(body+`"`, 0, sc); e == len(body)+1 {
			rec.Format, rec.Msg = FormatKlog, msg
			return rec
		}
	}
	rec.Msg = strings.TrimRight(payload, " \n")
	return rec
}

// FuzzDecodeKlog checks decodeKlog against decodeKlogRef, twice on the same
// Reader (the second time with the source and message interned), and with
// the input overwritten after each decode: nothing may alias it.
func FuzzDecodeKlog(f *testing.F) {
	for _, s := range []string{
		`I1122 06:25:31.183001   12052 operation_generator.go:721] "MountVolume.SetUp succeeded for volume \"config\"" pod="ns/a"`,
		`I1122 06:25:31.183002   12052 kubelet.go:2400] "Prüfung" pod="ns/ä" k="\x41\/"`,
		"I1122 06:25:31.183003   12052 kubelet.go:2400] \"bad \xff\" k=\"v\xfe\"\n\tcont",
		`I1122 06:25:31.183006   12052 kuberuntime_container.go:1115] "Computing init container action" status={"State":"exited","ExitCode":0}`,
		`I1122 06:25:31.183007   12052 server.go:123] legacy "printf" message  `,
		`I1122 06:25:31.183008   12052 kubelet.go:2400] "unclosed \" message`,
		`I1122 06:25:31.183008   12052 x.go:1] "\u00e9\n" err="boom"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, ok := parseKlogHeader(data)
		if !ok {
			return
		}
		want := decodeKlogRef(data, h, &scratch{})
		wantText := fmt.Sprintf("%v %q %q %q %#v", want.Format, want.Msg, want.Source, want.Err, expandFields(want.Fields))
		// The message of the first line, as Want's memo would hold it.
		first := data
		if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
			first = data[:nl]
		}
		var memo string
		if h.payload <= len(first) {
			if f, msg := klogPayload(first, &h); f == FormatKlog {
				memo = string(msg)
			}
		}
		// What Reader.bare knows of a line whose message it found
		// closed on it: the message's end and the source too.
		bareH := h
		if h.payload < len(first) && first[h.payload] == '"' && h.payload+1+len(memo) < len(first) {
			bareH.msgEnd = h.payload + 1 + len(memo) + 1
		}
		r := NewReader(strings.NewReader(""), Options{Year: 2026})
		for i := range 6 {
			buf := bytes.Clone(data)
			var rec Record
			switch {
			case i < 2:
				r.decodeKlog(buf, &h, &rec, &knownText{}, false)
			case i < 4:
				r.decodeKlog(buf, &h, &rec, &knownText{msg: memo, plain: plainLen(memo) == len(memo)}, false)
			default:
				k := knownText{msg: memo, plain: plainLen(memo) == len(memo), source: string(data[h.srcStart:h.srcEnd])}
				r.decodeKlog(buf, &bareH, &rec, &k, false)
			}
			for j := range buf {
				buf[j] = 'X'
			}
			if got := fmt.Sprintf("%v %q %q %q %#v", rec.Format, rec.Msg, rec.Source, rec.Err, expandFields(rec.Fields)); got != wantText {
				t.Fatalf("decode %d of %q:\n%s\nwant\n%s", i+1, data, got, wantText)
			}
		}
	})
}
