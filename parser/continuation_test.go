package parser

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
)

// A record followed by a long run of continuation lines (a goroutine dump
// appended to the log) is read in one pass: each line's bytes are scanned
// once. With the old rescan of the whole record per line, 20,000 lines took
// 28 s and these 100,000 would not finish within the test timeout.
func TestManyContinuationLinesStayLinear(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`I1122 06:03:25.000000 1 a.go:1] "m" k="v` + "\n")
	const n = 100_000
	for i := 0; i < n; i++ {
		b.WriteString("goroutine 1 [running]: some continuation text here\n")
	}
	b.WriteString(`I1122 06:03:26.000000 1 a.go:1] "next"` + "\n")
	r := NewReader(&b, Options{Name: "dump.log", Year: 2026})
	var recs []Record // Next reuses its record: keep copies
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, *rec)
	}
	st := r.Stats()
	if len(recs) != 2 || st.Continuations != n || !st.Accounted() {
		t.Fatalf("%d records, %d continuations, stats %+v", len(recs), st.Continuations, st)
	}
	if recs[0].Pos.Lines != n+1 || recs[1].Pos.Line != n+2 {
		t.Errorf("positions: first spans %d lines, second at line %d", recs[0].Pos.Lines, recs[1].Pos.Line)
	}
}

// A record's continuation lines stop being kept at MaxLineBytes: the record
// is cut (counted in Truncated), the lines still counted, memory bounded.
func TestRecordCappedAtMaxLineBytes(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`E1122 06:03:25.000000 1 a.go:1] "Error syncing pod, skipping" err="boom` + "\n")
	line := strings.Repeat("x", 1000) + "\n"
	for i := 0; i < 4000; i++ { // ~4 MB of continuation
		b.WriteString(line)
	}
	b.WriteString(`I1122 06:03:26.000000 1 a.go:1] "next"` + "\n")
	r := NewReader(&b, Options{Name: "big.log", Year: 2026, MaxLineBytes: 1 << 20})
	var first Record
	n := 0
	for {
		rec, err := r.Next()
		if err != nil {
			break
		}
		if n == 0 {
			first = *rec
		}
		n++
	}
	st := r.Stats()
	if n != 2 || st.Continuations != 4000 || st.Truncated != 1 || !st.Accounted() {
		t.Fatalf("%d records, stats %+v", n, st)
	}
	if l := len(first.Err); l > 1<<20 || l < 900<<10 {
		t.Errorf("the capped record's err keeps %d bytes, want just under the 1 MiB cap", l)
	}
	if first.Pos.Lines != 4001 {
		t.Errorf("the record spans %d lines, want 4001", first.Pos.Lines)
	}
}

// A UTF-8 byte-order mark before the first line and the NULs a copytruncate
// leaves before a line do not cost the record.
func TestBOMAndNULsBeforeARecord(t *testing.T) {
	for name, in := range map[string]string{
		"bom":  "\xef\xbb\xbf" + `I1122 06:03:25.000000 1 a.go:1] "SyncLoop ADD" source="api" pods=["ns/a"]` + "\n",
		"nuls": strings.Repeat("\x00", 4096) + `I1122 06:03:25.000000 1 a.go:1] "SyncLoop ADD" source="api" pods=["ns/a"]` + "\n",
	} {
		r := NewReader(strings.NewReader(in), Options{Name: name, Year: 2026})
		rec, err := r.Next()
		if err != nil {
			t.Fatalf("%s: %v (stats %+v)", name, err, r.Stats())
		}
		// The record is placed after the NULs, which are no line's: read
		// back, it is its text, not the hole before it.
		if off := int64(strings.Count(in, "\x00")); rec.Msg != "SyncLoop ADD" || rec.Pos.Offset != off || rec.Pos.Line != 1 {
			t.Errorf("%s: %q at %+v", name, rec.Msg, rec.Pos)
		}
		if st := r.Stats(); st.Unrecognized != 0 {
			t.Errorf("%s: %d unrecognized", name, st.Unrecognized)
		}
	}
}

// A program (this test's own executable) is binary data, whatever CR bytes
// its first KiBs hold.
func TestExecutableIsBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	srcs, errs := Discover([]string{exe}, nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	mr := NewMultiReader(srcs, Options{})
	defer mr.Close()
	if _, err := mr.Next(); err != io.EOF {
		t.Fatalf("read a record from an executable: %v", err)
	}
	got := mr.Errors()
	if len(got) != 1 || !strings.Contains(got[0].Error(), "binary data") {
		t.Errorf("errors %v, want one saying binary data", got)
	}
}
