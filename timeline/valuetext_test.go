package timeline

import (
	"testing"

	"github.com/podflow/podflow/parser"
)

// TestValueTextUnquotesKept: a field the readers keep as written reads
// as its text through valueText, as through Record.Str.
func TestValueTextUnquotesKept(t *testing.T) {
	v := parser.Value{Kind: parser.KindQuoted, Str: `"{\"a\":\"b\"}"`}
	if got, want := valueText(&v), `{"a":"b"}`; got != want {
		t.Errorf("valueText = %q, want %q", got, want)
	}
	rec := &parser.Record{Fields: []parser.Field{{Key: "patch", Value: v}}}
	if got, want := rec.Str("patch"), `{"a":"b"}`; got != want {
		t.Errorf("Record.Str = %q, want %q", got, want)
	}
}
