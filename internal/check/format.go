package check

import (
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/podflow/podflow/timeline"
)

func durPtr(d time.Duration) *timeline.Duration { v := timeline.Duration(d); return &v }

// FmtDur prints a duration as every view does (timeline.HumanDuration).
func FmtDur(d time.Duration) string { return timeline.HumanDuration(d) }

// plural is "1 pod", "2 pods".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

func orList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func pct(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+∞"
	case f >= 0:
		return fmt.Sprintf("+%.0f%%", f*100)
	}
	return fmt.Sprintf("%.0f%%", f*100)
}

func Trunc(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

// EvidenceLine is "input:line text" for one evidence line.
func EvidenceLine(ev timeline.Evidence) string {
	return fmt.Sprintf("%s:%d %s", ev.Input, ev.Line, ev.Text)
}
