package timeline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podflow/podflow/parser"
)

// Pull failures that name only the image. The kubelet's image service
// client logs a failed pull with the image and the error, no pod:
// remote_image.go `"PullImage from image service failed" err=… image=…`
// (≤1.20 printf `PullImage "<image>" from image service failed: <err>`),
// kuberuntime_image.go `Pull image "<image>" failed: <err>` (≤1.20), and
// dockershim's progress reporter (kube_docker_client.go) `Pulling image
// "<image>": "<progress>"`, `Stop pulling image …` and `Cancel pulling
// image "<image>" because of no progress …`; the runtime's own
// `PullImage "<image>" failed` (containerd) names only the image too.
//
// A failure is held per node and image until a line links that image to a
// container of a pod on the node (a Pulling, Failed or BackOff event, a
// status patch's image, a sync error's &Container{…,Image:…}); it then
// becomes an image-stage failure of that container, whether the link came
// before or after it. Failures no line links are unattributed at Finish.

// maxPendingImages and maxPendingFails bound what a node holds: past
// them a failure is unattributed at once.
const (
	maxPendingImages = 64
	maxPendingFails  = 16
)

// pendingPull is a pull failure not yet linked to a container: a copy of
// its record with the builder's own texts (not the line's).
type pendingPull struct {
	rec    parser.Record
	reason string
}

// nodeImages is what a node holds of images (Builder.images).
type nodeImages struct {
	// pending are the failures per image no line linked yet, the images
	// in the order their first failure came.
	pending map[string][]pendingPull
	order   []string
	// users are the containers by image (the builder's copy).
	users map[string][]imageUser
}

// imagesOf is n's nodeImages, made on first use.
func (b *Builder) imagesOf(n *nodeState) *nodeImages {
	m := b.images[n]
	if m == nil {
		if b.images == nil {
			b.images = map[*nodeState]*nodeImages{}
		}
		m = &nodeImages{}
		b.images[n] = m
	}
	return m
}

// imageUser is a container of a pod on the node whose image is known.
type imageUser struct {
	f *flowState
	c *containerState
}

// imagePullLine reads a kubelet (or runtime) line that names only the
// image being pulled.
func (b *Builder) imagePullLine(n *nodeState, rec *parser.Record) {
	msg := rec.Msg
	img, reason := rec.Str("image"), rec.Err
	if img == "" {
		img = firstQuoted(msg)
	}
	fail := strings.Contains(msg, "failed") || strings.HasPrefix(msg, "Cancel pulling") || rec.Severity >= parser.SeverityError && reason != ""
	switch {
	case !fail && !strings.Contains(msg, "\": \""):
		return // "Pulling image %q without credentials": the pull begins
	case fail && reason == "":
		if _, after, ok := strings.Cut(msg, "failed: "); ok {
			reason = after
		} else if _, after, ok := strings.Cut(msg, "because of "); ok {
			reason = after // "Cancel pulling image %q because of no progress for …"
		}
	}
	if img == "" {
		b.unattributedLine(rec)
		return
	}
	users := b.imageUsers(n, img)
	if len(users) > 0 {
		for _, u := range users {
			if fail {
				b.containerEffect(u.f, u.c, CStImage, Fail, rec, reason)
			} else {
				b.touch(u.f, rec)
				if _, progress, ok := strings.Cut(msg, "\": \""); ok && strings.HasPrefix(msg, "Pulling image") {
					// dockershim's `Pulling image "<image>": "<progress>"`.
					u.f.pullNote = &pullNote{image: b.texts.Text(u.c.image), runtime: "dockershim", text: strings.Clone(strings.TrimSuffix(progress, "\"")), at: rec.Time}
				}
				if s := u.c.stages.get(CStImage); s != nil && len(s.evidence) < maxEvidence {
					b.addEvidence(s, b.stageEvidence(rec))
				}
			}
		}
		return
	}
	if !fail {
		b.unattributedLine(rec)
		return
	}
	b.holdPull(n, img, rec, reason)
}

// imageUsers are the containers on n a failure of img belongs to: those
// pulling it (a Pulling event, no Pulled yet), else those with the image
// not yet pulled.
func (b *Builder) imageUsers(n *nodeState, img string) []imageUser {
	all := b.images[n].usersOf(img)
	var out []imageUser
	for _, u := range all {
		if !u.c.pullOpen.IsZero() {
			out = append(out, u)
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, u := range all {
		if s := u.c.stages.get(CStCreated); s != nil && !s.complete.IsZero() {
			continue // its image was there
		}
		if s := u.c.stages.get(CStImage); s == nil || s.complete.IsZero() {
			out = append(out, u)
		}
	}
	return out
}

// holdPull keeps a failure of img on n until a line links the image.
func (b *Builder) holdPull(n *nodeState, img string, rec *parser.Record, reason string) {
	m := b.imagesOf(n)
	p := m.pending[img]
	if (p == nil && len(m.pending) >= maxPendingImages) || len(p) >= maxPendingFails {
		b.unattributedLine(rec)
		return
	}
	if m.pending == nil {
		m.pending = map[string][]pendingPull{}
	}
	img = strings.Clone(img)
	if p == nil {
		m.order = append(m.order, img)
	}
	m.pending[img] = append(p, pendingPull{
		rec: parser.Record{Time: rec.Time, Severity: rec.Severity, Msg: b.texts.Intern(rec.Msg), Err: b.texts.Intern(rec.Err),
			Host: rec.Host, Component: rec.Component, Format: rec.Format, Pos: rec.Pos, Truncated: rec.Truncated},
		reason: b.texts.Intern(reason),
	})
}

// linkImage records that c, of f on n, runs its image (c.image just set),
// and makes the failures of that image held on n its image-stage
// failures.
func (b *Builder) linkImage(n *nodeState, f *flowState, c *containerState) {
	if n == nil || c.image == 0 {
		return
	}
	img := b.texts.Text(c.image) // the builder's own copy
	m := b.imagesOf(n)
	if m.users == nil {
		m.users = map[string][]imageUser{}
	}
	m.users[img] = append(m.users[img], imageUser{f, c})
	p, ok := m.pending[img]
	if !ok {
		return
	}
	delete(m.pending, img)
	m.order = slices.DeleteFunc(m.order, func(s string) bool { return s == img })
	for i := range p {
		b.containerEffect(f, c, CStImage, Fail, &p[i].rec, p[i].reason)
	}
}

// pendingUnattributed adds the failures no line linked to unattr (up to
// maxUnattributed) and returns how many there were.
func (b *Builder) pendingUnattributed(n *nodeState, unattr *[]Evidence) int {
	m := b.images[n]
	if m == nil {
		return 0
	}
	count := 0
	for _, img := range m.order {
		p := m.pending[img]
		for i := range p {
			count++
			if len(*unattr) < maxUnattributed {
				*unattr = append(*unattr, b.evidenceOf(&p[i].rec))
			}
		}
	}
	return count
}

// usersOf is m.users[img], nil on a nil m.
func (m *nodeImages) usersOf(img string) []imageUser {
	if m == nil {
		return nil
	}
	return m.users[img]
}

// backOffImage is the image an ImagePullBackOff's message names
// (kuberuntime_image.go: "Back-off pulling image %q"), quoted once or
// twice, or "".
func backOffImage(s string) string {
	_, rest, ok := strings.Cut(s, "Back-off pulling image ")
	if !ok {
		return ""
	}
	rest = strings.TrimLeft(rest, `\"`)
	if i := strings.IndexAny(rest, `\"`); i > 0 {
		return rest[:i]
	}
	return ""
}

// Image garbage collection (kubelet.go StartGarbageCollection, every five
// minutes; images/image_gc_manager.go): when the image filesystem is over
// its high threshold the manager deletes unused images, and fails when
// it cannot free enough ("Failed to garbage collect required amount of
// images. Attempted to free %d bytes, but only found %d bytes eligible to
// free.", with the node's FreeDiskSpaceFailed event) or cannot read the
// filesystem's stats. The kubelet logs "Image garbage collection failed
// once. Stats initialization may not have completed yet" and, the next
// times, "… failed multiple times in a row", and records the node's
// ImageGCFailed event. Either is an ImageGCFailed finding: the disk the
// images fill is the one whose pressure evicts pods (eviction.go).

// findingImageGC is the finding kind of a failed image garbage collection.
const findingImageGC = "ImageGCFailed"

// imageGCFailed reads an image garbage collection failure (SpecialImageGC),
// or its node event (nodeEvent).
func (b *Builder) imageGCFailed(n *nodeState, rec *parser.Record, message string) {
	b.findingSaid(n, findingImageGC, rec, message)
}

// The runtime's word on a pull in flight, for WaitingOn. containerd's pull
// progress reporter (CRI plugin, image_pull.go) logs `progress for image
// pull` with ref, activeReqs and totalBytesRead every report interval, at
// debug level (trace from 1.7's sbserver on); CRI-O's (server/image_pull.go)
// logs `ImagePull (<event>): <image> (<digest>): <n> bytes (<pct>%)` for
// each layer as it is read, at debug level; the kubelet's dockershim
// (≤1.23) `Pulling image "<image>": "<progress>"` (imagePullLine). At the
// runtimes' default level, info, no line says how far a pull is:
// containerd's `stop pulling image …: active requests=…, bytes read=…`
// comes when it is over, CRI-O's `Pulling image: …` when it begins.
const (
	pullProgressContainerd = "progress for image pull"
	pullProgressCRIO       = "ImagePull ("
)

// pullNote is the latest progress the runtime gave of a pull.
type pullNote struct {
	image   string // as the kubelet names it (the container's image)
	runtime string // containerd, CRI-O, dockershim
	text    string // what it said: "12.5 MiB read, 1 request active"
	at      time.Time
}

// runtimePullProgress reads a runtime's progress line into the pods
// pulling that image on the node (their Pulling event seen, no Pulled).
func (b *Builder) runtimePullProgress(n *nodeState, rec *parser.Record) {
	img, text, runtime := "", "", ""
	if strings.HasPrefix(rec.Msg, pullProgressContainerd) {
		runtime = "containerd"
		img = rec.Str("ref")
		read, err := strconv.ParseInt(rec.Str("totalBytesRead"), 10, 64)
		if err == nil {
			text = byteSize(read) + " read"
			if a, err := strconv.Atoi(rec.Str("activeReqs")); err == nil {
				text += ", " + plural(a, "active request")
			}
		}
	} else {
		runtime = "CRI-O"
		img, text = crioPullProgress(rec.Msg)
	}
	if img == "" || text == "" {
		b.unattributedLine(rec)
		return
	}
	b.notePullProgress(n, img, runtime, text, rec)
}

// notePullProgress gives the pods pulling img on n the runtime's word. A
// runtime names the image as it resolved it (docker.io/library/nginx:1.27
// for nginx:1.27): the kubelet's name is tried as well.
func (b *Builder) notePullProgress(n *nodeState, img, runtime, text string, rec *parser.Record) {
	users := b.imageUsers(n, img)
	for _, short := range []string{strings.TrimPrefix(img, "docker.io/library/"), strings.TrimPrefix(img, "docker.io/")} {
		if len(users) == 0 && short != img {
			users = b.imageUsers(n, short)
		}
	}
	if len(users) == 0 {
		b.unattributedLine(rec)
		return
	}
	for _, u := range users {
		if s := u.c.stages.get(CStImage); s != nil && !s.complete.IsZero() {
			continue // (its pull is over)
		}
		b.touch(u.f, rec)
		u.f.pullNote = &pullNote{image: b.texts.Text(u.c.image), runtime: runtime, text: strings.Clone(text), at: rec.Time}
		if s := u.c.stages.get(CStImage); s != nil && len(s.evidence) < maxEvidence {
			b.addEvidence(s, b.stageEvidence(rec))
		}
	}
}

// crioPullProgress reads CRI-O's `ImagePull (<event>): <image>
// (<digest>): <n> bytes (<pct>%)` (the percentage when the layer's size is
// known): the image, and "layer sha256:1a2b3c4d5e6f: 12.5 MiB (41.23%)".
func crioPullProgress(msg string) (img, text string) {
	_, rest, ok := strings.Cut(msg[len(pullProgressCRIO):], "): ")
	if !ok {
		return "", ""
	}
	img, rest, ok = strings.Cut(rest, " (")
	if !ok {
		return "", ""
	}
	digest, amount, ok := strings.Cut(rest, "): ")
	if !ok {
		return "", ""
	}
	num, pct, _ := strings.Cut(amount, " bytes")
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil {
		return "", ""
	}
	if algo, hex, ok := strings.Cut(digest, ":"); ok && len(hex) > 12 {
		digest = algo + ":" + hex[:12]
	}
	text = "layer " + digest + ": " + byteSize(n)
	if pct = strings.TrimSpace(pct); strings.HasPrefix(pct, "(") && strings.HasSuffix(pct, "%)") {
		text += " " + pct
	}
	return img, text
}

// byteSize says n bytes as a size: 512 B, 12.5 MiB.
func byteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, u := float64(n)/unit, 0
	for v >= unit && u < 4 {
		v /= unit
		u++
	}
	return fmt.Sprintf("%.1f %ciB", v, "KMGTP"[u])
}
