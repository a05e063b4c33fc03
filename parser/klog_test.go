package parser

import (
	"bytes"
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
