package redact

import (
	"net/netip"
	"strings"
)

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
	rePrivKey  = lazyRE(`(?s)-----BEGIN[A-Z0-9 _-]{0,64}PRIVATE KEY(?: BLOCK)?-----(?:.*?-----END[A-Z0-9 _-]{0,64}PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\]*)`)
	reURLCreds = lazyRE(`[A-Za-z][A-Za-z0-9+.-]*://([^/\s@"'\\…]+)@`)
	reRefCreds = lazyRE(`(?:^|[\s"'=(\[,])([^\s/:@"'\\=(\[,]+:[^\s/@"'\\]+)@`)
	reOverride = lazyRE(`--hostname-override[= ]\\?"?([A-Za-z0-9][A-Za-z0-9.-]*)`)
	reAuth     = lazyRE(`(?i)\b(?:proxy-)?(?:authorization|x-auth-token|x-api-key|x-registry-auth|private-token|cookie|set-cookie)\\*["']?\s*[:=]\s*\\*["']?(?:(?:bearer|basic|token|digest)\s+)?([^\s"'\\,;…]+)`)
	reBearer   = lazyRE(`(?i)\b(?:bearer|basic)\s+([A-Za-z0-9._~+/-]{6,}=*)`)
	reJWT      = lazyRE(`\beyJ[A-Za-z0-9_-]{6,}(?:\.[A-Za-z0-9_-]*){0,4}`)
	reToken    = lazyRE(tokenRE)
	reKeyed    = lazyRE(`(?i)` + keyWords + keyQuote + `\s*` + keySep + `\s*` + keyQuote + `((?:[^\s"'\\,;&(){}\[\]…%]|` + notAmp + `)+)`)
	reFlag     = lazyRE(`(?i)(?:^|\s)--?[a-z0-9-]*(?:password|passwd|pass|secret|token|api-key|access-key|key-id)(?:=|\s+)\\?["']?([^\s"'\\…]+)`)
	reEnv      = lazyRE(`\b[A-Z][A-Z0-9_]*[A-Z0-9]=("(?:[^"\\]|\\.)*"|[^\s"',;()\[\]{}…]+)`)
	reStructTo = lazyRE(`\bName:[A-Za-z_][A-Za-z0-9_.-]*,Value:([^}…\n]*?),ValueFrom:`)
	reJSONRev  = lazyRE(`(?i)\\*"value\\*":\s*\\*"((?:[^"\\\n]|\\[^"\\])+)\\*"`) // its name after it, or cut off
	reEmail    = lazyRE(`(?:^|[\s"'<(\[,;:=])([A-Za-z0-9][A-Za-z0-9._%+-]*)@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}\b`)
	reDialOne  = lazyRE(`(?i)\bdial (?:tcp|udp)[46]?:?\s+\\?"?([A-Za-z_](?:[A-Za-z0-9_-]*[A-Za-z0-9])?):[0-9]+`)
	reStruct   = lazyRE(`\bName:[A-Za-z_][A-Za-z0-9_.-]*,Value:([^,}…\n]+)`)
	reJSONEnv  = lazyRE(`(?i)\\*"name\\*":\s*\\*"[^"\\]+\\*",\s*\\*"value\\*":\s*\\*"((?:[^"\\\n]|\\[^"\\])+)\\*"`)
	reURLHost  = lazyRE(`[A-Za-z][A-Za-z0-9+.-]*://(?:[^/\s@"'\\]*@)?([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)`)
	reRegistry = lazyRE(`(?:^|[\s"'=(\[,@])((?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z][A-Za-z0-9-]*[A-Za-z0-9])(?::[0-9]+)?/`)
	reLookup   = lazyRE(`(?i)\blookup\s+\\?"?([A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?)`)
	reDial     = lazyRE(`(?i)\b(?:resolve|resolving|dial (?:tcp|udp)[46]?:?|connect(?:ing)? to|host)\s+\\?"?([A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]*[A-Za-z0-9])?)+)`)
	reNoHost   = lazyRE(`([A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?)(?::[0-9]+)?:? (?:no such host|server misbehaving|Name or service not known|Temporary failure in name resolution)`)
	reFQDN     = lazyRE(`\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+(?i:com|net|org|io|dev|cloud|app|ai|co|us|uk|de|eu|fr|nl|ch|at|se|no|fi|dk|pl|es|it|be|jp|cn|in|br|au|ca|ru|info|biz|me|tech|online|site|xyz|example|test|invalid|gov|edu|mil|int|aws|azure|gcp|systems|services|network|company|corp|internal|local|localdomain|lan|home|intra|intranet|private|svc)\b`)
	reInternal = lazyRE(`(?i)\b(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+(?:internal|local|localdomain|lan|corp|home|intra|intranet|private|svc)\b`)
	reCloud    = lazyRE(`\bip-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}(?:\.[A-Za-z0-9-]+)*`)
	reIPv6     = lazyRE(`[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?:\.[0-9]{1,3}){0,3}`)
	reIPv4     = lazyRE(`[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}`)
	reHex      = lazyRE(`[0-9A-Fa-f]{32,}`)
	reBase64   = lazyRE(`[A-Za-z0-9+/_-]{32,}={0,2}`)
)

// hostnameOverride learns the node name from the kubelet's flag, which
// the log prints before anything names the node.
func hostnameOverride(r *Redactor, s string) string {
	return replaceGroup(s, reOverride(), 1, func(v string, _ []int) (string, bool) {
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
	return replaceGroup(s, reURLCreds(), 1, func(v string, _ []int) (string, bool) {
		if IsMask(v) {
			return "", false
		}
		return r.mask(KindCred, v), true
	})
}

// privateKeys masks a PEM private key, from its BEGIN line to its END
// line or, when the text has no END, as far as its base64 goes.
func privateKeys(r *Redactor, s string) string {
	return replaceIdx(s, rePrivKey().FindAllStringIndex(s, -1), func(m string, _, _ int) (string, bool) {
		return r.mask(KindToken, m), true
	})
}

func providerTokens(r *Redactor, s string) string {
	return replaceIdx(s, reToken().FindAllStringIndex(s, -1), func(m string, _, end int) (string, bool) {
		return r.mask(KindToken, m), true
	})
}

func flagSecrets(r *Redactor, s string) string { return replaceGroup(s, reFlag(), 1, tokenGroup(r)) }

// errorHosts masks the names a DNS or connection error gives (lookup
// NAME on …, dial tcp NAME:443, NAME: no such host), whatever their
// domain.
func errorHosts(r *Redactor, s string) string {
	if containsFold(s, "lookup") {
		s = replaceGroup(s, reLookup(), 1, hostGroup(r))
	}
	if hasFold("resolv", "dial ", "connect", "host ")(s) {
		s = replaceGroup(s, reDial(), 1, hostGroup(r))
	}
	if containsFold(s, "dial ") {
		s = replaceGroup(s, reDialOne(), 1, hostGroup(r)) // a single-label name: dial tcp db:5432
	}
	if hasFold("no such host", "server misbehaving", "not known", "name resolution")(s) {
		s = replaceGroup(s, reNoHost(), 1, hostGroup(r))
	}
	return s
}

// fqdns masks dotted names that end in a top-level domain, or in a
// private one (internal, local, corp, svc, …); file names (kubelet.go,
// config.yaml, entrypoint.sh) end in none of those listed.
func fqdns(r *Redactor, s string) string {
	return replaceIdx(s, reFQDN().FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
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
	return replaceGroup(s, reRefCreds(), 1, func(v string, _ []int) (string, bool) {
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

func authHeaders(r *Redactor, s string) string { return replaceGroup(s, reAuth(), 1, tokenGroup(r)) }
func bearer(r *Redactor, s string) string      { return replaceGroup(s, reBearer(), 1, tokenGroup(r)) }
func keyedSecrets(r *Redactor, s string) string {
	return replaceGroup(s, reKeyed(), 1, tokenGroup(r))
}

func jwt(r *Redactor, s string) string {
	return replaceIdx(s, reJWT().FindAllStringIndex(s, -1), func(m string, _, _ int) (string, bool) {
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

func envValues(r *Redactor, s string) string { return replaceGroup(s, reEnv(), 1, valueGroup(r)) }

// structEnv masks a Go struct's env value: up to ",ValueFrom:" when it
// follows (a value may hold commas), else up to the next comma.
func structEnv(r *Redactor, s string) string {
	s = replaceGroup(s, reStructTo(), 1, valueGroup(r))
	return replaceGroup(s, reStruct(), 1, valueGroup(r))
}

// jsonEnv masks an env value in JSON, its name before or after it (or
// cut off: any "value" string).
func jsonEnv(r *Redactor, s string) string {
	s = replaceGroup(s, reJSONEnv(), 1, valueGroup(r))
	return replaceGroup(s, reJSONRev(), 1, valueGroup(r))
}

// emails masks an email address's local part (its domain is a host's).
func emails(r *Redactor, s string) string {
	return replaceGroup(s, reEmail(), 1, func(v string, _ []int) (string, bool) {
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
		if reIPv4().MatchString(v) && strings.Trim(v, "0123456789.") == "" {
			return "", false
		}
		if strings.Contains(v, ".") {
			r.local = append(r.local, v)
		}
		return r.mask(KindHost, v), true
	}
}

func urlHosts(r *Redactor, s string) string { return replaceGroup(s, reURLHost(), 1, hostGroup(r)) }
func registryHosts(r *Redactor, s string) string {
	return replaceGroup(s, reRegistry(), 1, hostGroup(r))
}

func internalHosts(r *Redactor, s string) string {
	return replaceIdx(s, reInternal().FindAllStringIndex(s, -1), func(m string, _, end int) (string, bool) {
		// The suffix must end the name: registry.corp.example is not .corp.
		if end < len(s) && (s[end] == '-' || s[end] == '.' && end+1 < len(s) && isWordByte(s[end+1])) {
			return "", false
		}
		return hostGroup(r)(m, nil)
	})
}

func cloudHosts(r *Redactor, s string) string {
	return replaceIdx(s, reCloud().FindAllStringIndex(s, -1), func(m string, _, _ int) (string, bool) {
		return r.mask(KindHost, m), true
	})
}

func ipv6(r *Redactor, s string) string {
	// An IPv6 address has "::" or (at least) six colons.
	if !strings.Contains(s, "::") && strings.Count(s, ":") < 6 {
		return s
	}
	return replaceIdx(s, reIPv6().FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
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
	return replaceIdx(s, reIPv4().FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
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
	return replaceIdx(s, reHex().FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
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
	return replaceIdx(s, reBase64().FindAllStringIndex(s, -1), func(m string, start, end int) (string, bool) {
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
