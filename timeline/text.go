package timeline

import (
	"strings"

	"github.com/podflow/podflow/parser"
)

// Small readers of a record's text that several subsystems share.

// valueText is v.String(), without a call nor a copy of v for the kinds
// whose text is Str.
func valueText(v *parser.Value) string {
	if k := v.Kind; k != parser.KindList && k != parser.KindObject && k != parser.KindQuoted {
		return v.Str
	}
	return v.String()
}

func firstQuoted(s string) string {
	from, to, _ := firstQuotedAt(s)
	return s[from:to]
}

// firstQuotedAt returns where firstQuoted's text lies in s; ok false (and
// an empty span) when s holds no quoted text.
func firstQuotedAt(s string) (from, to int, ok bool) {
	i := strings.IndexByte(s, '"')
	if i < 0 {
		return 0, 0, false
	}
	j := strings.IndexByte(s[i+1:], '"')
	if j < 0 {
		return 0, 0, false
	}
	return i + 1, i + 1 + j, true
}

func lastQuoted(s string) string {
	j := strings.LastIndexByte(s, '"')
	if j <= 0 {
		return ""
	}
	i := strings.LastIndexByte(s[:j], '"')
	if i < 0 {
		return ""
	}
	return s[i+1 : j]
}
