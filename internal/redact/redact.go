// Package redact masks what a kubelet log says about the infrastructure
// behind it, so that podflow's output can be shared: IP addresses, tokens
// and secrets, registry and URL credentials, environment values and host
// names. The same value always gets the same mask within one Redactor
// (ip-1, host-3, token-2, cred-1, value-4), so a reader can still follow a
// node or an address through the output without learning it.
//
// What stays: pod names, namespaces, container names and pod UIDs (they
// are what podflow is about; a static pod's name keeps its prefix but its
// node-name suffix is masked), runtime container and sandbox IDs the
// caller declares with Keep, image digests (sha256:…), public registry host
// names (docker.io, registry.k8s.io, ghcr.io, quay.io, …) and loopback
// names.
//
// A nil *Redactor redacts nothing, so callers need no special case.
package redact

import (
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Mask kinds, which are also the masks' prefixes.
const (
	KindIP    = "ip"
	KindHost  = "host"
	KindToken = "token"
	KindCred  = "cred"
	KindValue = "value"
)

// Redactor assigns masks. It is safe for concurrent use.
type Redactor struct {
	mu     sync.Mutex
	masks  map[string]string // kind + "\x00" + value → mask
	counts map[string]int    // kind → masks given
	hosts  map[string]bool   // known host names
	keep   map[string]bool   // values that stay (runtime IDs)
	hostRE *regexp.Regexp    // alternation of hosts, longest first; nil when stale or none
	dirty  bool
}

// New returns an empty Redactor.
func New() *Redactor {
	return &Redactor{masks: map[string]string{}, counts: map[string]int{}, hosts: map[string]bool{}, keep: map[string]bool{}}
}

var maskShape = regexp.MustCompile(`^(?:ip|host|token|cred|value)-[0-9]+$`)

// IsMask reports whether s is a mask this package gives.
func IsMask(s string) bool { return maskShape.MatchString(s) }

// mask returns the mask of value in kind, giving the next number to a
// value not seen before. Callers hold r.mu.
func (r *Redactor) mask(kind, value string) string {
	if IsMask(value) {
		return value
	}
	k := kind + "\x00" + value
	if m, ok := r.masks[k]; ok {
		return m
	}
	r.counts[kind]++
	m := kind + "-" + strconv.Itoa(r.counts[kind])
	r.masks[k] = m
	return m
}

// Host registers name as a host name (a node name, a --hostname-override,
// a journald host) and returns its mask. From then on Text masks it
// wherever it appears. Empty names and loopback names stay.
func (r *Redactor) Host(name string) string {
	if r == nil || name == "" || name == "-" || isLoopbackName(name) {
		return name
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if IsMask(name) {
		return name
	}
	if !r.hosts[name] {
		r.hosts[name] = true
		r.dirty = true
	}
	return r.mask(KindHost, name)
}

// Keep declares values that look like secrets but are not, such as 64-hex
// runtime container IDs, so that Text leaves them.
func (r *Redactor) Keep(values ...string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, v := range values {
		if v != "" {
			r.keep[v] = true
		}
	}
}

// Bytes is Text for a byte slice.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	return []byte(r.Text(string(b)))
}

// Text masks every sensitive value in free text s. It is idempotent:
// masks are never masked again.
func (r *Redactor) Text(s string) string {
	if r == nil || s == "" {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if strings.Contains(s, "--hostname-override") {
		s = hostnameOverride(r, s)
	}
	s = r.knownHosts(s)
	for _, rule := range rules {
		s = rule(r, s)
	}
	return s
}

func (r *Redactor) knownHosts(s string) string {
	if len(r.hosts) == 0 {
		return s
	}
	if r.dirty || r.hostRE == nil {
		names := make([]string, 0, len(r.hosts))
		for h := range r.hosts {
			names = append(names, h)
		}
		sort.Slice(names, func(i, j int) bool {
			if len(names[i]) != len(names[j]) {
				return len(names[i]) > len(names[j])
			}
			return names[i] < names[j]
		})
		for i, n := range names {
			names[i] = regexp.QuoteMeta(n)
		}
		r.hostRE = regexp.MustCompile(strings.Join(names, "|"))
		r.dirty = false
	}
	// A host name is masked where it stands alone or ends a longer name
	// (a static pod is named NAME-NODE), not inside a word.
	return replaceIdx(s, r.hostRE.FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
		if start > 0 && (isWordByte(s[start-1]) || s[start-1] == '.') {
			return "", false
		}
		if end < len(s) && (isWordByte(s[end]) || s[end] == '-') {
			return "", false
		}
		return r.mask(KindHost, m), true
	})
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isLoopbackName(h string) bool {
	h = strings.ToLower(h)
	return h == "localhost" || strings.HasSuffix(h, ".localhost") || h == "localhost.localdomain"
}

// replaceIdx replaces the matches at idx (full-match index pairs) with
// what f returns, keeping those f declines.
func replaceIdx(s string, idx [][]int, f func(m string, start, end int) (string, bool)) string {
	if len(idx) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		rep, ok := f(s[m[0]:m[1]], m[0], m[1])
		if !ok {
			continue
		}
		b.WriteString(s[last:m[0]])
		b.WriteString(rep)
		last = m[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// replaceGroup replaces submatch g of every match of re with f's result.
func replaceGroup(s string, re *regexp.Regexp, g int, f func(v string, m []int) (string, bool)) string {
	idx := re.FindAllStringSubmatchIndex(s, -1)
	if len(idx) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range idx {
		if m[2*g] < 0 {
			continue
		}
		rep, ok := f(s[m[2*g]:m[2*g+1]], m)
		if !ok {
			continue
		}
		b.WriteString(s[last:m[2*g]])
		b.WriteString(rep)
		last = m[2*g+1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// The rules run in this order: credentials before the hosts they name,
// host names before the addresses inside them, and the generic
// long-token rule last.
var rules = []func(r *Redactor, s string) string{
	when(has("://", "@"), urlCreds), when(has("@"), refCreds),
	when(hasFold("auth", "token", "key", "cookie"), authHeaders), when(hasFold("bearer", "basic"), bearer),
	when(has("eyJ"), jwt), when(hasFold("pass", "pwd", "secret", "token", "key", "credential"), keyedSecrets),
	when(has("="), envValues), when(has("Value:"), structEnv), when(hasFold(`"value`), jsonEnv),
	when(has("://"), urlHosts), when(has(".", "/"), registryHosts),
	when(hasFold(".internal", ".local", ".lan", ".corp", ".home", ".intra", ".private", ".svc"), internalHosts),
	when(has("ip-"), cloudHosts),
	ipv6, when(has("."), ipv4), longRuns,
}

// when runs rule only on text that pre passes: a cheap test that spares
// the regular expression on most lines.
func when(pre func(string) bool, rule func(*Redactor, string) string) func(*Redactor, string) string {
	return func(r *Redactor, s string) string {
		if !pre(s) {
			return s
		}
		return rule(r, s)
	}
}

// has is true when s holds the first needle and, if given, any of the others.
func has(first string, any ...string) func(string) bool {
	return func(s string) bool {
		if !strings.Contains(s, first) {
			return false
		}
		for _, n := range any {
			if strings.Contains(s, n) {
				return true
			}
		}
		return len(any) == 0
	}
}

// hasFold is true when s holds any needle, ignoring ASCII case.
func hasFold(needles ...string) func(string) bool {
	return func(s string) bool {
		for _, n := range needles {
			if containsFold(s, n) {
				return true
			}
		}
		return false
	}
}

func containsFold(s, sub string) bool {
	n := len(sub)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

// longRuns runs the long-token rules only when s has a run of 32
// token characters.
func longRuns(r *Redactor, s string) string {
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isWordByte(c) || c == '+' || c == '/' || c == '-' {
			run++
			if run >= 32 {
				return longBase64(r, longHex(r, s))
			}
			continue
		}
		run = 0
	}
	return s
}

var (
	reURLCreds = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://([^/\s:@"'\\]+:[^/\s@"'\\]*)@`)
	reRefCreds = regexp.MustCompile(`(?:^|[\s"'=(\[,])([^\s/:@"'\\=(\[,]+:[^\s/@"'\\]+)@`)
	reOverride = regexp.MustCompile(`--hostname-override[= ]\\?"?([A-Za-z0-9][A-Za-z0-9.-]*)`)
	reAuth     = regexp.MustCompile(`(?i)\b(?:proxy-)?(?:authorization|x-auth-token|x-api-key|cookie|set-cookie)\\?["']?\s*[:=]\s*\\?["']?(?:(?:bearer|basic|token|digest)\s+)?([^\s"'\\,;]+)`)
	reBearer   = regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/-]{6,}=*)`)
	reJWT      = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}`)
	reKeyed    = regexp.MustCompile(`(?i)\b[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|client[_-]?secret|credentials?)\\?["']?\s*[=:]\s*\\?["']?([^\s"'\\,;&(){}\[\]]+)`)
	reEnv      = regexp.MustCompile(`\b[A-Z][A-Z0-9_]*[A-Z0-9]=("(?:[^"\\]|\\.)*"|[^\s"',;()\[\]{}]+)`)
	reStruct   = regexp.MustCompile(`\bName:[A-Za-z_][A-Za-z0-9_.-]*,Value:([^,}]+)`)
	reJSONEnv  = regexp.MustCompile(`(?i)\\?"name\\?":\s*\\?"[^"\\]+\\?",\s*\\?"value\\?":\s*\\?"((?:[^"\\]|\\[^"])+)\\?"`)
	reURLHost  = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://(?:[^/\s@"'\\]*@)?([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)`)
	reRegistry = regexp.MustCompile(`(?:^|[\s"'=(\[,@])((?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9])(?::[0-9]+)?/`)
	reInternal = regexp.MustCompile(`(?i)\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:internal|local|localdomain|lan|corp|home|intra|intranet|private|svc)\b`)
	reCloud    = regexp.MustCompile(`\bip-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}(?:\.[A-Za-z0-9-]+)*`)
	reIPv6     = regexp.MustCompile(`[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:\.[0-9]{1,3}){0,3}`)
	reIPv4     = regexp.MustCompile(`[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}`)
	reHex      = regexp.MustCompile(`[0-9A-Fa-f]{32,}`)
	reBase64   = regexp.MustCompile(`[A-Za-z0-9+/_-]{32,}={0,2}`)
)

// hostnameOverride learns the node name from the kubelet's flag, which
// the log prints before anything names the node.
func hostnameOverride(r *Redactor, s string) string {
	return replaceGroup(s, reOverride, 1, func(v string, _ []int) (string, bool) {
		if IsMask(v) || isLoopbackName(v) {
			return "", false
		}
		if !r.hosts[v] {
			r.hosts[v] = true
			r.dirty = true
		}
		return r.mask(KindHost, v), true
	})
}

func urlCreds(r *Redactor, s string) string {
	return replaceGroup(s, reURLCreds, 1, func(v string, _ []int) (string, bool) { return r.mask(KindCred, v), true })
}

func refCreds(r *Redactor, s string) string {
	return replaceGroup(s, reRefCreds, 1, func(v string, _ []int) (string, bool) {
		if IsMask(v) || strings.HasPrefix(v, KindCred+"-") {
			return "", false
		}
		return r.mask(KindCred, v), true
	})
}

func tokenGroup(r *Redactor) func(v string, _ []int) (string, bool) {
	return func(v string, _ []int) (string, bool) {
		if IsMask(v) || strings.HasPrefix(v, "&") {
			return "", false
		}
		return r.mask(KindToken, v), true
	}
}

func authHeaders(r *Redactor, s string) string { return replaceGroup(s, reAuth, 1, tokenGroup(r)) }
func bearer(r *Redactor, s string) string      { return replaceGroup(s, reBearer, 1, tokenGroup(r)) }
func keyedSecrets(r *Redactor, s string) string {
	return replaceGroup(s, reKeyed, 1, tokenGroup(r))
}

func jwt(r *Redactor, s string) string {
	return replaceIdx(s, reJWT.FindAllStringIndex(s, -1), func(m string, _, _ int) (string, bool) {
		return r.mask(KindToken, m), true
	})
}

func valueGroup(r *Redactor) func(v string, _ []int) (string, bool) {
	return func(v string, _ []int) (string, bool) {
		inner := strings.Trim(v, `"`)
		if inner == "" || IsMask(inner) || inner == "nil" {
			return "", false
		}
		return r.mask(KindValue, inner), true
	}
}

func envValues(r *Redactor, s string) string { return replaceGroup(s, reEnv, 1, valueGroup(r)) }
func structEnv(r *Redactor, s string) string { return replaceGroup(s, reStruct, 1, valueGroup(r)) }
func jsonEnv(r *Redactor, s string) string   { return replaceGroup(s, reJSONEnv, 1, valueGroup(r)) }

// publicHosts are registry and project domains that name no one's
// infrastructure; they and their subdomains stay.
var publicHosts = []string{
	"docker.io", "registry.k8s.io", "k8s.io", "gcr.io", "pkg.dev", "ghcr.io", "quay.io",
	"mcr.microsoft.com", "public.ecr.aws", "registry.gitlab.com", "nvcr.io", "docker.elastic.co",
	"cgr.dev", "registry.access.redhat.com", "registry.redhat.io", "kubernetes.io", "github.com",
	"golang.org", "go.etcd.io", "google.golang.org", "gopkg.in", "go.opentelemetry.io",
}

func isPublicHost(h string) bool {
	h = strings.ToLower(h)
	for _, p := range publicHosts {
		if h == p || strings.HasSuffix(h, "."+p) {
			return true
		}
	}
	return false
}

// hostGroup masks a host name unless it is public, loopback, an address
// (the IP rules mask those) or already a mask.
func hostGroup(r *Redactor) func(v string, _ []int) (string, bool) {
	return func(v string, _ []int) (string, bool) {
		if IsMask(v) || isPublicHost(v) || isLoopbackName(v) {
			return "", false
		}
		if _, err := netip.ParseAddr(v); err == nil {
			return "", false
		}
		if reIPv4.MatchString(v) && strings.Trim(v, "0123456789.") == "" {
			return "", false
		}
		return r.mask(KindHost, v), true
	}
}

func urlHosts(r *Redactor, s string) string      { return replaceGroup(s, reURLHost, 1, hostGroup(r)) }
func registryHosts(r *Redactor, s string) string { return replaceGroup(s, reRegistry, 1, hostGroup(r)) }

func internalHosts(r *Redactor, s string) string {
	return replaceIdx(s, reInternal.FindAllStringIndex(s, -1), func(m string, _, end int) (string, bool) {
		// The suffix must end the name: registry.corp.example is not .corp.
		if end < len(s) && (s[end] == '-' || s[end] == '.' && end+1 < len(s) && isWordByte(s[end+1])) {
			return "", false
		}
		return hostGroup(r)(m, nil)
	})
}

func cloudHosts(r *Redactor, s string) string {
	return replaceIdx(s, reCloud.FindAllStringIndex(s, -1), func(m string, _, _ int) (string, bool) {
		return r.mask(KindHost, m), true
	})
}

func ipv6(r *Redactor, s string) string {
	if strings.Count(s, ":") < 2 {
		return s
	}
	return replaceIdx(s, reIPv6.FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
		if start > 0 && (isWordByte(s[start-1]) || s[start-1] == ':' || s[start-1] == '.') {
			return "", false
		}
		cand := m
		for strings.HasSuffix(cand, ":") && !strings.HasSuffix(cand, "::") {
			cand = cand[:len(cand)-1]
		}
		end = start + len(cand)
		if end < len(s) && (isWordByte(s[end]) || s[end] == '.' && end+1 < len(s) && isWordByte(s[end+1])) {
			return "", false
		}
		if !strings.ContainsAny(cand, "0123456789") {
			return "", false // "::", "::add" (of "::add-mask::"), "dead::beef": words, not addresses
		}
		a, err := netip.ParseAddr(cand)
		if err != nil || !a.Is6() {
			return "", false
		}
		return r.mask(KindIP, cand) + m[len(cand):], true
	})
}

func ipv4(r *Redactor, s string) string {
	return replaceIdx(s, reIPv4.FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
		if start > 0 && (isWordByte(s[start-1]) || s[start-1] == '.') {
			return "", false
		}
		if end < len(s) && (isWordByte(s[end]) || s[end] == '.' && end+1 < len(s) && s[end+1] >= '0' && s[end+1] <= '9') {
			return "", false
		}
		if _, err := netip.ParseAddr(m); err != nil {
			return "", false
		}
		return r.mask(KindIP, m), true
	})
}

func longHex(r *Redactor, s string) string {
	return replaceIdx(s, reHex.FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
		if start > 0 && isWordByte(s[start-1]) || end < len(s) && isWordByte(s[end]) {
			return "", false
		}
		if r.keep[m] {
			return "", false
		}
		// Content digests (sha256:…) address public image content.
		pre := strings.ToLower(s[max(start-7, 0):start])
		if strings.HasSuffix(pre, "sha256:") || strings.HasSuffix(pre, "sha512:") || strings.HasSuffix(pre, "sha1:") {
			return "", false
		}
		return r.mask(KindToken, m), true
	})
}

func longBase64(r *Redactor, s string) string {
	return replaceIdx(s, reBase64.FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
		if start > 0 && (isWordByte(s[start-1]) || strings.IndexByte("+/-.", s[start-1]) >= 0) || m[0] == '/' {
			return "", false // inside a longer token, or a path
		}
		if end < len(s) && isWordByte(s[end]) {
			return "", false
		}
		// A secret mixes cases and digits; names, paths and words do not.
		var up, lo, dig bool
		for i := 0; i < len(m); i++ {
			c := m[i]
			up = up || c >= 'A' && c <= 'Z'
			lo = lo || c >= 'a' && c <= 'z'
			dig = dig || c >= '0' && c <= '9'
		}
		if !up || !lo || !dig || r.keep[m] {
			return "", false
		}
		return r.mask(KindToken, m), true
	})
}
