package timeline

import (
	"bytes"
	"strings"
)

// matcher indexes a pipeline's markers for the per-record lookup.
type matcher struct {
	exact    map[string][]*Marker
	prefixes []*Marker
	events   map[string][]*Marker
	syncErrs []*Marker
	// wantPrefixes are raw-message prefixes worth decoding besides the
	// markers: identity and node lines.
	wantPrefixes [][]byte
}

func newMatcher(p *Pipeline) *matcher {
	m := &matcher{exact: map[string][]*Marker{}, events: map[string][]*Marker{}}
	for i := range p.Markers {
		mk := &p.Markers[i]
		switch {
		case mk.ErrHas != "":
			m.syncErrs = append(m.syncErrs, mk)
		case mk.Event != "":
			m.events[mk.Event] = append(m.events[mk.Event], mk)
		case mk.Msg != "":
			m.exact[mk.Msg] = append(m.exact[mk.Msg], mk)
		case mk.Prefix != "":
			m.prefixes = append(m.prefixes, mk)
			m.wantPrefixes = append(m.wantPrefixes, []byte(mk.Prefix))
		}
	}
	return m
}

// extra messages the engine reads for identity and node facts.
var extraWanted = []string{
	"Event occurred",
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
	"StopPodSandbox for ",
	"StopContainer for ",
	"Pod was deleted and then recreated",
}

// want is the parser's cheap filter: only records whose raw message can
// matter are decoded. It must not allocate.
func (m *matcher) want(msg []byte) bool {
	if _, ok := m.exact[string(msg)]; ok {
		return true
	}
	for _, p := range m.wantPrefixes {
		if bytes.HasPrefix(msg, p) {
			return true
		}
	}
	for _, p := range extraWanted {
		if bytes.HasPrefix(msg, []byte(p)) {
			return true
		}
	}
	return false
}

// lookup returns the markers a message matches, exact first, then by prefix.
func (m *matcher) lookup(msg string) []*Marker {
	if mk := m.exact[msg]; mk != nil {
		return mk
	}
	var out []*Marker
	for _, mk := range m.prefixes {
		if strings.HasPrefix(msg, mk.Prefix) {
			out = append(out, mk)
		}
	}
	return out
}

func (m *matcher) event(reason, message string) []*Marker {
	var out []*Marker
	for _, mk := range m.events[reason] {
		if mk.EventMsg == "" || strings.HasPrefix(message, mk.EventMsg) {
			out = append(out, mk)
		}
	}
	return out
}

func (m *matcher) syncError(err string) []*Marker {
	var out []*Marker
	for _, mk := range m.syncErrs {
		if strings.Contains(err, mk.ErrHas) {
			out = append(out, mk)
		}
	}
	return out
}
