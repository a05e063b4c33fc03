package parser

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadSizes reads inputs in pieces of every size the line reader
// meets: one byte a read (each line from ReadSlice), half of what is asked
// (lines from what the buffer holds, cut anywhere), and all at once; and
// with a read error after some lines. The records, positions and Stats are
// those of the input read at once.
func TestReadSizes(t *testing.T) {
	inputs := map[string][]byte{
		"twenty pods":     firstLines(testdataBytes(t, "corpus/v1.36.3/07-twenty-pods.log"), 500),
		"crlf":            testdataBytes(t, "formats/crlf.log"),
		"multi-line":      testdataBytes(t, "formats/klog-multiline.log"),
		"multi-line CRLF": bytes.ReplaceAll(testdataBytes(t, "formats/klog-multiline.log"), []byte("\n"), []byte("\r\n")),
		"no final newline": []byte(strings.TrimSuffix(string(testdataBytes(t, "formats/klog-multiline.log")), "\n") +
			"\nI1122 06:25:28.100000   12052 kubelet.go:2544] \"last\" pod=\"ns/a\""),
		// A line longer than the reader's buffer between short ones.
		"long line": []byte(kl("06:25:28.100000", 12052, "kubelet.go:2544]", `"before" pod="ns/a"`) +
			kl("06:25:28.100001", 12052, "kubelet.go:2544]", `"long" x="`+strings.Repeat("y", 300<<10)+`"`) +
			kl("06:25:28.100002", 12052, "kubelet.go:2544]", `"after" pod="ns/a"`)),
	}
	wrappers := []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"one byte", iotest.OneByteReader},
		{"halves", iotest.HalfReader},
		{"data with EOF", iotest.DataErrReader},
	}
	for name, data := range inputs {
		for _, want := range fastPathWants {
			opts := Options{Year: 2026, Want: want, Workers: 1}
			whole := readRendered(t, bytes.NewReader(data), opts)
			for _, w := range wrappers {
				if got := readRendered(t, w.wrap(bytes.NewReader(data)), opts); got != whole {
					t.Errorf("%s, %s: read differs from the input read at once:\n%s\nwant\n%s", name, w.name, got, whole)
				}
			}
			// A read error after half of the input: the lines before it,
			// then the error, whatever the size of the reads.
			fail := func(r io.Reader) io.Reader {
				return io.MultiReader(io.LimitReader(r, int64(len(data)/2)), iotest.ErrReader(errors.New("disk on fire")))
			}
			broken := readRendered(t, fail(bytes.NewReader(data)), opts)
			if got := readRendered(t, fail(iotest.OneByteReader(bytes.NewReader(data))), opts); got != broken {
				t.Errorf("%s, read error: one byte a read differs:\n%s\nwant\n%s", name, got, broken)
			}
		}
	}
}

// readRendered renders every record, the error that ended the input and the
// Stats of reading r.
func readRendered(t *testing.T, r io.Reader, opts Options) string {
	t.Helper()
	rd := NewReader(r, opts)
	var b strings.Builder
	for {
		rec, err := rd.Next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				b.WriteString("error: " + err.Error() + "\n")
			}
			break
		}
		rr := *rec
		rr.Fields = nil
		if len(rec.Fields) > 0 {
			rr.Fields = expandFields(rec.Fields)
		}
		fmt.Fprintf(&b, "%#v\n", rr)
	}
	fmt.Fprintf(&b, "%#v\n", rd.Stats())
	return b.String()
}

// firstLines returns the first n lines of b.
func firstLines(b []byte, n int) []byte {
	end := 0
	for ; n > 0 && end < len(b); n-- {
		nl := bytes.IndexByte(b[end:], '\n')
		if nl < 0 {
			return b
		}
		end += nl + 1
	}
	return b[:end]
}
