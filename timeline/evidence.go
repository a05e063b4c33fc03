package timeline

import (
	"github.com/podflow/podflow/internal/linepos"
	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/internal/words"
	"github.com/podflow/podflow/parser"
)

// The log lines kept as proof of what a stage, an event or a finding says.
// Each keeps its position and a short text, interned: the views read the
// whole line back from the input (parser.ReadRaws), so memory grows with
// pods, not with lines.

// maxEvidenceText cuts the text kept with an evidence line (views read the
// whole line back by position).
const maxEvidenceText = 300

// maxInternLen is the longest text the builder interns (words.Table):
// evidence texts, cut at maxEvidenceText, are interned whole, as an error
// repeats across pods in the same words.
const maxInternLen = maxEvidenceText + len("…")

func (b *Builder) evidenceOf(rec *parser.Record) Evidence {
	ev := evidencePos(rec)
	ev.Text = b.evidenceText(rec)
	return ev
}

// evidencePos is where a record is, without its text.
func evidencePos(rec *parser.Record) Evidence {
	return Evidence{Input: rec.Pos.Input, Line: rec.Pos.Line, Offset: rec.Pos.Offset, Length: rec.Pos.Length, Time: rec.Time}
}

// evidence is an Evidence as a stage keeps it while the log is read, in 24
// bytes of Evidence's 80 (linepos.Where): a flow holds some twenty of them.
type evidence struct {
	linepos.Where
	at stamps.Stamp
}

// stageEvidence is evidenceOf for a stage.
func (b *Builder) stageEvidence(rec *parser.Record) evidence {
	return evidence{Where: b.lines.Where(&rec.Pos, b.evidenceTextID(rec)), at: b.stamps.At(rec.Time)}
}

// publicEvidence returns stage evidence in its public form.
func (b *Builder) publicEvidence(evs []evidence) []Evidence {
	if evs == nil {
		return nil
	}
	out := make([]Evidence, len(evs))
	for i, e := range evs {
		out[i] = b.evidence(e.Where, e.at, true)
	}
	return out
}

// evidenceTextID is evidenceText's index in b.texts (what b.texts.ID would
// give for it), found with one lookup of the text, not two.
func (b *Builder) evidenceTextID(rec *parser.Record) uint32 {
	if w := b.eventRec.words; w != nil && b.eventRec.rec == rec && rec.Err == "" {
		// An event's: the same for every pod, kept with its words.
		if w.evText != 0 {
			return w.evText
		}
		t := b.composeEvidenceText(rec)
		if k, ok := b.texts.LookupBytes(t); ok {
			w.evText = k
			return k
		}
		return b.texts.InternBytesID(t)
	}
	if rec.Msg != "Event occurred" && rec.Err == "" {
		if len(rec.Msg) > maxEvidenceText {
			return b.texts.InternBytesID(words.CutBytes(append(b.text[:0], rec.Msg[:maxEvidenceText+1]...), maxEvidenceText))
		}
		return b.texts.InternID(rec.Msg)
	}
	return b.texts.InternBytesID(b.composeEvidenceText(rec))
}

// evidenceText is the text kept with a record's evidence.
func (b *Builder) evidenceText(rec *parser.Record) string {
	// Records' strings share one buffer per line: a kept substring would
	// keep the whole line alive, and memory would grow with lines, not pods.
	// Texts repeat across pods (marker messages, events, the same error):
	// keep each once.
	if rec.Msg != "Event occurred" && rec.Err == "" {
		if len(rec.Msg) > maxEvidenceText {
			return b.texts.InternBytes(words.CutBytes(append(b.text[:0], rec.Msg[:maxEvidenceText+1]...), maxEvidenceText))
		}
		return b.texts.Intern(rec.Msg)
	}
	return b.texts.InternBytes(b.composeEvidenceText(rec))
}

// composeEvidenceText composes the evidence text of an event or a record
// with an error, cut, in b.text: valid until the buffer is used again.
func (b *Builder) composeEvidenceText(rec *parser.Record) []byte {
	// Composed in a buffer the builder keeps, so that a text seen before
	// costs no allocation.
	t := append(b.text[:0], rec.Msg...)
	if rec.Msg == "Event occurred" {
		// The event's own words say more than the line's message.
		r, m := b.eventRec.reason, b.eventRec.message
		if b.eventRec.rec != rec {
			r, m = rec.Str("reason"), rec.Str("message")
		}
		if r != "" {
			t = append(append(append(append(t[:0], "Event "...), r...), ": "...), m...)
		}
	}
	if rec.Err != "" {
		t = append(append(t, ": "...), rec.Err...)
	}
	if cap(t) <= 4*maxEvidenceText {
		b.text = t
	}
	if len(t) > maxEvidenceText {
		t = words.CutBytes(t, maxEvidenceText)
	}
	return t
}

// maxUnattributed bounds the lines about no known pod kept for the views;
// the rest are counted.
const maxUnattributed = 200

func (b *Builder) unattributedLine(rec *parser.Record) {
	b.unattrCount++
	if len(b.unattributed) < maxUnattributed {
		b.unattributed = append(b.unattributed, b.evidenceOf(rec))
	}
}
