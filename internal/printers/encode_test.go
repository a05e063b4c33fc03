package printers

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
)

// TestEncodeInOrder: items come out in order across batches and the two
// sets of buffers, each encoded once; the first error, the encoder's or
// the writer's, ends the run with the items before it written.
func TestEncodeInOrder(t *testing.T) {
	tests := []struct {
		name             string
		n                int
		failEnc, failOut int // item whose encoding, writing fails; -1: none
		want             int // items written
	}{
		{"none", 0, -1, -1, 0},
		{"one", 1, -1, -1, 1},
		{"a batch and a half", 97, -1, -1, 97},
		{"several batches", 300, -1, -1, 300},
		{"encoding fails in the third batch", 300, 150, -1, 150},
		{"writing fails in the first batch", 300, -1, 10, 10},
		{"encoding fails in the last item", 130, 129, -1, 129},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out []string
			var mu sync.Mutex
			encoded := map[int]int{}
			err := EncodeInOrder(tt.n, func(worker, i int, buf *bytes.Buffer) error {
				mu.Lock()
				encoded[i]++
				mu.Unlock()
				if i == tt.failEnc {
					return errors.New("encode")
				}
				fmt.Fprint(buf, i)
				return nil
			}, func(b []byte) error {
				if len(out) == tt.failOut {
					return errors.New("write")
				}
				out = append(out, string(b))
				return nil
			})
			if (err != nil) != (tt.failEnc >= 0 || tt.failOut >= 0) {
				t.Fatalf("error %v", err)
			}
			if len(out) != tt.want {
				t.Fatalf("%d items written, want %d", len(out), tt.want)
			}
			for i, s := range out {
				if s != fmt.Sprint(i) {
					t.Fatalf("item %d is %q", i, s)
				}
			}
			for i, c := range encoded {
				if c != 1 {
					t.Errorf("item %d encoded %d times", i, c)
				}
			}
		})
	}
}

// TestAppendIndented holds the indenter to encoding/json's Encoder with
// SetIndent on values with every kind of member, empty ones and strings
// holding JSON punctuation and escapes.
func TestAppendIndented(t *testing.T) {
	vals := []any{
		map[string]any{}, []any{}, "s", 1.5, nil, true,
		map[string]any{"a": []any{}, "b": map[string]any{}, "c": []any{1, "x", nil, []any{[]any{}}, map[string]any{"d": "e"}}},
		map[string]any{`q"{[,:]}\`: `v "{[,:]}\ \n <&> é ` + "\u2028", "n": map[string]any{"m": []any{map[string]any{}}}},
		[]any{map[string]any{"k": []any{"a", "b"}}, "", `\`, `\\"`},
	}
	for _, prefix := range []string{"", "  ", "    "} {
		for _, v := range vals {
			var want, compact bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetIndent(prefix, "  ")
			enc.SetEscapeHTML(false)
			if err := enc.Encode(v); err != nil {
				t.Fatal(err)
			}
			c := json.NewEncoder(&compact)
			c.SetEscapeHTML(false)
			if err := c.Encode(v); err != nil {
				t.Fatal(err)
			}
			got := appendIndented([]byte("x"), bytes.TrimSuffix(compact.Bytes(), []byte("\n")), prefix)
			if string(got) != "x"+strings.TrimSuffix(want.String(), "\n") {
				t.Errorf("prefix %q:\n got %s\nwant %s", prefix, got[1:], want.String())
			}
		}
	}
}

// FuzzAppendIndented holds appendIndented to encoding/json's own indenting
// for any compact JSON encoding/json writes.
func FuzzAppendIndented(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `{"a":"b\\\"c","d":[1,{"e":"\\\\"}],"f":"##[x"}`, `"\\\\\\"\\\\"`, `[{"k":["a","b"]},"","\\"]`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var v any
		if json.Unmarshal([]byte(s), &v) != nil {
			return
		}
		var compact, want bytes.Buffer
		c := json.NewEncoder(&compact)
		c.SetEscapeHTML(false)
		if err := c.Encode(v); err != nil {
			return
		}
		src := bytes.TrimSuffix(compact.Bytes(), []byte("\n"))
		if err := json.Indent(&want, src, "  ", "  "); err != nil {
			t.Fatal(err)
		}
		if got := appendIndented(nil, src, "  "); string(got) != want.String() {
			t.Errorf("appendIndented(%s):\n got %s\nwant %s", src, got, want.String())
		}
	})
}
