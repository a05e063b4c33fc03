package redact

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Cut texts. The engine keeps the first bytes of a long text and ends it
// with "…"; a secret cut there no longer matches its rule, but its prefix
// is still a secret. cutTails masks what ends right before each "…": what
// a rule's start says is a secret (a Bearer header, a key=, a URL's
// authority, a NAME=, a PEM header) and, failing that, the last token when
// its shape is an address's, a dotted name's, a provider token's, a
// user:password's or a long mixed run's.
var tailRules = []struct {
	re   func() *regexp.Regexp
	kind string
}{
	{lazyRE(`(-----BEGIN[A-Z0-9 _-]*PRIVATE KEY[^"]*)$`), KindToken},
	{lazyRE(`(?i)\b(?:bearer|basic|digest|token)\s+([^\s"'\\]*)$`), KindToken},
	{lazyRE(`(?i)\b(?:authorization|cookie|x-api-key|x-auth-token|x-registry-auth|private-token)\\*["']?\s*[:=]\s*\\*["']?([^\s"'\\]*)$`), KindToken},
	{lazyRE(`(?i)` + keyWords + keyQuote + `\s*` + keySep + `\s*` + keyQuote + `((?:[^\s"'\\,;&(){}\[\]%]|` + notAmp + `|%[0-9A-Fa-f]?)*)$`), KindToken},
	{lazyRE(`(?i)\bdial (?:tcp|udp)[46]?:?\s+\\?"?([A-Za-z_][A-Za-z0-9_-]*)(?::[0-9]*)?$`), KindHost},
	{lazyRE(`(?i)(?:^|\s)--?[a-z0-9-]*(?:password|passwd|pass|secret|token|api-key|access-key|key-id)(?:=|\s+)\\?["']?([^\s"'\\]*)$`), KindToken},
	{lazyRE(`[A-Za-z][A-Za-z0-9+.-]*://([^/\s"'\\]*)$`), KindCred},
	{lazyRE(`\b[A-Z][A-Z0-9_]*[A-Z0-9]=\\?"?([^\s"\\]*)$`), KindValue},
	{lazyRE(`(?i)\\*"value\\*":\s*\\*"([^"\\]*)$`), KindValue},
	{lazyRE(`\bValue:([^}]*)$`), KindValue},
	{lazyRE(`\b(ip-[0-9][0-9-]*)$`), KindHost},
}

var reMaskEnd = lazyRE(`(?:ip|host|token|cred|value)-[0-9a-f]{16}(?:[0-9a-f]{8})?$`)

var (
	reTailToken = lazyRE(`([^\s"'\\=(\[,<>{}]*)$`)
	reTailIPv4  = lazyRE(`^[0-9]{1,3}\.[0-9]{1,3}\.[0-9.]*$`)
	reTailIPv6  = lazyRE(`^\[?[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){1,7}[0-9A-Fa-f.%]*$`)
	reTailCred  = lazyRE(`^[^:/@]+:([^/@]+)$`)
	tailPrefix  = []string{"eyJ", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "glptt-", "xox", "xapp-", "AKIA",
		"ASIA", "A3T", "AIza", "sk_live_", "sk_test_", "rk_live_", "sk-", "npm_", "pypi-", "SG.", "dop_v1_", "hvs.", "hvb.", "ya29.",
		"LTAI", "AKCp", "shpat_", "-----BEGIN"}
)

// A cut token is read back at most tailWindow bytes, and its context
// tailContext bytes before it.
const (
	tailWindow  = 1024
	tailContext = 64
)

func cutTails(r *Redactor, s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "…")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(maskTail(r, s[:i]))
		b.WriteString("…")
		s = s[i+len("…"):]
	}
}

// maskTail masks the secret that p ends in, if any: one that starts in
// its last tailWindow bytes (a PEM key's body, longer, is the rules').
func maskTail(r *Redactor, p string) string {
	if reMaskEnd().MatchString(p) {
		return p // masked already
	}
	// The rules read the last token and what stands before it.
	tok := 0
	for i := len(p) - 1; i >= 0 && len(p)-i <= tailWindow; i-- {
		if c := p[i]; c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' {
			break
		}
		tok++
	}
	if w := tok + tailContext; len(p) > w {
		i := len(p) - w
		for i < len(p) && !utf8.RuneStart(p[i]) {
			i++
		}
		return p[:i] + maskTail(r, p[i:])
	}
	for _, t := range tailRules {
		m := t.re().FindStringSubmatchIndex(p)
		if m == nil || m[2] < 0 || m[2] == m[3] {
			continue
		}
		v := p[m[2]:m[3]]
		if IsMask(v) {
			return p
		}
		if t.kind == KindCred && !strings.ContainsAny(v, ":@") {
			// An authority with no userinfo: a host.
			if isPublicHost(v) || isLoopbackName(v) {
				return p
			}
			return p[:m[2]] + r.mask(KindHost, v)
		}
		if t.kind == KindCred && strings.Contains(v, "@") {
			at := strings.LastIndexByte(v, '@')
			host := v[at+1:]
			if host != "" && !IsMask(host) {
				host = r.mask(KindHost, host)
			}
			return p[:m[2]] + r.mask(KindCred, v[:at]) + "@" + host
		}
		return p[:m[2]] + r.mask(t.kind, v) + p[m[3]:]
	}
	m := reTailToken().FindStringIndex(p)
	if m == nil {
		return p
	}
	v := p[m[0]:]
	if len(v) < 4 || reMaskIn().MatchString(v) {
		return p // short, or masked already (a rule's mask the cut text glued to)
	}
	kind := tailKind(v)
	if kind == "" {
		return p
	}
	if at := strings.LastIndexByte(v, '@'); at > 0 && kind == KindCred {
		host := v[at+1:]
		if host != "" {
			host = r.mask(KindHost, host)
		}
		return p[:m[0]] + r.mask(KindCred, v[:at]) + "@" + host
	}
	return p[:m[0]] + r.mask(kind, v)
}

// tailKind says what a cut token is, by its shape; "" when nothing.
func tailKind(v string) string {
	for _, pre := range tailPrefix {
		if strings.HasPrefix(v, pre) {
			return KindToken
		}
	}
	switch {
	case strings.Contains(v, "@"):
		return KindCred
	case strings.Contains(v, "/"):
		return "" // a path, or a reference whose host the rules see
	case reTailIPv4().MatchString(v) && strings.Count(v, ".") >= 2, reTailIPv6().MatchString(v) && len(strings.Trim(v, "[")) >= 6:
		return KindIP
	}
	if m := reTailCred().FindStringSubmatch(v); m != nil && len(m[1]) >= 3 && strings.ContainsAny(m[1], "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
		strings.Trim(m[1], "0123456789.") != "" && !(m[1][0] == 'v' || m[1][0] >= '0' && m[1][0] <= '9') {
		return KindCred
	}
	if strings.Contains(v, ".") && strings.IndexFunc(v, func(c rune) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }) >= 0 {
		if w := strings.TrimRight(v, "."); strings.LastIndexByte(w, '.') > 0 && !isPublicHost(w) {
			return KindHost
		}
	}
	var up, lo, dig bool
	for i := 0; i < len(v); i++ {
		c := v[i]
		up = up || c >= 'A' && c <= 'Z'
		lo = lo || c >= 'a' && c <= 'z'
		dig = dig || c >= '0' && c <= '9'
	}
	if len(v) >= 16 && up && lo && dig || len(v) >= 6 && dig && (up || lo) && strings.Trim(v, "0123456789abcdefABCDEF") == "" {
		return KindToken
	}
	return ""
}
