package catalog

import "strings"

// pattern is a printf format read as a glob: its literal parts in order,
// a verb between two of them matching any text (a %q, %v or %+v of a
// struct renders as anything, spaces and quotes included).
type pattern struct {
	// lits are the literal parts, one more than the verbs: lits[0]
	// before the first verb (maybe empty), the last after the last one.
	lits []string
}

// compile splits a format at its verbs: % flags width .precision verb,
// %% being a literal percent sign.
func compile(format string) pattern {
	p, _ := compileInto(nil, format)
	return p
}

// compileInto compiles into a pool of strings: the literal parts are
// the format's own substrings, copied only where a %% is read as %.
func compileInto(pool []string, format string) (pattern, []string) {
	start := len(pool)
	litStart := 0     // where the current literal part starts in format
	var copied []byte // the current part when it needed a %% folded
	flush := func(end int) {
		if copied != nil {
			pool = append(pool, string(append(copied, format[litStart:end]...)))
			copied = nil
		} else {
			pool = append(pool, format[litStart:end])
		}
	}
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			continue
		}
		if format[i+1] == '%' {
			copied = append(append(copied, format[litStart:i]...), '%')
			i++
			litStart = i + 1
			continue
		}
		j := i + 1
		for j < len(format) && strings.IndexByte("+-# 0123456789.*[]", format[j]) >= 0 {
			j++
		}
		if j == len(format) { // a dangling %: text
			break
		}
		flush(i) // format[j] is the verb
		i = j
		litStart = j + 1
	}
	flush(len(format))
	return pattern{lits: pool[start:len(pool):len(pool)]}, pool
}

// match says text is a rendering of the format: the first literal part
// at its start, the last at its end, the others in order between
// (leftmost placement of each is enough for a glob).
func (p pattern) match(text string) bool {
	n := len(p.lits)
	if n == 1 {
		return text == p.lits[0]
	}
	head, tail := p.lits[0], p.lits[n-1]
	if len(text) < len(head)+len(tail) || !strings.HasPrefix(text, head) || !strings.HasSuffix(text, tail) {
		return false
	}
	mid := text[len(head) : len(text)-len(tail)]
	for _, l := range p.lits[1 : n-1] {
		i := strings.Index(mid, l)
		if i < 0 {
			return false
		}
		mid = mid[i+len(l):]
	}
	return true
}

// canStartWith says some rendering of the format starts with prefix:
// the literal head starts with it, or it starts with the head and a
// verb follows (a verb may render as anything).
func (p pattern) canStartWith(prefix string) bool {
	head := p.lits[0]
	return strings.HasPrefix(head, prefix) || (len(p.lits) > 1 && strings.HasPrefix(prefix, head))
}

// Pattern is a printf format compiled for matching logged texts against
// it, for a caller that holds formats of its own (timeline's classes.tsv
// rows) rather than the catalog's entries.
type Pattern struct{ p pattern }

// Compile reads a printf format as a Pattern.
func Compile(format string) Pattern { return Pattern{compile(format)} }

// Match says text is a rendering of the format.
func (p Pattern) Match(text string) bool { return p.p.match(text) }

// Head is the format's literal text before its first verb.
func (p Pattern) Head() string { return p.p.lits[0] }
