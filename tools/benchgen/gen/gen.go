// Package gen writes large, realistic kubelet logs for `make bench` (see
// tools/benchgen) and for tests.
//
// It does not invent message shapes: it replays the real -v=4 kubelet logs
// of testdata/corpus/v1.36.3. Each scenario file is split into the lines of
// its pods (found by pod name, UID and the sandbox/container IDs seen with
// them) and the node's background lines. A generated log is the start-up of
// one real node, then many pods, each one a real pod's lines with a fresh
// name, UID and IDs and shifted times, interleaved by time with the real
// background lines (replayed in a loop over the corpus files) up to the
// requested size. The engine therefore sees real flows and gives real
// verdicts: most pods run, some stall on an image pull, a sandbox, a volume
// or a crash loop, some are deleted.
//
// The mix, measured with `benchgen -measure` (steady state: from the first
// pod to the kubelet's shutdown):
//
//	                          07-twenty-pods (real)   generated 100 MiB (976 pods)
//	mean line / p50 / p90     253 / 167 / 392 B       289 / 179 / 402 B
//	p99 / max                 2871 / 2915 B           2865 / 3283 B
//	lines naming a pod        65.9% (82.8% of bytes)  84.7% (93.2% of bytes)
//	cadvisor "error while reading /proc/1/fd…" (printf, uninteresting)
//	                          11.4%                   9.1%
//	volume manager lines      13%                     11%
//	probe lines               7.3%                    3.6%
//	"Event occurred"          2.3%                    3.3%
//	SyncLoop lines            3.4%                    4.4%
//
// All 12 -v=4 klog files of v1.36.3 together: 47,395 lines, mean 173 B,
// 25% naming a pod. The generated node is busier than the real one (about
// 60 pods alive at once instead of 20), so pod lines weigh more; node
// lines that name no pod (e.g. "expected volume SELinux label context")
// are replayed as background at the corpus rate and are rarer (0.5%
// instead of 5%).
//
// Options.Noise (benchgen -noise) writes the other log of issue #27, one
// where most lines are noise: 4,771 pods per GiB, spread out (one every
// 37 s or so, two days of log per GiB) so that the node's own lines keep
// their real rate and fill the rest. Measured on 100 MiB: 465 pods, 23.1%
// of the steady state's lines name a pod (43.3% of the bytes), mean
// line 169 B; cadvisor's "error while reading" 47.8%, "Retrieved pods from
// runtime" 4.3%, "expected volume SELinux label context" 2%, each
// housekeeping line 1.4%. The 1 GiB file: 6.25 M lines, 75.6% of them the
// node's own; the engine's filter declines 91% of its records (69% on make
// bench's 1 GiB log).
//
// Usage:
//
//	benchgen -size 1GiB -seed 1 -o bench-data/kubelet-1g.log [-gzip]
//	benchgen -noise -size 1GiB -seed 1 -o bench-data/kubelet-1g-noise.log
//	benchgen -measure FILE...
package gen

import (
	"bufio"
	"container/heap"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// scenario files replayed, with the share of generated pods taken from each.
// Happy pods dominate; a quarter stall, fail or are deleted, as on a busy
// node with some bad deployments.
var scenarios = []struct {
	file   string
	weight float64
}{
	{"01-happy-path.log", 10},
	{"07-twenty-pods.log", 50}, // 20 happy batch pods
	{"03-slow-image-pull.log", 5},
	{"06-pod-deletion-api.log", 10},
	{"02-image-pull-failure.log", 5},
	{"04-sandbox-failure.log", 4},
	{"05-crashloop-backoff.log", 4},
	{"10-init-container-crashloop.log", 4},
	{"11-volume-mount-failure.log", 1}, // a 900 KB retry loop per pod
	{"12-container-start-failure.log", 3},
	{"13-container-create-error.log", 3},
}

const startupFile = "07-twenty-pods.log"

// GiB of log per 10,000 pods: the pod count scales with the size.
const podsPerGiB = 10000

// entry is one record of a template: its time offset and its text after
// the klog time (multi-line records keep their newlines).
type entry struct {
	dt   time.Duration
	sev  byte
	text string
}

type podTemplate struct {
	file string
	name string // ns/name
	ids  []string
	ents []entry
}

// Corpus is the material of generated logs, loaded from real ones.
type Corpus struct {
	// Log, when set, is told what Generate does.
	Log func(format string, args ...any)
	// Pod, when set, is told each pod Generate wrote: its namespace/name,
	// the scenario file it replays, and whether all of its lines were
	// written (false: the log reached its size first). Tests count what a
	// generated log holds by it.
	Pod func(name, file string, whole bool)

	startup    []entry // kubelet start-up of one node, before its first pod
	startAt    time.Time
	pid        string    // " %7d " of the node's kubelet: every line is written with it
	background [][]entry // per file, the node's own lines while pods ran
	pods       [][]*podTemplate
}

var (
	addRE = regexp.MustCompile(`"SyncLoop ADD" source="(?:api|file)" pods=\["([^"]+)"\]`)
	uidRE = regexp.MustCompile(`podUID="([0-9a-f-]{36})"`)
	hexRE = regexp.MustCompile(`\b[0-9a-f]{64}\b`)
)

// rawLine is a klog record of a corpus file.
type rawLine struct {
	t    time.Time
	sev  byte
	text string // after the time: "   PID file:line] …"
}

func readKlog(path string) ([]rawLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []rawLine
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		l := sc.Text()
		t, ok := klogTime(l)
		if !ok {
			if len(out) > 0 { // a continuation line belongs to the record before
				out[len(out)-1].text += "\n" + l
			}
			continue
		}
		out = append(out, rawLine{t: t, sev: l[0], text: l[21:]})
	}
	return out, sc.Err()
}

func klogTime(l string) (time.Time, bool) {
	if len(l) < 30 || strings.IndexByte("IWEF", l[0]) < 0 || l[5] != ' ' || l[14] != '.' {
		return time.Time{}, false
	}
	t, err := time.Parse("0102 15:04:05.000000", l[1:21])
	if err != nil {
		return time.Time{}, false
	}
	return t.AddDate(2026, 0, 0), true
}

// podsOf finds the pods a scenario added and the identifiers that mark
// their lines.
func podsOf(lines []rawLine, file string) []*podTemplate {
	var pods []*podTemplate
	seen := map[string]bool{}
	for _, l := range lines {
		if m := addRE.FindStringSubmatch(l.text); m != nil && !seen[m[1]] {
			seen[m[1]] = true
			pods = append(pods, &podTemplate{file: file, name: m[1]})
		}
	}
	for _, p := range pods {
		_, bare, _ := strings.Cut(p.name, "/")
		p.ids = []string{p.name, bare}
		for _, l := range lines {
			if strings.Contains(l.text, `pod="`+p.name+`"`) {
				if m := uidRE.FindStringSubmatch(l.text); m != nil {
					p.ids = append(p.ids, m[1])
					break
				}
			}
		}
	}
	// Sandbox and container IDs: 64-hex tokens on lines that name the pod.
	for _, p := range pods {
		have := map[string]bool{}
		for _, l := range lines {
			if !mentions(l.text, p.ids[:min(len(p.ids), 3)]) {
				continue
			}
			for _, h := range hexRE.FindAllString(l.text, -1) {
				if !have[h] {
					have[h] = true
					p.ids = append(p.ids, h)
				}
			}
		}
	}
	return pods
}

// mentions reports whether s contains one of ids as a whole token.
func mentions(s string, ids []string) bool {
	for _, id := range ids {
		for from := 0; ; {
			k := strings.Index(s[from:], id)
			if k < 0 {
				break
			}
			k += from
			e := k + len(id)
			if (k == 0 || !nameByte(s[k-1]) || s[k-1] == '/' && strings.Contains(id, "/")) && (e == len(s) || !nameByte(s[e])) {
				return true
			}
			from = k + 1
		}
	}
	return false
}

func nameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.'
}

// LoadCorpus reads the real kubelet logs of dir (testdata/corpus/v1.36.3).
func LoadCorpus(dir string) (*Corpus, error) {
	c := &Corpus{Log: func(string, ...any) {}}
	for _, sc := range scenarios {
		lines, err := readKlog(filepath.Join(dir, sc.file))
		if err != nil {
			return nil, err
		}
		pods := podsOf(lines, sc.file)
		if len(pods) == 0 {
			return nil, fmt.Errorf("%s: no pods found", sc.file)
		}
		first := -1
		for i, l := range lines {
			if addRE.MatchString(l.text) {
				first = i
				break
			}
		}
		stop := len(lines)
		for i := first; i < len(lines); i++ {
			if strings.Contains(lines[i].text, "Stopping reflector") || strings.Contains(lines[i].text, "Shutting down") {
				stop = i // the kubelet was sent SIGTERM: not steady state
				break
			}
		}
		if sc.file == startupFile {
			c.startAt = lines[0].t
			c.pid = lines[0].text[:9]
			for _, l := range lines[:first] {
				c.startup = append(c.startup, entry{dt: l.t.Sub(lines[0].t), sev: l.sev, text: l.text})
			}
		}
		var bg []entry
		for _, l := range lines[first:stop] {
			owner := (*podTemplate)(nil)
			for _, p := range pods {
				if mentions(l.text, p.ids) {
					owner = p
					break
				}
			}
			if owner == nil {
				bg = append(bg, entry{dt: l.t.Sub(lines[first].t), sev: l.sev, text: l.text})
				continue
			}
			owner.ents = append(owner.ents, entry{dt: l.t.Sub(lines[0].t), sev: l.sev, text: l.text})
		}
		for _, p := range pods {
			base := p.ents[0].dt
			for i := range p.ents {
				p.ents[i].dt -= base
			}
		}
		c.background = append(c.background, bg)
		c.pods = append(c.pods, pods)
	}
	// One node, one kubelet process: every line gets the start-up's PID
	// (the corpus files come from separate kubelet runs).
	setPID := func(es []entry) {
		for i := range es {
			if len(es[i].text) > 9 && es[i].text[8] == ' ' {
				es[i].text = c.pid + es[i].text[9:]
			}
		}
	}
	for _, bg := range c.background {
		setPID(bg)
	}
	for _, ps := range c.pods {
		for _, p := range ps {
			setPID(p.ents)
		}
	}
	return c, nil
}

// stream yields entries in time order.
type stream struct {
	at   time.Time // time of ents[i]
	base time.Time
	ents []entry
	i    int
	repl *strings.Replacer
	loop func(s *stream) bool // refills a background stream
	pod  int                  // a pod's stream: its index in chosen, plus one
}

type streamHeap []*stream

func (h streamHeap) Len() int { return len(h) }
func (h streamHeap) Less(i, j int) bool {
	if !h[i].at.Equal(h[j].at) {
		return h[i].at.Before(h[j].at)
	}
	return h[i].base.Before(h[j].base)
}
func (h streamHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *streamHeap) Push(x any)   { *h = append(*h, x.(*stream)) }
func (h *streamHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

const alnum = "bcdfghjklmnpqrstvwxz2456789"

func randHex(r *rand.Rand, n int) string {
	const hx = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = hx[r.IntN(16)]
	}
	return string(b)
}

func randUID(r *rand.Rand) string {
	h := randHex(r, 32)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// renamer gives a template pod fresh identifiers of the same shape.
func renamer(r *rand.Rand, p *podTemplate, used map[string]bool) *strings.Replacer {
	ns, bare, _ := strings.Cut(p.name, "/")
	stem := bare
	if k := strings.IndexByte(bare, '-'); k > 0 {
		stem = bare[:k]
	}
	var name string
	for {
		s := make([]byte, 5)
		for i := range s {
			s[i] = alnum[r.IntN(len(alnum))]
		}
		name = stem + "-" + randHex(r, 9) + "-" + string(s)
		if !used[name] {
			used[name] = true
			break
		}
	}
	pairs := []string{ns + "/" + bare, ns + "/" + name, bare, name}
	for _, id := range p.ids[2:] {
		if len(id) == 36 {
			pairs = append(pairs, id, randUID(r))
		} else {
			pairs = append(pairs, id, randHex(r, len(id)))
		}
	}
	return strings.NewReplacer(pairs...)
}

// NoisePodsPerGiB is the pod density of a noise log (Options.Noise): the
// 4,771 pods per GiB of the -v=4 log issue #27 measured, where the node's
// own lines are most lines.
const NoisePodsPerGiB = 4771

// Options vary a generated log from make bench's default.
type Options struct {
	// Noise writes a log where most lines are the node's own: the pods
	// are NoisePodsPerGiB instead of 10,000 per GiB, and the real lines
	// that name no pod (housekeeping, cadvisor, reflector, eviction
	// manager, node status, image and cgroup chatter of the corpus's
	// steady state) are replayed faster to fill the size. Only the
	// density changes, not a line's shape: every line is still a real one.
	Noise bool
	// PodsPerGiB, when above zero, sets the pod density (it overrides
	// Noise's).
	PodsPerGiB int
}

// Stats is what a generated log holds.
type Stats struct {
	Pods     int   // pods started (all of them, unless the size was too small)
	Lines    int64 // records written (a multi-line record counts once)
	PodLines int64 // of which replayed from a pod's lines; the rest is the node's
	Bytes    int64
}

// Generate writes a log of about size bytes to w: the start-up of one
// node, then 10,000 pods per GiB replayed from the corpus and interleaved
// with the node's own lines. The same seed and size give the same bytes.
func Generate(c *Corpus, w io.Writer, size int64, seed uint64) (pods int, written int64, err error) {
	st, err := GenerateWith(c, w, size, seed, Options{})
	return st.Pods, st.Bytes, err
}

// GenerateWith is Generate with Options; Options{} writes Generate's bytes.
func GenerateWith(c *Corpus, w io.Writer, size int64, seed uint64, opt Options) (Stats, error) {
	var st Stats
	var written int64
	bw := bufio.NewWriterSize(w, 1<<20)
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))

	density := podsPerGiB
	switch {
	case opt.PodsPerGiB > 0:
		density = opt.PodsPerGiB
	case opt.Noise:
		density = NoisePodsPerGiB
	}
	npods := int(float64(size) / float64(1<<30) * float64(density))
	if npods < 1 {
		npods = 1
	}
	// Choose every pod's template first, to know how many bytes the pods
	// take and so how densely the background must be replayed.
	var total float64
	for _, s := range scenarios {
		total += s.weight
	}
	type choice struct{ si, pi int }
	chosen := make([]choice, npods)
	var podBytes, podSpan int64
	for i := range chosen {
		x := r.Float64() * total
		si := 0
		for ; si < len(scenarios)-1 && x >= scenarios[si].weight; si++ {
			x -= scenarios[si].weight
		}
		pi := r.IntN(len(c.pods[si]))
		chosen[i] = choice{si, pi}
		for _, e := range c.pods[si][pi].ents {
			podBytes += int64(len(e.text) + 22)
		}
		podSpan = max(podSpan, int64(c.pods[si][pi].ents[len(c.pods[si][pi].ents)-1].dt))
	}
	var startupBytes int64
	for _, e := range c.startup {
		startupBytes += int64(len(e.text) + 22)
	}
	var bgBytes, bgSpan int64
	for _, bg := range c.background {
		for _, e := range bg {
			bgBytes += int64(len(e.text) + 22)
		}
		bgSpan += int64(bg[len(bg)-1].dt) + int64(time.Second)
	}
	need := float64(size - podBytes - startupBytes)
	// Background bytes per second in the corpus.
	bgRate := float64(bgBytes) / (float64(bgSpan) / 1e9)
	// Pods arrive about one a second (a busy node keeps some 60-100 alive).
	gap := time.Second
	if opt.Noise && need > 0 {
		// A noise log keeps the node's own lines at their real rate
		// (housekeeping every 2 s, cadvisor's rounds...): the pods are
		// spread over the time those lines take to fill the size, as on
		// a node that starts a pod every half a minute or so.
		want := need/bgRate - float64(podSpan)/1e9
		gap = max(gap, time.Duration(want/float64(npods)*1e9))
	}
	span := time.Duration(npods) * gap
	// The background is scaled so the whole log reaches the size: speed > 1
	// replays the node's own lines faster.
	speed := 1.0
	if need > 0 {
		speed = need / float64(span.Seconds()+float64(podSpan)/1e9) / bgRate
	}
	c.Log("%d pods, one every %v, pod lines %.0f MiB, background replayed at %.2fx", npods, gap.Round(time.Millisecond), float64(podBytes)/(1<<20), speed)

	h := &streamHeap{}
	start := c.startAt
	heap.Push(h, &stream{at: start, base: start, ents: c.startup})
	podsAt := start.Add(c.startup[len(c.startup)-1].dt + time.Second)
	bgFile := 0
	var refill func(s *stream) bool
	refill = func(s *stream) bool {
		last := s.base.Add(scaled(s.ents[len(s.ents)-1].dt, speed))
		bgFile = (bgFile + 1) % len(c.background)
		s.base, s.ents, s.i = last.Add(scaled(time.Second, speed)), c.background[bgFile], 0
		s.at = s.base.Add(scaled(s.ents[0].dt, speed))
		return true
	}
	bgs := &stream{base: podsAt, ents: c.background[0], loop: refill}
	bgs.at = podsAt
	heap.Push(h, bgs)
	used := map[string]bool{}
	tell := func(s *stream, whole bool) {
		if c.Pod != nil && s.pod > 0 {
			ch := chosen[s.pod-1]
			p := c.pods[ch.si][ch.pi]
			c.Pod(s.repl.Replace(p.name), scenarios[ch.si].file, whole)
		}
	}
	next := 0
	nextAt := podsAt
	buf := make([]byte, 0, 64<<10)
	for h.Len() > 0 {
		// Start pods whose time has come before taking the next line.
		for next < npods && !nextAt.After((*h)[0].at) {
			p := c.pods[chosen[next].si][chosen[next].pi]
			heap.Push(h, &stream{at: nextAt, base: nextAt, ents: p.ents, repl: renamer(r, p, used), pod: next + 1})
			next++
			nextAt = nextAt.Add(time.Duration(float64(gap) * (0.5 + r.Float64())))
		}
		s := (*h)[0]
		e := s.ents[s.i]
		buf = appendHeader(buf[:0], e.sev, s.at)
		if s.repl != nil {
			buf = append(buf, s.repl.Replace(e.text)...)
		} else {
			buf = append(buf, e.text...)
		}
		buf = append(buf, '\n')
		if next >= npods && s.loop != nil && written+int64(len(buf)) > size {
			// Every pod started and the size is reached: the pods still
			// streaming are cut.
			for _, left := range *h {
				tell(left, false)
			}
			break
		}
		if _, err := bw.Write(buf); err != nil {
			st.Pods, st.Bytes = next, written
			return st, err
		}
		written += int64(len(buf))
		st.Lines++
		if s.pod > 0 {
			st.PodLines++
		}
		s.i++
		speedOf := 1.0
		if s.loop != nil {
			speedOf = speed
		}
		if s.i == len(s.ents) {
			if s.loop == nil || !s.loop(s) {
				tell(s, true)
				heap.Pop(h)
				continue
			}
		} else {
			s.at = s.base.Add(scaled(s.ents[s.i].dt, speedOf))
		}
		heap.Fix(h, 0)
	}
	st.Pods, st.Bytes = next, written
	return st, bw.Flush()
}

func scaled(d time.Duration, speed float64) time.Duration {
	return time.Duration(float64(d) / speed)
}

// appendHeader writes "Lmmdd hh:mm:ss.uuuuuu" as klog does.
func appendHeader(b []byte, sev byte, t time.Time) []byte {
	_, mo, d := t.Date()
	hh, mm, ss := t.Clock()
	us := t.Nanosecond() / 1000
	b = append(b, sev)
	b = two(b, int(mo))
	b = two(b, d)
	b = append(b, ' ')
	b = two(b, hh)
	b = append(b, ':')
	b = two(b, mm)
	b = append(b, ':')
	b = two(b, ss)
	b = append(b, '.')
	for div := 100000; div > 0; div /= 10 {
		b = append(b, byte('0'+us/div%10))
	}
	return b
}

func two(b []byte, v int) []byte { return append(b, byte('0'+v/10), byte('0'+v%10)) }

// Measure prints the mix of messages, line lengths and the share of
// lines that name a pod, for real and generated logs alike: once over the
// whole files and once over their steady state (from the first pod to the
// kubelet's shutdown), which is what a long-running node's log is made of.
func Measure(w io.Writer, files []string) error {
	if len(files) == 0 {
		return errors.New("-measure: name the files to measure")
	}
	var all, steady mix
	for _, fn := range files {
		ls, err := readKlog(fn)
		if err != nil {
			return err
		}
		// One pass: pods are named by ADD lines, their UIDs by pod="…"
		// podUID="…", and IDs by the 64-hex tokens of lines naming them.
		idset := map[string]bool{}
		inSteady := false
		for _, l := range ls {
			if m := addRE.FindStringSubmatch(l.text); m != nil {
				idset[m[1]] = true
				_, bare, _ := strings.Cut(m[1], "/")
				idset[bare] = true
				inSteady = true
			}
			if strings.Contains(l.text, "Stopping reflector") || strings.Contains(l.text, "Shutting down") {
				inSteady = false
			}
			isPod := podLine(l.text, idset)
			if isPod {
				if m := uidRE.FindStringSubmatch(l.text); m != nil {
					idset[m[1]] = true
				}
				for _, h := range hexRE.FindAllString(l.text, -1) {
					idset[h] = true
				}
			}
			all.add(l.text, isPod)
			if inSteady {
				steady.add(l.text, isPod)
			}
		}
	}
	fmt.Fprintf(w, "== whole files (%d)\n", len(files))
	all.print(w)
	fmt.Fprintf(w, "\n== steady state (first pod to shutdown)\n")
	steady.print(w)
	return nil
}

type mix struct {
	counts                           map[string]int
	lens                             []int
	lines, podLines, bytes, podBytes int
}

func (m *mix) add(text string, isPod bool) {
	if m.counts == nil {
		m.counts = map[string]int{}
	}
	n := len(text) + 22
	m.lens = append(m.lens, n)
	m.lines++
	m.bytes += n
	if isPod {
		m.podLines++
		m.podBytes += n
	}
	m.counts[msgKey(text)]++
}

func (m *mix) print(w io.Writer) {
	if m.lines == 0 {
		fmt.Fprintln(w, "no lines")
		return
	}
	lens := m.lens
	sort.Ints(lens)
	pct := func(p float64) int { return lens[int(p*float64(len(lens)-1))] }
	fmt.Fprintf(w, "lines %d, bytes %d, mean line %d B\n", m.lines, m.bytes, m.bytes/m.lines)
	fmt.Fprintf(w, "line length p50 %d p90 %d p99 %d max %d\n", pct(.5), pct(.9), pct(.99), lens[len(lens)-1])
	fmt.Fprintf(w, "lines naming a pod %.1f%% (bytes %.1f%%)\n", 100*float64(m.podLines)/float64(m.lines), 100*float64(m.podBytes)/float64(m.bytes))
	type kv struct {
		k string
		n int
	}
	var top []kv
	for k, n := range m.counts {
		top = append(top, kv{k, n})
	}
	sort.Slice(top, func(i, j int) bool { return top[i].n > top[j].n || top[i].n == top[j].n && top[i].k < top[j].k })
	for i, t := range top {
		if i == 25 {
			break
		}
		k := t.k
		if len(k) > 70 {
			k = k[:70] + "…"
		}
		fmt.Fprintf(w, "%6.2f%%  %s\n", 100*float64(t.n)/float64(m.lines), k)
	}
}

// podLine reports whether a line names one of the pods (by any identifier);
// for speed on big files it looks only at quoted values and paths.
func podLine(s string, ids map[string]bool) bool {
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool {
		return r == '"' || r == ' ' || r == '=' || r == '[' || r == ']' || r == '/' || r == '(' || r == ')' || r == ',' || r == '_' || r == ':'
	}) {
		if ids[tok] {
			return true
		}
	}
	return false
}

// msgKey names a line's message: the quoted klog message, or the first
// words of a printf line.
func msgKey(text string) string {
	k := strings.Index(text, "] ")
	if k < 0 {
		return "?"
	}
	p := text[k+2:]
	if strings.HasPrefix(p, `"`) {
		for i := 1; i < len(p); i++ {
			if p[i] == '\\' {
				i++
			} else if p[i] == '"' {
				return p[1:i]
			}
		}
	}
	f := strings.Fields(p)
	if len(f) > 3 {
		f = f[:3]
	}
	return strings.Join(f, " ") + " …"
}
