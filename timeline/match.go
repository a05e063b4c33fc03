package timeline

import (
	"encoding/binary"
	"strings"

	"github.com/podflow/podflow/internal/words"
)

// matcher indexes a pipeline's markers for the per-record lookup.
type matcher struct {
	exact    map[string][]*Marker
	prefixes []*Marker
	events   map[string]eventMarkers
	// eventPrefixes are the markers of an event reason family (Event
	// "OutOf*"), read for a reason without markers of its own.
	eventPrefixes []*Marker
	syncErrs      []*Marker
	// wantPrefixes are raw-message prefixes worth decoding besides the
	// markers: identity and node lines.
	wantPrefixes [][]byte
	// want runs on every printf line and once per structured message,
	// before anything is decoded: these tables let it decline most
	// messages after a look at their first byte and length.
	//
	// wantByFirst holds the wantPrefixes and extraWanted by first byte.
	wantByFirst [256][]wantPrefix
	// exactShape has bit min(len, 255) of word [first byte] set for each
	// exact marker message; only messages of such a shape are looked up.
	exactShape [256][4]uint64
	// exactCache holds exact markers by wordHash of their message.
	exactCache [exactCacheSize]struct {
		msg     string
		markers []*Marker
	}
	// prefixByFirst holds the prefix markers by first byte, in order.
	prefixByFirst [256][]*Marker
	// Results of lookup, event and syncError that are filtered, reused:
	// each is read before the next call of the same method.
	prefixBuf, eventBuf, errBuf []*Marker
}

const exactCacheSize = 128

// wantPrefix is a prefix want looks for, with its first eight bytes (or
// fewer) as a word under a mask: a message that shares a prefix's first
// byte nearly always differs within the next seven, which one comparison
// of words then tells without comparing strings.
type wantPrefix struct {
	head, mask uint64
	text       string
}

func newWantPrefix(p string) wantPrefix {
	w := wantPrefix{text: p}
	for i := range min(len(p), 8) {
		w.head |= uint64(p[i]) << (8 * i)
		w.mask |= 0xff << (8 * i)
	}
	return w
}

// eventMarkers are the markers of one event reason.
type eventMarkers struct {
	markers   []*Marker
	byMessage bool // some match only some messages (EventMsg)
}

func newMatcher(p *Pipeline) *matcher {
	msgs := 0
	for i := range p.Markers {
		if p.Markers[i].Msg != "" && p.Markers[i].ErrHas == "" && p.Markers[i].Event == "" {
			msgs++
		}
	}
	m := &matcher{exact: make(map[string][]*Marker, msgs), events: map[string]eventMarkers{}}
	// Each message's markers start in one shared block (a builder is made
	// per input in tests and benchmarks; most messages have one marker).
	block := make([]*Marker, len(p.Markers))
	for i := range p.Markers {
		mk := &p.Markers[i]
		switch {
		case mk.ErrHas != "":
			m.syncErrs = append(m.syncErrs, mk)
		case strings.HasSuffix(mk.Event, "*"):
			m.eventPrefixes = append(m.eventPrefixes, mk)
		case mk.Event != "":
			e := m.events[mk.Event]
			e.markers = append(e.markers, mk)
			e.byMessage = e.byMessage || mk.EventMsg != ""
			m.events[mk.Event] = e
		case mk.Msg != "":
			if prev := m.exact[mk.Msg]; prev != nil {
				m.exact[mk.Msg] = append(prev, mk)
			} else {
				block[i] = mk
				m.exact[mk.Msg] = block[i : i+1 : i+1]
			}
		case mk.Prefix != "":
			m.prefixes = append(m.prefixes, mk)
			m.wantPrefixes = append(m.wantPrefixes, []byte(mk.Prefix))
		}
	}
	for _, mk := range m.prefixes {
		m.prefixByFirst[mk.Prefix[0]] = append(m.prefixByFirst[mk.Prefix[0]], mk)
	}
	for msg := range m.exact {
		n := min(len(msg), 255)
		m.exactShape[msg[0]][n/64] |= 1 << (n % 64)
	}
	for _, p := range m.wantPrefixes {
		m.wantByFirst[p[0]] = append(m.wantByFirst[p[0]], newWantPrefix(string(p)))
	}
	for _, p := range extraWanted {
		m.wantByFirst[p[0]] = append(m.wantByFirst[p[0]], newWantPrefix(p))
	}
	return m
}

// extra messages the engine reads for identity and node facts.
var extraWanted = []string{
	"Event occurred",
	"Event(", // ≤1.18 (legacyEvent)
	"Attempting to register node",
	"Successfully registered node",
	"Unable to attach or mount volumes",
	"MountVolume.SetUp failed",
	"Operation for ",
	"PLEG is not healthy",
	"Mark when the pod was running for the first time",
	"RunPodSandbox ",
	"CreateContainer within sandbox",
	"StartContainer for ",
	"PullImage ",
	pullProgressContainerd,
	pullProgressCRIO,
	"StopPodSandbox for ",
	"StopContainer for ",
	"Pod was deleted and then recreated",
}

// want is the parser's cheap filter: only records whose raw message can
// matter are decoded. It must not allocate.
func (m *matcher) want(msg []byte) bool {
	if len(msg) == 0 {
		return false // markers have a message or a prefix
	}
	// The message's first eight bytes as a word, zero past its end when
	// shorter (a longer prefix then fails the length test).
	var head uint64
	if len(msg) >= 8 {
		head = binary.LittleEndian.Uint64(msg)
	} else {
		for i, c := range msg {
			head |= uint64(c) << (8 * i)
		}
	}
	for _, p := range m.wantByFirst[msg[0]] {
		if head&p.mask == p.head && len(msg) >= len(p.text) && string(msg[:len(p.text)]) == p.text {
			return true
		}
	}
	if n := min(len(msg), 255); m.exactShape[msg[0]][n/64]&(1<<(n%64)) != 0 {
		_, ok := m.exact[string(msg)]
		return ok
	}
	return false
}

// lookup returns the markers a message matches, exact first, then by
// prefix. The result is valid until the next lookup.
func (m *matcher) lookup(msg string) []*Marker {
	if len(msg) == 0 {
		return nil // markers have a message or a prefix
	}
	if n := min(len(msg), 255); m.exactShape[msg[0]][n/64]&(1<<(n%64)) != 0 {
		// A few dozen messages make nearly all records: a slot keeps
		// one's markers under the marker's own message (no copy).
		e := &m.exactCache[words.Hash(msg)&(exactCacheSize-1)]
		if e.msg == msg && e.markers != nil {
			return e.markers
		}
		if mk := m.exact[msg]; mk != nil {
			e.msg, e.markers = mk[0].Msg, mk
			return mk
		}
	}
	out := m.prefixBuf[:0]
	for _, mk := range m.prefixByFirst[msg[0]] {
		if strings.HasPrefix(msg, mk.Prefix) {
			out = append(out, mk)
		}
	}
	m.prefixBuf = out
	return out
}

// event returns the markers of an event. The result is valid until the
// next call.
func (m *matcher) event(reason, message string) []*Marker {
	e, ok := m.events[reason]
	if !ok && len(m.eventPrefixes) > 0 {
		out := m.eventBuf[:0]
		for _, mk := range m.eventPrefixes {
			if strings.HasPrefix(reason, mk.Event[:len(mk.Event)-1]) {
				out = append(out, mk)
			}
		}
		m.eventBuf = out
		return out
	}
	if !e.byMessage {
		return e.markers
	}
	out := m.eventBuf[:0]
	for _, mk := range e.markers {
		if mk.EventMsg == "" || strings.HasPrefix(message, mk.EventMsg) {
			out = append(out, mk)
		}
	}
	m.eventBuf = out
	return out
}

// syncError returns the markers a sync error matches. The result is valid
// until the next call.
func (m *matcher) syncError(err string) []*Marker {
	// Most markers look for "with <Reason>": the text's few "with " are
	// found once, and such a marker matches when one is followed by its
	// reason (the occurrences of "with " cannot overlap).
	var withAt [4]int
	withs := withAt[:0]
	for i := 0; ; {
		j := strings.Index(err[i:], errWith)
		if j < 0 {
			break
		}
		withs = append(withs, i+j)
		i += j + len(errWith)
	}
	out := m.errBuf[:0]
	for _, mk := range m.syncErrs {
		if rest, ok := strings.CutPrefix(mk.ErrHas, errWith); ok {
			for _, at := range withs {
				if strings.HasPrefix(err[at+len(errWith):], rest) {
					out = append(out, mk)
					break
				}
			}
			continue
		}
		if strings.Contains(err, mk.ErrHas) {
			out = append(out, mk)
		}
	}
	m.errBuf = out
	return out
}

const errWith = "with "
