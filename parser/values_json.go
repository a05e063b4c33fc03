package parser

import (
	"strconv"
)

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b string, i int) int {
	for i < len(b) && b[i] <= ' ' && isSpace(b[i]) {
		i++
	}
	return i
}

// parseJSON decodes the JSON value at b[i:], returning the value and the
// index after it. ok is false on malformed input.
func parseJSON(b string, i, depth int, sc *scratch) (v Value, next int, ok bool) {
	return parseJSONLim(b, i, depth, newLimits(len(b), sc))
}

func parseJSONLim(b string, i, depth int, lim *limits) (v Value, next int, ok bool) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return v, i, false
	}
	switch c := b[i]; {
	case c == '"':
		str, e := quoted(b, i, lim.sc)
		if e < 0 {
			return v, i, false
		}
		return Value{Kind: KindString, Str: str}, e, true
	case (c == '{' || c == '[') && (depth >= maxDepth || lim.values <= 0):
		return bareGroup(b, i)
	case c == '{':
		eager := lim.eager
		if (depth > 0 || lim.lazyTop) && !eager {
			saved := lim.values
			if e, ok := skipJSON(b, i, depth, lim); ok {
				return Value{Kind: KindObject, Str: b[i:e]}, e, true
			}
			// Malformed or at a limit: the eager decode says what to
			// keep, and charges the limits as it always has. The
			// objects inside it are decoded at once too, so that no
			// byte is checked more than twice.
			lim.values = saved
			lim.eager = true
		}
		base := len(lim.sc.fields)
		v, next, ok = parseObject(b, i, depth, lim)
		lim.eager = eager
		if ok && v.Kind == KindObject {
			v.Obj = lim.sc.takeFields(base)
		} else {
			lim.sc.dropFields(base)
		}
		return v, next, ok
	case c == '[':
		base := len(lim.sc.values)
		v, next, ok = parseList(b, i, depth, lim)
		if ok && v.Kind == KindList {
			v.List = lim.sc.takeValues(base)
		} else {
			lim.sc.dropValues(base)
		}
		return v, next, ok
	case c == 't' && hasPrefixAt(b, i, "true"):
		return Value{Kind: KindBool, Str: "true"}, i + 4, true
	case c == 'f' && hasPrefixAt(b, i, "false"):
		return Value{Kind: KindBool, Str: "false"}, i + 5, true
	case c == 'n' && hasPrefixAt(b, i, "null"):
		return Value{Kind: KindNull, Str: "null"}, i + 4, true
	case c == '-' || (c >= '0' && c <= '9'):
		j := numberEnd(b, i)
		f, err := strconv.ParseFloat(string(b[i:j]), 64)
		if err != nil {
			return v, j, false
		}
		return Value{Kind: KindNumber, Str: string(b[i:j]), Num: f}, j, true
	}
	return v, i, false
}

// skipJSON checks the JSON value at b[i:] as parseJSONLim decodes it,
// building nothing, and returns the index after it. ok is true only where
// parseJSONLim would decode it in full: it is well formed, and no group in
// it reaches the depth or value limits, where parseJSONLim would keep that
// group bare. lim.values is charged as parseJSONLim charges it.
//
// An object that passes is kept as its text (Value.Str) and its members
// decoded on demand (Value.Get, Value.Members): the engine reads a few
// members of a few objects (4 of the 26 of a container status), while
// decoding them all at once costs 112 bytes a member for every record.
func skipJSON(b string, i, depth int, lim *limits) (next int, ok bool) {
	i = skipSpace(b, i)
	if i >= len(b) {
		return i, false
	}
	switch c := b[i]; {
	case c == '"':
		e := quotedEnd(b, i)
		return e, e >= 0
	case c == '{' || c == '[':
		// (One level of room is kept, so that the members of a lazy
		// object, decoded later from depth 1, stay clear of it too.)
		if depth >= maxDepth-1 || lim.values <= 0 {
			return i, false
		}
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		i = skipSpace(b, i+1)
		if i < len(b) && b[i] == end {
			return i + 1, true
		}
		for {
			i = skipSpace(b, i)
			if lim.values <= 0 {
				return i, false
			}
			if c == '{' {
				if i >= len(b) || b[i] != '"' {
					return i, false
				}
				e := quotedEnd(b, i)
				if e < 0 {
					return i, false
				}
				i = skipSpace(b, e)
				if i >= len(b) || b[i] != ':' {
					return i, false
				}
				i++
			}
			lim.values--
			n, ok := skipJSON(b, i, depth+1, lim)
			if !ok {
				return n, false
			}
			i = skipSpace(b, n)
			if i < len(b) && b[i] == ',' {
				i++
				continue
			}
			if i < len(b) && b[i] == end {
				return i + 1, true
			}
			return i, false
		}
	case c == 't' && hasPrefixAt(b, i, "true"):
		return i + 4, true
	case c == 'f' && hasPrefixAt(b, i, "false"):
		return i + 5, true
	case c == 'n' && hasPrefixAt(b, i, "null"):
		return i + 4, true
	case c == '-' || (c >= '0' && c <= '9'):
		j := numberEnd(b, i)
		_, err := strconv.ParseFloat(b[i:j], 64)
		return j, err == nil
	}
	return i, false
}

// numberEnd returns the index after the run of number bytes at b[i:].
func numberEnd(b string, i int) int {
	j := i + 1
	for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == '.' || b[j] == 'e' || b[j] == 'E' || b[j] == '+' || b[j] == '-') {
		j++
	}
	return j
}

// lazyMembers decodes the members of an object kept as its text.
func lazyMembers(s string) []Field {
	var sc scratch
	if _, _, ok := parseObject(s, 0, 0, newLimits(len(s), &sc)); !ok {
		return nil // (skipJSON let it through: not reached)
	}
	return sc.takeFields(0)
}

// lazyGet is Value.Get on an object kept as its text: it walks the
// members, skipping values without decoding them, and decodes only the
// value of the first member named key.
func lazyGet(s, key string) (Value, bool) {
	var sc scratch
	i := skipSpace(s, 1)
	if i < len(s) && s[i] == '}' {
		return Value{}, false
	}
	for i < len(s) && s[i] == '"' {
		e := quotedEnd(s, i)
		if e < 0 {
			break
		}
		k := s[i+1 : e-1]
		var match bool
		if plainLen(k) == len(k) {
			match = k == key
		} else {
			dk, _ := quoted(s, i, &sc)
			match = dk == key
		}
		vs := skipSpace(s, skipSpace(s, e)+1) // after the ':'
		if match {
			v, _, ok := parseJSONLim(s, vs, 1, newLimits(len(s), &sc))
			return v, ok
		}
		n := jsonValueEnd(s, vs)
		if n < 0 {
			break
		}
		i = skipSpace(s, n)
		if i >= len(s) || s[i] != ',' {
			break
		}
		i = skipSpace(s, i+1)
	}
	return Value{}, false
}

// jsonValueEnd returns the index after the JSON value at s[i:], which
// skipJSON found well formed.
func jsonValueEnd(s string, i int) int {
	switch s[i] {
	case '"':
		return quotedEnd(s, i)
	case '{', '[':
		return bracketEnd(s, i)
	}
	for j := i; j < len(s); j++ {
		switch s[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j
		}
	}
	return len(s)
}

// parseObject is parseJSONLim for the object at b[i] == '{'. Its members
// are left in lim.sc.fields, above what was there.
func parseObject(b string, i, depth int, lim *limits) (v Value, next int, ok bool) {
	gs := i
	v.Kind = KindObject
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return v, i + 1, true
	}
	for {
		i = skipSpace(b, i)
		if lim.values <= 0 {
			if depth > 0 {
				return bareGroup(b, gs)
			}
			// A record's own object: keep the members decoded so far
			// and the rest as one bare field, as parseKV does.
			e := bracketEnd(b, gs)
			if e < 0 {
				return v, i, false
			}
			rest := b[i : e-1]
			lim.sc.fields = append(lim.sc.fields, Field{Raw: rest, Value: Value{Kind: KindBare, Str: rest}})
			return v, e, true
		}
		if i >= len(b) || b[i] != '"' {
			return v, i, false
		}
		key, e := quoted(b, i, lim.sc)
		if e < 0 {
			return v, i, false
		}
		i = skipSpace(b, e)
		if i >= len(b) || b[i] != ':' {
			return v, i, false
		}
		vs := skipSpace(b, i+1)
		lim.values--
		mv, n, ok := parseJSONLim(b, vs, depth+1, lim)
		if !ok {
			return v, n, false
		}
		lim.sc.fields = append(lim.sc.fields, Field{Key: key, Raw: string(b[vs:n]), Value: mv})
		i = skipSpace(b, n)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if i < len(b) && b[i] == '}' {
			return v, i + 1, true
		}
		return v, i, false
	}
}

// parseList is parseJSONLim for the list at b[i] == '['. Its elements are
// left in lim.sc.values, above what was there.
func parseList(b string, i, depth int, lim *limits) (v Value, next int, ok bool) {
	gs := i
	v.Kind = KindList
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return v, i + 1, true
	}
	for {
		if lim.values <= 0 {
			return bareGroup(b, gs)
		}
		lim.values--
		ev, n, ok := parseJSONLim(b, i, depth+1, lim)
		if !ok {
			return v, n, false
		}
		lim.sc.values = append(lim.sc.values, ev)
		i = skipSpace(b, n)
		if i < len(b) && b[i] == ',' {
			i++
			continue
		}
		if i < len(b) && b[i] == ']' {
			return v, i + 1, true
		}
		return v, i, false
	}
}

// bareGroup keeps the bracketed group at b[i] undecoded, as bare raw text.
func bareGroup(b string, i int) (Value, int, bool) {
	if e := bracketEnd(b, i); e > 0 {
		return Value{Kind: KindBare, Str: b[i:e]}, e, true
	}
	return Value{}, i, false
}
