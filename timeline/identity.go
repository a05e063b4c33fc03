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
		if v.Obj != nil {
			// legacyEvent's involved object (KObj has no UID: a JSON
			// object, decoded on demand, is not searched for one).
			if u, ok := v.Get("uid"); ok && looksLikeUID(u.Str) {
				r.UID = u.Str
			}
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
	// cut: the line ends inside the target, its closing quote lost (a
	// terminal's or a pager's cut): the target is what is left of it.
	cut bool
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
			// Cut in the target: what is left still names the step, and
			// perhaps the pod (resolvePartial finds the one it fits).
			f.target, f.cut = rest, true
			return append(out, f)
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

// partialRef is a pod reference that names less than a whole pod: a name
// without its namespace ("Killing unwanted pod %q" logs runningPod.Name
// alone), or a text cut short (a line cut at the terminal's width or by a
// pager's '>'), where the name or the namespace ends where the text does.
// It finds a known pod only when one alone fits (resolvePartial), and only
// a whole name starts one: two pods whose names were cut to one prefix
// never merge.
type partialRef struct {
	PodRef
	nameCut, nsCut bool
}

// fits reports whether a known pod's reference is one p may stand for.
func (p *partialRef) fits(r PodRef) bool {
	if p.nameCut && !strings.HasPrefix(r.Name, p.Name) || !p.nameCut && r.Name != p.Name {
		return false
	}
	switch {
	case r.Namespace == "", p.Namespace == "" && !p.nameCut:
		return true
	case p.nsCut:
		return strings.HasPrefix(r.Namespace, p.Namespace)
	}
	return r.Namespace == p.Namespace
}

// partialFromText reads the text a printf line quotes as its pod, closed
// when its closing quote was seen: format.Pod's name_ns(uid), ≤1.1's
// podFullName name_ns, a bare name, or KObj's ns/name; unclosed, the part
// the text ends in is cut. Pagers mark a cut line with '>' or '…'.
func partialFromText(s string, closed bool) (partialRef, bool) {
	var p partialRef
	if !closed {
		s = strings.TrimRight(s, " \t")
		s = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, ">"), "…"), "...")
	} else if r, ok := legacyRef(s); ok {
		p.PodRef = r
		return p, validName(r.Name) && validName(r.Namespace)
	}
	if i := strings.IndexByte(s, '('); i >= 0 {
		if closed {
			return p, false
		}
		s = s[:i] // name_ns(uid cut in the UID: name and namespace are whole
	} else if !closed {
		p.nameCut = true
	}
	if i := strings.IndexByte(s, '_'); i >= 0 {
		p.Name, p.Namespace, p.nsCut, p.nameCut = s[:i], s[i+1:], p.nameCut, false
	} else if i := strings.IndexByte(s, '/'); i >= 0 {
		p.Namespace, p.Name = s[:i], s[i+1:]
	} else {
		p.Name = s
	}
	if p.nsCut && p.Namespace == "" {
		p.nsCut = false // cut at the '_': the namespace is unknown
	}
	return p, validName(p.Name) && p.Name != "" && validName(p.Namespace)
}

// validName reports whether s may be (a part of) a DNS-1123 name.
func validName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// quotedPodRef reads the pod a ≤1.20 printf message names as pod %q other
// than as name_ns(uid) (legacyRefs'): "Failed to create pod infra
// container: …; Skipping pod %q" with ≤1.1's name_ns, "Killing unwanted
// pod %q" with the name alone, "Error running pod %q container %q", or
// any of them cut short.
func quotedPodRef(msg string) (partialRef, bool) {
	for rest := msg; ; {
		i := strings.Index(rest, `pod "`)
		if i < 0 {
			return partialRef{}, false
		}
		rest = rest[i+len(`pod "`):]
		end := strings.IndexByte(rest, '"')
		text := rest
		if end >= 0 {
			text = rest[:end]
		}
		if p, ok := partialFromText(text, end >= 0); ok {
			return p, true
		}
	}
}

// uidAfterPod reads the bare UID of "Error syncing pod %v, skipping" and
// "Error syncing pod %v (%q), skipping" (pod_workers.go ≤1.20: pod.UID):
// a pod named by its UID alone, whose name another line may tell; also
// quoted, as kubelet_volumes.go names an orphaned pod (`Orphaned pod %q
// found`, `… volumes dir from pod %q at %s`).
func uidAfterPod(msg string) string {
	for rest := msg; ; {
		i := strings.Index(rest, "pod ")
		if i < 0 {
			return ""
		}
		rest = rest[i+len("pod "):]
		for _, n := range [2]int{36, 32} {
			if len(rest) >= n && looksLikeUID(rest[:n]) && (len(rest) == n || rest[n] == ' ' || rest[n] == ',' || rest[n] == ':') {
				return rest[:n]
			}
			if len(rest) > n+1 && rest[0] == '"' && rest[n+1] == '"' && looksLikeUID(rest[1:n+1]) {
				return rest[1 : n+1]
			}
		}
	}
}

// runtimeIDIn reads the first container ID a printf message writes as
// ContainerID.String(), "docker://<id>" (≤1.20 kill lines name nothing else).
func runtimeIDIn(msg string) string {
	i := strings.Index(msg, "://")
	if i <= 0 || !(msg[i-1] >= 'a' && msg[i-1] <= 'z') {
		return ""
	}
	rest := msg[i+3:]
	n := 0
	for n < len(rest) && (rest[n] >= '0' && rest[n] <= '9' || rest[n] >= 'a' && rest[n] <= 'f') {
		n++
	}
	if n < 12 {
		return ""
	}
	return rest[:n]
}

// infraContainer reports whether a container name is the sandbox's: the
// dockertools manager (docker_manager.go, ≤1.5) ran the sandbox as a
// container named "POD" (PodInfraContainerName), and its failures read
// `failed to "StartContainer" for "POD"` and "Back-off pulling image" of
// the pause image. They are the sandbox's, not an application container's.
func infraContainer(name string) bool { return name == "POD" }

// legacyContainer reads the container a printf line names: `container
// %q` (≤1.0 "Error running pod %q container %q") or the prober's
// "name_ns(uid):container" (≤1.20 "Liveness probe for %q failed").
func legacyContainer(msg string) string {
	if _, rest, ok := strings.Cut(msg, `"`); ok {
		if q, _, ok := strings.Cut(rest, `"`); ok {
			if _, name, ok := strings.Cut(q, "):"); ok && name != "" && validName(name) {
				return name
			}
		}
	}
	if _, rest, ok := strings.Cut(msg, `container "`); ok {
		if name, _, ok := strings.Cut(rest, `"`); ok && name != "" && validName(name) {
			return name
		}
	}
	return ""
}

// legacyEvent reads an event as the event broadcaster's StartLogging wrote
// it before "Event occurred" (client-go record/event.go ≤1.18, kubelet
// server.go logging at -v=3): Event(%#v): type: '%v' reason: '%v' %v, the
// involved object an api. or v1.ObjectReference{Kind:"Pod", Namespace:…,
// Name:…, UID:…, FieldPath:…}; before 1.2 without the type, and the
// reasons in lower case ("created", "pulled", "failed", "backoff":
// pkg/kubelet/container/event.go). It returns the fields of the
// structured form: object (name, namespace and uid), kind, type, reason,
// message and fieldPath.
func legacyEvent(msg string) ([]parser.Field, bool) {
	_, rest, ok := strings.Cut(msg, "ObjectReference{")
	if !ok {
		return nil, false
	}
	head, text, ok := strings.Cut(rest, "}): ")
	if !ok {
		return nil, false
	}
	if strings.IndexByte(head, '\n') >= 0 {
		head = strings.ReplaceAll(head, "\n", "") // a hard-wrapped paste
	}
	get := func(key string) string {
		for h := head; ; {
			i := strings.Index(h, key+`:"`)
			if i < 0 {
				return ""
			}
			if i > 0 && h[i-1] != ' ' && h[i-1] != '{' && h[i-1] != ',' {
				h = h[i+len(key):] // Name inside Namespace
				continue
			}
			v, _, _ := strings.Cut(h[i+len(key)+2:], `"`)
			return v
		}
	}
	quoted := func(key string) (string, bool) {
		if !strings.HasPrefix(text, key+": '") {
			return "", false
		}
		v, after, ok := strings.Cut(text[len(key)+3:], "' ")
		if !ok {
			v, ok = strings.CutSuffix(text[len(key)+3:], "'")
			after = ""
		}
		text = after
		return v, ok
	}
	typ, _ := quoted("type")
	reason, ok := quoted("reason")
	if !ok {
		return nil, false
	}
	switch {
	case reason == "backoff":
		reason = "BackOff"
	case reason != "" && reason[0] >= 'a' && reason[0] <= 'z':
		reason = string(reason[0]-'a'+'A') + reason[1:]
	}
	str := func(k, v string) parser.Field {
		return parser.Field{Key: k, Value: parser.Value{Kind: parser.KindString, Str: v}}
	}
	obj := parser.Value{Kind: parser.KindObject, Obj: []parser.Field{str("name", get("Name")), str("namespace", get("Namespace")), str("uid", get("UID"))}}
	return []parser.Field{{Key: "object", Value: obj}, str("kind", get("Kind")), str("type", typ), str("reason", reason),
		str("message", text), str("fieldPath", get("FieldPath"))}, true
}
