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
	"regexp"
	"sort"
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

var maskShape = lazyRE(`^(?:ip|host|token|cred|value)-[0-9a-f]{16}(?:[0-9a-f]{8})?$`)

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
	return reMaskIn().ReplaceAllStringFunc(s, func(m string) string {
		if v, ok := r.values[m]; ok {
			return v
		}
		return m
	})
}

// reMaskAny() finds masks glued to what stands before them (\u0022token-…).
var reMaskAny = lazyRE(`(?:ip|host|token|cred|value)-[0-9a-f]{16}(?:[0-9a-f]{8})?`)

var reMaskIn = lazyRE(`\b(?:ip|host|token|cred|value)-[0-9a-f]{16}(?:[0-9a-f]{8})?\b`)

// IsMask reports whether s is a mask this package gives.
func IsMask(s string) bool { return maskShape().MatchString(s) }

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
	for _, m := range reMaskAny().FindAllString(masked, -1) {
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
