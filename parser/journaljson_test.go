package parser

import (
	"os"
	"testing"
	"time"
)

// `journalctl -u kubelet -o json` of the real 01 log: every entry's MESSAGE
// is read as the line itself, with the entry's host, ident and PID, and the
// year from __REALTIME_TIMESTAMP; records equal the plain log's.
func TestJournalJSONEntries(t *testing.T) {
	read := func(path string, o Options) ([]Record, Stats) {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		o.Name = path
		r := NewReader(f, o)
		var out []Record
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			out = append(out, *rec)
		}
		return out, r.Stats()
	}
	plain, _ := read("../testdata/corpus/v1.36.3/01-happy-path.log", Options{Year: 2026})
	// A misleading modification time: the year must come from the entries.
	wrapped, st := read("../testdata/formats/journald-json.log", Options{ModTime: time.Date(2019, 3, 1, 0, 0, 0, 0, time.UTC), NoPrescan: true})
	if len(wrapped) != len(plain) || st.Records != 2191 || st.Unrecognized != 0 || !st.Accounted() {
		t.Fatalf("%d records (plain %d), stats %+v", len(wrapped), len(plain), st)
	}
	for i := range plain {
		p, w := plain[i], wrapped[i]
		if w.Msg != p.Msg || w.Err != p.Err || len(w.Fields) != len(p.Fields) || !w.Time.Equal(p.Time) || w.Severity != p.Severity {
			t.Fatalf("record %d: %q %v vs plain %q %v", i, w.Msg, w.Time, p.Msg, p.Time)
		}
		if w.Host != "kb-node-happy" || w.Component != "kubelet" || w.Pos.Line != int64(i+1) {
			t.Fatalf("record %d: host %q component %q line %d", i, w.Host, w.Component, w.Pos.Line)
		}
	}
	if y := wrapped[0].Time.Year(); y != 2026 {
		t.Errorf("year %d, want 2026 from __REALTIME_TIMESTAMP", y)
	}
}
