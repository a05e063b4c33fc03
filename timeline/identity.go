package timeline

import (
	"strings"

	"github.com/podflow/podflow/parser"
)

// refFromValue reads a pod reference in any rendering klog has used:
// "ns/name" (KObj in text), {"name":…,"namespace":…} (KObj in JSON), or the
// ≤1.20 printf form name_ns(uid).
func refFromValue(v parser.Value) (PodRef, bool) {
	switch v.Kind {
	case parser.KindObject:
		var r PodRef
		if n, ok := v.Get("name"); ok {
			r.Name = n.Str
		}
		if ns, ok := v.Get("namespace"); ok {
			r.Namespace = ns.Str
		}
		return r, r.Name != ""
	case parser.KindString, parser.KindBare:
		return refFromString(v.Str)
	}
	return PodRef{}, false
}

func refFromString(s string) (PodRef, bool) {
	s = strings.TrimSpace(s)
	if s == "" || s == "<nil>" {
		return PodRef{}, false
	}
	if r, ok := legacyRef(s); ok {
		return r, true
	}
	if i := strings.IndexByte(s, '/'); i > 0 && i < len(s)-1 && strings.IndexByte(s[i+1:], '/') < 0 && strings.IndexByte(s, ' ') < 0 && strings.IndexByte(s, '"') < 0 {
		return PodRef{Namespace: s[:i], Name: s[i+1:]}, true
	}
	return PodRef{}, false
}

// legacyRef parses format.Pod's name_namespace(uid). DNS-1123 names and
// namespaces have no '_', so the first '_' splits them.
func legacyRef(s string) (PodRef, bool) {
	open := strings.IndexByte(s, '(')
	if open < 0 || !strings.HasSuffix(s, ")") {
		return PodRef{}, false
	}
	nn := s[:open]
	us := strings.IndexByte(nn, '_')
	if us <= 0 || us == len(nn)-1 {
		return PodRef{}, false
	}
	return PodRef{Name: nn[:us], Namespace: nn[us+1:], UID: s[open+1 : len(s)-1]}, true
}

// refsFromList reads the pods=… of SyncLoop lines: ["ns/a","ns/b"],
// "[ns/a ns/b]", [ns/a ns/b], [{"name":…}], or a printf list.
func refsFromList(v parser.Value) []PodRef {
	var out []PodRef
	switch v.Kind {
	case parser.KindList:
		for _, e := range v.List {
			if r, ok := refFromValue(e); ok {
				out = append(out, r)
			}
		}
	case parser.KindString, parser.KindBare:
		s := strings.TrimSpace(v.Str)
		s = strings.TrimPrefix(s, "[")
		s = strings.TrimSuffix(s, "]")
		for _, f := range strings.Fields(s) {
			if r, ok := refFromString(strings.Trim(f, ",")); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// legacyRefs finds every name_ns(uid) in a ≤1.20 printf message, e.g.
// SyncLoop (ADD, "api"): "a_ns(uid1), b_ns(uid2)".
func legacyRefs(msg string) []PodRef {
	var out []PodRef
	rest := msg
	for {
		close := strings.IndexByte(rest, ')')
		if close < 0 {
			return out
		}
		open := strings.LastIndexByte(rest[:close], '(')
		if open < 0 {
			rest = rest[close+1:]
			continue
		}
		start := open
		for start > 0 && isRefByte(rest[start-1]) {
			start--
		}
		if r, ok := legacyRef(rest[start : close+1]); ok && looksLikeUID(r.UID) {
			out = append(out, r)
		}
		rest = rest[close+1:]
	}
}

func isRefByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_'
}

// looksLikeUID accepts RFC-4122 UIDs and the 32-hex config hashes of static pods.
func looksLikeUID(s string) bool {
	if len(s) != 36 && len(s) != 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c == '-') {
			return false
		}
	}
	return true
}

// isStaticUID reports a static pod's config-hash UID (32 hex, no dashes).
func isStaticUID(s string) bool { return len(s) == 32 && looksLikeUID(s) }

// stripRuntime drops "containerd://" and the like from a container ID.
func stripRuntime(id string) string {
	if _, rest, ok := strings.Cut(id, "://"); ok {
		return rest
	}
	return id
}

// containerFromFieldPath reads spec.containers{nginx} and friends.
func containerFromFieldPath(fp string) (name, typ string, ok bool) {
	open := strings.IndexByte(fp, '{')
	if open < 0 || !strings.HasSuffix(fp, "}") {
		return "", "", false
	}
	name = fp[open+1 : len(fp)-1]
	switch fp[:open] {
	case "spec.initContainers":
		typ = ContainerInit
	case "spec.ephemeralContainers":
		typ = ContainerEphemeral
	default:
		typ = ContainerRegular
	}
	return name, typ, name != ""
}

// containerName reads the container key of "Creating container in pod":
// the name (newest), or the whole &Container{Name:…,…} (1.21–1.28), or a
// JSON object.
func containerName(v parser.Value) string {
	if v.Kind == parser.KindObject {
		if n, ok := v.Get("name"); ok {
			return n.Str
		}
		if n, ok := v.Get("Name"); ok {
			return n.Str
		}
		return ""
	}
	s := v.Str
	if strings.HasPrefix(s, "&Container{") {
		s = strings.TrimPrefix(s, "&Container{Name:")
		if i := strings.IndexByte(s, ','); i >= 0 {
			return s[:i]
		}
		return ""
	}
	return s
}

func containerTypeFrom(s string) string {
	switch s {
	case "init container":
		return ContainerInit
	case "ephemeral container":
		return ContainerEphemeral
	}
	return ContainerRegular
}

// syncFailure is one `failed to "Action" for "target" with Reason: "msg"`
// part of an aggregated sync error.
type syncFailure struct {
	action, target, reason, message string
}

// parseSyncError splits the kubelet's aggregated sync error
// (container/sync_result.go) into its parts; several are joined as [a, b].
func parseSyncError(err string) []syncFailure {
	var out []syncFailure
	rest := err
	for {
		i := strings.Index(rest, `failed to "`)
		if i < 0 {
			return out
		}
		rest = rest[i+len(`failed to "`):]
		var f syncFailure
		j := strings.IndexByte(rest, '"')
		if j < 0 {
			return out
		}
		f.action = rest[:j]
		rest = rest[j+1:]
		if !strings.HasPrefix(rest, ` for "`) {
			continue
		}
		rest = rest[len(` for "`):]
		j = strings.IndexByte(rest, '"')
		if j < 0 {
			return out
		}
		f.target = rest[:j]
		rest = rest[j+1:]
		if !strings.HasPrefix(rest, " with ") {
			continue
		}
		rest = rest[len(" with "):]
		j = strings.Index(rest, ": ")
		if j < 0 {
			f.reason = rest
			out = append(out, f)
			return out
		}
		f.reason = rest[:j]
		rest = rest[j+2:]
		// The message is Go-quoted; it ends at the next unescaped quote.
		if strings.HasPrefix(rest, `"`) {
			end := 1
			for end < len(rest) {
				if rest[end] == '\\' {
					end += 2
					continue
				}
				if rest[end] == '"' {
					break
				}
				end++
			}
			if end > len(rest) {
				end = len(rest)
			}
			f.message = unescapeGo(rest[1:min(end, len(rest))])
			if end < len(rest) {
				rest = rest[end+1:]
			} else {
				rest = ""
			}
		} else {
			f.message = rest
			rest = ""
		}
		out = append(out, f)
	}
}

func unescapeGo(s string) string {
	if !strings.ContainsRune(s, '\\') {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
