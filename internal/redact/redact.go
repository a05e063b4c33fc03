// Package redact masks what a kubelet log says about the infrastructure
// behind it, so that podflow's output can be shared: IP addresses, tokens
// and secrets, registry and URL credentials, environment values and host
// names. The same value always gets the same mask (ip-3f2a09c17b44e210,
// host-9b0e44d7c3a18f55, token-…, cred-…, value-…), so a reader can still
// follow a node or an address through the output without learning it. A
// mask's number is a keyed hash of the value (HMAC-SHA-256, its first 64
// bits in hex: among a billion values, two sharing a mask is a chance in
// some 30 million), not an order of arrival: every command given the same
// key masks a value alike, whatever it met first. The key never depends
// on the input (see key.go): without it, no guess of a value can be
// checked against its mask.
//
// Text masks first and the caller cuts after. A text that arrives already
// cut (the engine keeps 300 bytes of an error, ending in "…") has what a
// rule would have matched up to the cut masked too: a cut secret's prefix
// is still a secret.
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
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"net/netip"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"
)

// Mask kinds, which are also the masks' prefixes.
const (
	KindIP    = "ip"
	KindHost  = "host"
	KindToken = "token"
	KindCred  = "cred"
	KindValue = "value"
)

// Texts repeat (a FlowList's reasons, stage texts, event messages): Text
// remembers what it gave for up to maxMemo of them.
const (
	maxMemo     = 1 << 16
	maxMemoText = 4 << 10
)

// Redactor assigns masks. It is safe for concurrent use.
type Redactor struct {
	mu     sync.Mutex
	key    []byte            // the hash key: New's random one, or SetKey's
	keyed  bool              // a mask was given: the key is fixed
	mac    hash.Hash         // HMAC-SHA-256 under key, once keyed
	sum    [sha256.Size]byte // mac's sum
	masks  map[string]string // kind + "\x00" + value → mask
	values map[string]string // mask → value (Reveal)
	hosts  map[string]bool   // known host names
	keep   map[string]bool   // values that stay (runtime IDs)
	hostRE *regexp.Regexp    // alternation of hosts, longest first; nil when stale or none
	dirty  bool
	local  []string          // the dotted host names Text masked in the text at hand
	memo   map[string]string // text → what Text gave, while no host is learnt
}

// New returns an empty Redactor with a key of its own, random: its masks
// are its own alone until SetKey gives the user's key.
func New() *Redactor {
	return &Redactor{key: RandomKey(), masks: map[string]string{}, values: map[string]string{}, memo: map[string]string{}, hosts: map[string]bool{}, keep: map[string]bool{}}
}

var maskShape = regexp.MustCompile(`^(?:ip|host|token|cred|value)-[0-9a-f]{16}(?:[0-9a-f]{8})?$`)

// SetKey sets the key of the masks' hash (LoadKey's). It has effect only
// before the first mask is given, so that one run never gives one value
// two masks.
func (r *Redactor) SetKey(key []byte) {
	if r == nil || len(key) == 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.keyed {
		r.key = bytes.Clone(key)
	}
}

// Reveal replaces the masks this Redactor gave in s with their values:
// the way back for matching masked names against unmasked input (lines
// pod). What it returns must never be printed.
func (r *Redactor) Reveal(s string) string {
	if r == nil || !strings.Contains(s, "-") {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return reMaskIn.ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := r.values[m]; ok {
			return v
		}
		return m
	})
}

// reMaskAny finds masks glued to what stands before them (\u0022token-…).
var reMaskAny = regexp.MustCompile(`(?:ip|host|token|cred|value)-[0-9a-f]{16}(?:[0-9a-f]{8})?`)

var reMaskIn = regexp.MustCompile(`\b(?:ip|host|token|cred|value)-[0-9a-f]{16}(?:[0-9a-f]{8})?\b`)

// IsMask reports whether s is a mask this package gives.
func IsMask(s string) bool { return maskShape.MatchString(s) }

// mask returns the mask of value in kind: the kind and the first 64 bits
// of the value's keyed hash, in hex (96 bits in the unlikely case that
// another value of this run already has those 64). Callers hold r.mu.
func (r *Redactor) mask(kind, value string) string {
	if IsMask(value) {
		return value
	}
	k := kind + "\x00" + value
	if m, ok := r.masks[k]; ok {
		return m
	}
	if !r.keyed || r.mac == nil {
		r.keyed = true
		r.mac = hmac.New(sha256.New, r.key)
	}
	r.mac.Reset()
	r.mac.Write([]byte(k))
	sum := r.mac.Sum(r.sum[:0])
	m := kind + "-" + hex.EncodeToString(sum[:8])
	if _, taken := r.values[m]; taken {
		m = kind + "-" + hex.EncodeToString(sum[:12])
	}
	r.masks[k] = m
	r.values[m] = value
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

// Bytes is Record for a byte slice: a record's raw lines as read back.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	return []byte(r.Record(string(b)))
}

// maxJoin bounds the record Record joins: longer ones (up to 64 MiB) are
// masked line by line.
const maxJoin = 1 << 20

// Record masks a record's raw lines (lines pod, the report's evidence,
// the TUI's lines view). A record may be one line hard-wrapped at the
// terminal's width, a secret cut in two by the wrap: each line masked on
// its own would leave the second half, which no rule knows for a secret.
// So the lines are joined (the wrap's line end separates nothing), the
// join is masked, and each value masked there is put in place of its
// value in the lines, the mask where the value began and the line ends
// inside it kept after it, so that the record keeps its lines; then each
// line is masked as Text masks it.
func (r *Redactor) Record(s string) string {
	if r == nil || !strings.Contains(s, "\n") || len(s) > maxJoin {
		return r.Text(s)
	}
	var ends []int // the join's offsets where a line end was taken out
	var jb strings.Builder
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			jb.WriteString(s[i:])
			break
		}
		jb.WriteString(s[i : i+j])
		ends = append(ends, jb.Len())
		i += j + 1
	}
	joined := jb.String()
	masked := r.Text(joined)
	type span struct {
		a, b int // in the join
		mask string
	}
	var spans []span
	r.mu.Lock()
	for _, m := range reMaskAny.FindAllString(masked, -1) {
		v := r.values[m]
		if v == "" {
			continue
		}
		for i := 0; ; {
			k := strings.Index(joined[i:], v)
			if k < 0 {
				break
			}
			// Every value: one whole on a line may have had its key (a
			// scheme, Bearer) on the line before.
			a, b := i+k, i+k+len(v)
			spans = append(spans, span{a, b, m})
			i = b
		}
	}
	r.mu.Unlock()
	if len(spans) == 0 {
		return r.Text(s)
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].a < spans[j].a })
	// before(j) is how many line ends were taken out before join offset j.
	before := func(j int) int { return sort.SearchInts(ends, j+1) }
	var out strings.Builder
	last := 0 // in s
	lastB := 0
	for _, sp := range spans {
		if sp.a < lastB {
			continue // overlaps one put already
		}
		oa := sp.a + before(sp.a)
		ob := sp.b - 1 + before(sp.b-1) + 1
		inside := strings.Count(s[oa:ob], "\n")
		out.WriteString(s[last:oa])
		out.WriteString(sp.mask)
		out.WriteString(strings.Repeat("\n", inside))
		last, lastB = ob, sp.b
	}
	out.WriteString(s[last:])
	return r.Text(out.String())
}

// Text masks every sensitive value in free text s. It is idempotent:
// masks are never masked again.
func (r *Redactor) Text(s string) string {
	if r == nil || s == "" {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dirty || len(r.memo) >= maxMemo {
		clear(r.memo) // a host learnt changes what a text gives
	}
	if m, ok := r.memo[s]; ok {
		return m
	}
	in := s
	defer func() {
		if len(in) <= maxMemoText {
			r.memo[in] = s
		}
	}()
	if strings.Contains(s, "…") {
		s = cutTails(r, s)
	}
	if strings.Contains(s, "--hostname-override") {
		s = hostnameOverride(r, s)
	}
	s = r.knownHosts(s)
	r.local = r.local[:0]
	for _, rule := range rules {
		s = rule(r, s)
	}
	// A name a rule found where it was sure (a URL, a registry, a DNS
	// error) is masked wherever else this text has it.
	for _, h := range r.local {
		s = replaceWord(s, h, r.masks[KindHost+"\x00"+h])
	}
	return s
}

// replaceWord replaces every occurrence of w in s that stands alone (no
// word byte, dot or hyphen next to it) with m.
func replaceWord(s, w, m string) string {
	if w == "" || m == "" {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			break
		}
		start, end := i+j, i+j+len(w)
		i = start + 1
		if start > 0 && (isWordByte(s[start-1]) || s[start-1] == '.' || s[start-1] == '-') ||
			end < len(s) && (isWordByte(s[end]) || s[end] == '-' || s[end] == '.' && end+1 < len(s) && isWordByte(s[end+1])) {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(m)
		last = end
		i = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
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
		if end < len(s) && (isWordByte(s[end]) && s[end] != '_' || s[end] == '-') {
			return "", false // (NAME_NAMESPACE, the kubelet's podName, ends the name)
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

// The rules run in this order: private keys and credentials before the
// hosts they name, host names before the addresses inside them, and the
// generic long-token rule last.
var rules = []func(r *Redactor, s string) string{
	when(has("-----BEGIN"), privateKeys),
	when(has("://", "@"), urlCreds), when(has("@"), refCreds),
	when(hasFold("auth", "token", "key", "cookie"), authHeaders), when(hasFold("bearer", "basic"), bearer),
	when(has("eyJ"), jwt), when(hasTokenPrefix, providerTokens),
	when(keyedPre, keyedSecrets), when(has("--"), flagSecrets),
	when(has("="), envValues), when(has("Value:"), structEnv), when(hasFold(`"value`), jsonEnv), when(has("@", "."), emails),
	when(has("://"), urlHosts), when(has(".", "/"), registryHosts),
	when(hasFold("lookup", "resolv", "dial ", "connect", "host", "not known", "name resolution"), errorHosts),
	when(hasFold(".internal", ".local", ".lan", ".corp", ".home", ".intra", ".private", ".svc"), internalHosts),
	when(has("."), fqdns),
	when(has("ip-"), cloudHosts),
	ipv6, when(has("."), ipv4), longRuns,
}

var keyedNeedles = []string{"pass", "pwd", "secret", "token", "key", "credential", "auth", "sig", "accountname", "account_name", "account-name"}

var keyedSuffixes = []string{"word", "wd", "phrase", "s", "_id", "-id", "id", "_data", "-data", "data"}

// keyedPre is true when a needle of keyedSecrets is followed, after
// letters, quotes, a backslash or spaces, by = or :.
func keyedPre(s string) bool {
	for _, n := range keyedNeedles {
		for i := 0; i < len(s); {
			j := indexFold(s[i:], n)
			if j < 0 {
				break
			}
			k := i + j + len(n)
			for _, suf := range keyedSuffixes {
				if len(s)-k >= len(suf) && asciiEqualFold(s[k:k+len(suf)], suf) {
					k += len(suf)
					break
				}
			}
			for k < len(s) && k-(i+j) < 40 {
				if k > 0 && s[k-1] == '\\' && (strings.HasPrefix(s[k:], "u0022") || strings.HasPrefix(s[k:], "u0027")) {
					k += 5
					continue
				}
				if strings.IndexByte("\\\"' ", s[k]) < 0 {
					break
				}
				k++
			}
			if k < len(s) && (s[k] == '=' || s[k] == ':' || s[k] == '%' && k+2 < len(s) && s[k+1] == '3' && strings.IndexByte("DdAa", s[k+2]) >= 0) {
				return true
			}
			i += j + 1
		}
	}
	return false
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

// containsFold reports whether s holds sub (lower-case ASCII) in any
// case.
func containsFold(s, sub string) bool { return indexFold(s, sub) >= 0 }

// indexFold is the index of sub (lower-case ASCII) in s in any case, or -1.
func indexFold(s, sub string) int {
	n := len(sub)
	if n == 0 {
		return 0
	}
	c0, c1 := sub[0], sub[0]
	if c0 >= 'a' && c0 <= 'z' {
		c1 = c0 - 'a' + 'A'
	}
	for i := 0; i+n <= len(s); i++ {
		if c := s[i]; c != c0 && c != c1 {
			j := strings.IndexByte(s[i+1:], c0)
			k := -1
			if c1 != c0 {
				k = strings.IndexByte(s[i+1:], c1)
			}
			if j < 0 || k >= 0 && k < j {
				j = k
			}
			if j < 0 {
				return -1
			}
			i += j // the loop adds the 1
			continue
		}
		if asciiEqualFold(s[i+1:i+n], sub[1:]) {
			return i
		}
	}
	return -1
}

// asciiEqualFold compares a with lower-case b, folding a's ASCII letters.
func asciiEqualFold(a, b string) bool {
	for i := 0; i < len(b); i++ {
		c := a[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != b[i] {
			return false
		}
	}
	return true
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

// keyQuote is a quote around a key or its value: ", ', backslashed, or
// \u0022 (JSON escaped again). keySep is = or :, or URL-encoded (%3D,
// %3A). notAmp is a %XX in a value that is not an encoded & (which ends
// a query's value).
const (
	keyQuote = `(?:\\*["']|\\+u0022|\\+u0027)?`
	keySep   = `(?:[=:]|%3[DdAa])`
	notAmp   = `%(?:[013-9A-Fa-f][0-9A-Fa-f]|2[0-57-9A-Fa-f])`
)

// keyWords name a secret's key: key=VALUE, "key": "VALUE", key: VALUE.
const keyWords = `(?:password|passwd|passphrase|pass|pwd|account[_-]?name|secret|token|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|key[_-]?id|` +
	`private[_-]?key|client[_-]?secret|credentials?|auth|identitytoken|registrytoken|account[_-]?key|sharedaccesskey|sig|key[_-]?data)`

// tokenRE are the provider tokens whose shape alone says what they are,
// after gitleaks' default rule set (github.com/gitleaks/gitleaks,
// config/gitleaks.toml, MIT licence: rules aws-access-token, github-pat,
// github-fine-grained-pat, github-oauth, github-app-token,
// github-refresh-token, gitlab-*, slack-*, gcp-api-key, stripe-access-token,
// anthropic-api-key, openai-api-key, npm-access-token, pypi-upload-token,
// sendgrid-api-token, digitalocean-*, vault-*-token, shopify-*,
// artifactory-api-key, twilio-api-key, alibaba-access-key-id,
// databricks-api-token), with their lengths lowered so that a cut token is
// masked too.
const tokenRE = `\b(?:(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{8,}|github_pat_[A-Za-z0-9_]{8,}|` +
	`gl(?:pat|ptt|dt|rt|cbt|imt|oas|ft|soat|agent)-[A-Za-z0-9_-]{8,}|xox[abposre]-[A-Za-z0-9-]{8,}|xapp-[0-9]-[A-Za-z0-9-]{8,}|` +
	`(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{12,}|AIza[A-Za-z0-9_-]{20,}|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{8,}|` +
	`sk-ant-[a-z]+[0-9]{2}-[A-Za-z0-9_-]{8,}|sk-proj-[A-Za-z0-9_-]{8,}|sk-[A-Za-z0-9]{16,}T3BlbkFJ[A-Za-z0-9]{8,}|` +
	`npm_[A-Za-z0-9]{16,}|pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{8,}|SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{8,}|` +
	`do[opr]_v1_[a-f0-9]{16,}|hv[sbr]\.[A-Za-z0-9_-]{16,}|shp(?:at|ca|pa|ss)_[a-fA-F0-9]{16,}|AKCp[A-Za-z0-9]{16,}|` +
	`SK[0-9a-fA-F]{32}|LTAI[A-Za-z0-9]{16,}|dapi[a-f0-9]{24,}|ya29\.[A-Za-z0-9_-]{16,})`

var tokenPrefixes = []string{"gh", "github_pat_", "gl", "xox", "xapp-", "A3T", "AKIA", "ASIA", "ABIA", "ACCA", "AIza",
	"_live_", "_test_", "sk-", "npm_", "pypi-", "SG.", "_v1_", "hvs.", "hvb.", "hvr.", "shp", "AKCp", "SK", "LTAI", "dapi", "ya29."}

func hasTokenPrefix(s string) bool {
	for _, p := range tokenPrefixes {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

var (
	rePrivKey  = regexp.MustCompile(`(?s)-----BEGIN[A-Z0-9 _-]{0,64}PRIVATE KEY(?: BLOCK)?-----(?:.*?-----END[A-Z0-9 _-]{0,64}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)`)
	reURLCreds = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://([^/\s@"'\\…]+)@`)
	reRefCreds = regexp.MustCompile(`(?:^|[\s"'=(\[,])([^\s/:@"'\\=(\[,]+:[^\s/@"'\\]+)@`)
	reOverride = regexp.MustCompile(`--hostname-override[= ]\\?"?([A-Za-z0-9][A-Za-z0-9.-]*)`)
	reAuth     = regexp.MustCompile(`(?i)\b(?:proxy-)?(?:authorization|x-auth-token|x-api-key|x-registry-auth|private-token|cookie|set-cookie)\\*["']?\s*[:=]\s*\\*["']?(?:(?:bearer|basic|token|digest)\s+)?([^\s"'\\,;…]+)`)
	reBearer   = regexp.MustCompile(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/-]{6,}=*)`)
	reJWT      = regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{6,}(?:\.[A-Za-z0-9_-]*){0,4}`)
	reToken    = regexp.MustCompile(tokenRE)
	reKeyed    = regexp.MustCompile(`(?i)` + keyWords + keyQuote + `\s*` + keySep + `\s*` + keyQuote + `((?:[^\s"'\\,;&(){}\[\]…%]|` + notAmp + `)+)`)
	reFlag     = regexp.MustCompile(`(?i)(?:^|\s)--?[a-z0-9-]*(?:password|passwd|pass|secret|token|api-key|access-key|key-id)(?:=|\s+)\\?["']?([^\s"'\\…]+)`)
	reEnv      = regexp.MustCompile(`\b[A-Z][A-Z0-9_]*[A-Z0-9]=("(?:[^"\\]|\\.)*"|[^\s"',;()\[\]{}…]+)`)
	reStructTo = regexp.MustCompile(`\bName:[A-Za-z_][A-Za-z0-9_.-]*,Value:([^}…\n]*?),ValueFrom:`)
	reJSONRev  = regexp.MustCompile(`(?i)\\*"value\\*":\s*\\*"((?:[^"\\\n]|\\[^"\\])+)\\*"`) // its name after it, or cut off
	reEmail    = regexp.MustCompile(`(?:^|[\s"'<(\[,;:=])([A-Za-z0-9][A-Za-z0-9._%+-]*)@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}\b`)
	reDialOne  = regexp.MustCompile(`(?i)\bdial (?:tcp|udp)[46]?:?\s+\\?"?([A-Za-z_](?:[A-Za-z0-9_-]*[A-Za-z0-9])?):[0-9]+`)
	reStruct   = regexp.MustCompile(`\bName:[A-Za-z_][A-Za-z0-9_.-]*,Value:([^,}…\n]+)`)
	reJSONEnv  = regexp.MustCompile(`(?i)\\*"name\\*":\s*\\*"[^"\\]+\\*",\s*\\*"value\\*":\s*\\*"((?:[^"\\\n]|\\[^"\\])+)\\*"`)
	reURLHost  = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://(?:[^/\s@"'\\]*@)?([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)`)
	reRegistry = regexp.MustCompile(`(?:^|[\s"'=(\[,@])((?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9])(?::[0-9]+)?/`)
	reLookup   = regexp.MustCompile(`(?i)\blookup\s+\\?"?([A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?)`)
	reDial     = regexp.MustCompile(`(?i)\b(?:resolve|resolving|dial (?:tcp|udp)[46]?:?|connect(?:ing)? to|host)\s+\\?"?([A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)+)`)
	reNoHost   = regexp.MustCompile(`([A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?)(?::[0-9]+)?:? (?:no such host|server misbehaving|Name or service not known|Temporary failure in name resolution)`)
	reFQDN     = regexp.MustCompile(`\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?i:com|net|org|io|dev|cloud|app|ai|co|us|uk|de|eu|fr|nl|ch|at|se|no|fi|dk|pl|es|it|be|jp|cn|in|br|au|ca|ru|info|biz|me|tech|online|site|xyz|example|test|invalid|gov|edu|mil|int|aws|azure|gcp|systems|services|network|company|corp|internal|local|localdomain|lan|home|intra|intranet|private|svc)\b`)
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
	return replaceGroup(s, reURLCreds, 1, func(v string, _ []int) (string, bool) {
		if IsMask(v) {
			return "", false
		}
		return r.mask(KindCred, v), true
	})
}

// privateKeys masks a PEM private key, from its BEGIN line to its END
// line or, when the text has no END, as far as its base64 goes.
func privateKeys(r *Redactor, s string) string {
	return replaceIdx(s, rePrivKey.FindAllStringIndex(s, -1), func(m string, _, _ int) (string, bool) {
		return r.mask(KindToken, m), true
	})
}

func providerTokens(r *Redactor, s string) string {
	return replaceIdx(s, reToken.FindAllStringIndex(s, -1), func(m string, _, end int) (string, bool) {
		return r.mask(KindToken, m), true
	})
}

func flagSecrets(r *Redactor, s string) string { return replaceGroup(s, reFlag, 1, tokenGroup(r)) }

// errorHosts masks the names a DNS or connection error gives (lookup
// NAME on …, dial tcp NAME:443, NAME: no such host), whatever their
// domain.
func errorHosts(r *Redactor, s string) string {
	if containsFold(s, "lookup") {
		s = replaceGroup(s, reLookup, 1, hostGroup(r))
	}
	if hasFold("resolv", "dial ", "connect", "host ")(s) {
		s = replaceGroup(s, reDial, 1, hostGroup(r))
	}
	if containsFold(s, "dial ") {
		s = replaceGroup(s, reDialOne, 1, hostGroup(r)) // a single-label name: dial tcp db:5432
	}
	if hasFold("no such host", "server misbehaving", "not known", "name resolution")(s) {
		s = replaceGroup(s, reNoHost, 1, hostGroup(r))
	}
	return s
}

// fqdns masks dotted names that end in a top-level domain, or in a
// private one (internal, local, corp, svc, …); file names (kubelet.go,
// config.yaml, entrypoint.sh) end in none of those listed.
func fqdns(r *Redactor, s string) string {
	return replaceIdx(s, reFQDN.FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
		if start > 0 && (s[start-1] == '.' || s[start-1] == '-' || s[start-1] == '/' && !(start > 1 && s[start-2] == '/')) {
			return "", false // a name's tail, or a path's
		}
		if end < len(s) && (s[end] == '-' || s[end] == '~' || s[end] == '.' && end+1 < len(s) && isWordByte(s[end+1])) {
			return "", false
		}
		return hostGroup(r)(m, nil)
	})
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
		if IsMask(v) || strings.HasPrefix(v, "&") || strings.EqualFold(v, "true") || strings.EqualFold(v, "false") {
			return "", false // (a flag's boolean: --anonymous-auth="true" names no secret)
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

// structEnv masks a Go struct's env value: up to ",ValueFrom:" when it
// follows (a value may hold commas), else up to the next comma.
func structEnv(r *Redactor, s string) string {
	s = replaceGroup(s, reStructTo, 1, valueGroup(r))
	return replaceGroup(s, reStruct, 1, valueGroup(r))
}

// jsonEnv masks an env value in JSON, its name before or after it (or
// cut off: any "value" string).
func jsonEnv(r *Redactor, s string) string {
	s = replaceGroup(s, reJSONEnv, 1, valueGroup(r))
	return replaceGroup(s, reJSONRev, 1, valueGroup(r))
}

// emails masks an email address's local part (its domain is a host's).
func emails(r *Redactor, s string) string {
	return replaceGroup(s, reEmail, 1, func(v string, _ []int) (string, bool) {
		if IsMask(v) || strings.HasPrefix(v, KindCred+"-") {
			return "", false
		}
		return r.mask(KindCred, v), true
	})
}

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
		if strings.Contains(v, ".") {
			r.local = append(r.local, v)
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
	// An IPv6 address has "::" or (at least) six colons.
	if !strings.Contains(s, "::") && strings.Count(s, ":") < 6 {
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

// Cut texts. The engine keeps the first bytes of a long text and ends it
// with "…"; a secret cut there no longer matches its rule, but its prefix
// is still a secret. cutTails masks what ends right before each "…": what
// a rule's start says is a secret (a Bearer header, a key=, a URL's
// authority, a NAME=, a PEM header) and, failing that, the last token when
// its shape is an address's, a dotted name's, a provider token's, a
// user:password's or a long mixed run's.
var tailRules = []struct {
	re   *regexp.Regexp
	kind string
}{
	{regexp.MustCompile(`(-----BEGIN[A-Z0-9 _-]*PRIVATE KEY[^"]*)$`), KindToken},
	{regexp.MustCompile(`(?i)\b(?:bearer|basic|digest|token)\s+([^\s"'\\]*)$`), KindToken},
	{regexp.MustCompile(`(?i)\b(?:authorization|cookie|x-api-key|x-auth-token|x-registry-auth|private-token)\\*["']?\s*[:=]\s*\\*["']?([^\s"'\\]*)$`), KindToken},
	{regexp.MustCompile(`(?i)` + keyWords + keyQuote + `\s*` + keySep + `\s*` + keyQuote + `((?:[^\s"'\\,;&(){}\[\]%]|` + notAmp + `|%[0-9A-Fa-f]?)*)$`), KindToken},
	{regexp.MustCompile(`(?i)\bdial (?:tcp|udp)[46]?:?\s+\\?"?([A-Za-z_][A-Za-z0-9_-]*)(?::[0-9]*)?$`), KindHost},
	{regexp.MustCompile(`(?i)(?:^|\s)--?[a-z0-9-]*(?:password|passwd|pass|secret|token|api-key|access-key|key-id)(?:=|\s+)\\?["']?([^\s"'\\]*)$`), KindToken},
	{regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://([^/\s"'\\]*)$`), KindCred},
	{regexp.MustCompile(`\b[A-Z][A-Z0-9_]*[A-Z0-9]=\\?"?([^\s"\\]*)$`), KindValue},
	{regexp.MustCompile(`(?i)\\*"value\\*":\s*\\*"([^"\\]*)$`), KindValue},
	{regexp.MustCompile(`\bValue:([^}]*)$`), KindValue},
	{regexp.MustCompile(`\b(ip-[0-9][0-9-]*)$`), KindHost},
}

var reMaskEnd = regexp.MustCompile(`(?:ip|host|token|cred|value)-[0-9a-f]{16}(?:[0-9a-f]{8})?$`)

var (
	reTailToken = regexp.MustCompile(`([^\s"'\\=(\[,<>{}]*)$`)
	reTailIPv4  = regexp.MustCompile(`^[0-9]{1,3}\.[0-9]{1,3}\.[0-9.]*$`)
	reTailIPv6  = regexp.MustCompile(`^\[?[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){1,7}[0-9A-Fa-f.%]*$`)
	reTailCred  = regexp.MustCompile(`^[^:/@]+:([^/@]+)$`)
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
	if reMaskEnd.MatchString(p) {
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
		m := t.re.FindStringSubmatchIndex(p)
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
	m := reTailToken.FindStringIndex(p)
	if m == nil {
		return p
	}
	v := p[m[0]:]
	if len(v) < 4 || reMaskIn.MatchString(v) {
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
	case reTailIPv4.MatchString(v) && strings.Count(v, ".") >= 2, reTailIPv6.MatchString(v) && len(strings.Trim(v, "[")) >= 6:
		return KindIP
	}
	if m := reTailCred.FindStringSubmatch(v); m != nil && len(m[1]) >= 3 && strings.ContainsAny(m[1], "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
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
