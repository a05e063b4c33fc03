package printers

// JSON and YAML output: documents written whole or streamed an item at a
// time, encoded on every core, in the order of the items.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/podflow/podflow/internal/sanitize"
	"github.com/podflow/podflow/timeline"
	"go.yaml.in/yaml/v3"
)

// PrintJSON writes v as indented JSON. Log text keeps every character,
// those that could act on a terminal or a CI log \u-escaped
// (sanitize.EscapeJSON).
func PrintJSON(w io.Writer, v any) error {
	return Buffered(w, func(w io.Writer) error { return printJSONTo(w, v) })
}

func printJSONTo(w io.Writer, v any) error {
	if fl, ok := v.(*timeline.FlowList); ok && len(fl.Items) > 0 {
		env := *fl
		env.Items = []timeline.Flow{}
		return streamJSON(sanitize.JSONWriter(w), &env, "items", len(fl.Items), func(i int) any { return &fl.Items[i] })
	}
	return WriteJSON(w, v)
}

// Buffered gives print a buffered writer over w and flushes it: a
// streamed document is written an item (a Chrome event: some 200 bytes)
// at a time, and each write went down the terminal layer to a system
// call, 11% of trace -o chrome's CPU on the 1 GiB bench log.
func Buffered(w io.Writer, print func(io.Writer) error) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := print(bw); err != nil {
		_ = bw.Flush() // what was written before the error still shows
		return err
	}
	return bw.Flush()
}

// WriteJSON is printJSON for any value, as one document.
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(sanitize.JSONWriter(w))
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// streamJSON writes env, whose top-level field key is an empty list, as
// WriteJSON would write it with that list holding item(0) … item(n-1),
// byte for byte, but a few items at a time (encoded on every core):
// encoding/json builds a whole document in memory before writing it, some
// 200 MB for the FlowList of a log of 10,000 pods.
func streamJSON(w io.Writer, env any, key string, n int, item func(int) any) error {
	err := StreamJSONIn(w, env, key, 0, func(l *JSONList) error { return l.addAll(n, item) })
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, "\n")
	return err
}

// StreamJSONIn writes env as writeJSON would write it depth levels in
// (without the final newline), its field key, an empty list, holding the
// items fill adds, one at a time. Lists within the items are streamed
// the same way with jsonList.nest.
func StreamJSONIn(w io.Writer, env any, key string, depth int, fill func(*JSONList) error) error {
	var buf bytes.Buffer
	if err := encodeJSONAt(&buf, env, depth); err != nil {
		return err
	}
	// The field is the key at env's own indent: a key further in is
	// indented more, and inside a string a quote would be escaped.
	indent := strings.Repeat("  ", depth)
	empty := "\n" + indent + "  " + strconv.Quote(key) + ": []"
	head := buf.Bytes()
	at := bytes.Index(head, []byte(empty))
	if at < 0 {
		return fmt.Errorf("json: no %s in the envelope", key)
	}
	at += len(empty) - len("[]")
	if _, err := w.Write(append(head[:at:at], '[')); err != nil {
		return err
	}
	l := &JSONList{w: w, depth: depth + 2}
	if err := fill(l); err != nil {
		return err
	}
	end := "\n" + indent + "  ]"
	if l.n == 0 {
		end = "]"
	}
	if _, err := io.WriteString(w, end); err != nil {
		return err
	}
	_, err := w.Write(head[at+len("[]"):])
	return err
}

// JSONList is a list streamJSONIn is writing, its items depth levels in.
type JSONList struct {
	w     io.Writer
	depth int
	n     int // items written
	buf   bytes.Buffer
	enc   *json.Encoder // into buf, at depth
}

// Add writes v as the next item.
func (l *JSONList) Add(v any) error {
	if l.enc == nil {
		l.enc = jsonEncoderAt(&l.buf, l.depth)
	}
	l.buf.Reset()
	l.sep(&l.buf)
	if err := l.enc.Encode(v); err != nil {
		return err
	}
	l.buf.Truncate(l.buf.Len() - 1) // Encode's newline
	_, err := l.w.Write(l.buf.Bytes())
	return err
}

// AddJSON writes the next item with an appender of its own that writes
// what jsonEncoderAt's Encode would at prefix (internal/trace's events
// and spans), without reflecting per field.
func (l *JSONList) AddJSON(appendItem func(dst []byte, prefix string) []byte) error {
	prefix := indentOf(l.depth)
	l.buf.Reset()
	l.sep(&l.buf)
	b := appendItem(l.buf.Bytes(), prefix)
	_, err := l.w.Write(b)
	l.buf = *bytes.NewBuffer(b[:0])
	return err
}

// indentOf is depth levels of indent, two spaces each.
func indentOf(depth int) string {
	const spaces = "                                "
	if 2*depth <= len(spaces) {
		return spaces[:2*depth]
	}
	return strings.Repeat("  ", depth)
}

// EncodeInOrder encodes items 0 … n-1 with encode on every core, a batch
// at a time, and gives each one's bytes to write in order: the YAML
// encoder takes some 2 ms a pod, encoding/json 0.2 ms, and a list of
// 10,000 pods is seconds on one core. encode is told which worker (0 …
// GOMAXPROCS-1) calls it, for state of its own.
func EncodeInOrder(n int, encode func(worker, i int, buf *bytes.Buffer) error, write func([]byte) error) error {
	const batch = 64
	workers := runtime.GOMAXPROCS(0)
	// Two sets of buffers: the writer writes one batch while the workers
	// encode the next.
	type set struct {
		bufs []bytes.Buffer
		errs []error
		wg   sync.WaitGroup
	}
	var sets [2]set
	for k := range sets {
		sets[k].bufs = make([]bytes.Buffer, min(batch, n))
		sets[k].errs = make([]error, min(batch, n))
	}
	start := func(from int, st *set) {
		m := min(batch, n-from)
		for k := range min(workers, m) {
			st.wg.Go(func() {
				for i := k; i < m; i += workers {
					st.bufs[i].Reset()
					st.errs[i] = encode(k, from+i, &st.bufs[i])
				}
			})
		}
	}
	if n > 0 {
		start(0, &sets[0])
	}
	for from, b := 0, 0; from < n; from, b = from+batch, 1-b {
		st := &sets[b]
		st.wg.Wait()
		if from+batch < n {
			start(from+batch, &sets[1-b])
		}
		for i := range min(batch, n-from) {
			err := st.errs[i]
			if err == nil {
				err = write(st.bufs[i].Bytes())
			}
			if err != nil {
				sets[1-b].wg.Wait()
				return err
			}
		}
	}
	return nil
}

// addAll writes item(0) … item(n-1) as the next items, encoded on every
// core (encodeInOrder), each worker with an encoder of its own: one per
// item made more garbage than the second core saved.
func (l *JSONList) addAll(n int, item func(int) any) error {
	indent := strings.Repeat("  ", l.depth)
	workers := make([]compactJSON, runtime.GOMAXPROCS(0))
	first := l.n
	l.n += n
	return EncodeInOrder(n, func(k, i int, out *bytes.Buffer) error {
		v := item(i)
		b := out.AvailableBuffer()
		if first+i > 0 {
			b = append(b, ',')
		}
		b = append(b, '\n')
		b = append(b, indent...)
		if f, ok := v.(*timeline.Flow); ok {
			// A flow is written indented as it is walked.
			if fb, err := appendFlowJSONIndent(b, f, indent); err == nil {
				out.Write(fb)
				return nil
			}
		}
		js, err := workers[k].encode(v)
		if err != nil {
			return err
		}
		out.Write(appendIndented(b, js, indent))
		return nil
	}, func(b []byte) error {
		_, err := l.w.Write(b)
		return err
	})
}

// compactJSON encodes values compact as encoding/json's Encoder with
// SetEscapeHTML(false) writes them, a flow with appendFlowJSON, anything
// else with the Encoder; it reuses its buffers.
type compactJSON struct {
	b   []byte
	buf bytes.Buffer
	enc *json.Encoder // into buf
}

// encode returns v's JSON, without Encode's final newline, valid until
// the next call.
func (c *compactJSON) encode(v any) ([]byte, error) {
	if f, ok := v.(*timeline.Flow); ok {
		b, err := appendFlowJSON(c.b[:0], f)
		if err == nil {
			c.b = b
			return b, nil
		}
		// A time RFC 3339 cannot hold: encoding/json fails on it
		// too, and its error names the type.
	}
	if c.enc == nil {
		c.enc = json.NewEncoder(&c.buf)
		c.enc.SetEscapeHTML(false)
	}
	c.buf.Reset()
	if err := c.enc.Encode(v); err != nil {
		return nil, err
	}
	return c.buf.Bytes()[:c.buf.Len()-1], nil
}

// appendIndented appends the compact JSON encoding/json wrote, indented
// as its Encoder's SetIndent(prefix, "  ") would indent it: a line per
// member and element, ": " after keys, {} and [] for empty ones. The
// library's indenting runs its scanner over every byte (12% of -o json's
// CPU); this walk only has to tell strings from structure.
func appendIndented(dst, src []byte, prefix string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		dst = append(dst, prefix...)
		for range depth {
			dst = append(dst, "  "...)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := stringEnd(src, i)
			dst = append(dst, src[i:min(j+1, len(src))]...)
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// stringEnd is where the JSON string that opens at src[i] closes: its
// next quote not escaped (one after an even run of backslashes), len(src)
// when none. A string is most of the bytes: IndexByte goes to each quote
// at once.
func stringEnd(src []byte, i int) int {
	for j := i + 1; ; j++ {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			return len(src)
		}
		j += k
		n := 0
		for b := j - 1; b > i && src[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return j
		}
	}
}

// Nest writes env as the next item, its field key a list streamed with
// fill.
func (l *JSONList) Nest(env any, key string, fill func(*JSONList) error) error {
	l.buf.Reset()
	l.sep(&l.buf)
	if _, err := l.w.Write(l.buf.Bytes()); err != nil {
		return err
	}
	return StreamJSONIn(l.w, env, key, l.depth, fill)
}

// sep writes what comes before the next item.
func (l *JSONList) sep(b *bytes.Buffer) {
	if l.n > 0 {
		b.WriteByte(',')
	}
	l.n++
	b.WriteByte('\n')
	for range l.depth {
		b.WriteString("  ")
	}
}

// encodeJSONAt writes v as writeJSON would write it depth levels in,
// without the final newline.
func encodeJSONAt(w io.Writer, v any, depth int) error {
	var buf bytes.Buffer
	if err := jsonEncoderAt(&buf, depth).Encode(v); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes()[:buf.Len()-1])
	return err
}

// jsonEncoderAt is an encoder into w that writes as writeJSON does depth
// levels in.
func jsonEncoderAt(w io.Writer, depth int) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetIndent(strings.Repeat("  ", depth), "  ")
	enc.SetEscapeHTML(false)
	return enc
}

// PrintYAML writes v as YAML with the keys and order its JSON form has:
// marshal to JSON, read that as a YAML node tree (JSON is YAML), switch
// the tree to block style and encode it. YAML is read by people: its
// scalars are cleaned as terminal text (SanitizeLines), since the YAML
// encoder writes bidi and other hidden characters raw.
func PrintYAML(w io.Writer, v any) error {
	return Buffered(w, func(w io.Writer) error { return printYAMLTo(w, v) })
}

func printYAMLTo(w io.Writer, v any) error {
	if fl, ok := v.(*timeline.FlowList); ok && len(fl.Items) > 0 {
		return streamFlowListYAML(w, fl)
	}
	return WriteYAML(w, v)
}

// streamFlowListYAML writes a FlowList as writeYAML would, byte for byte,
// one item at a time: the node tree of a whole list costs some 1 KB of
// memory per byte of YAML, a gigabyte for a log of 1,000 pods.
func streamFlowListYAML(w io.Writer, fl *timeline.FlowList) error {
	env := *fl
	env.Items = []timeline.Flow{}
	var buf bytes.Buffer
	if err := WriteYAML(&buf, &env); err != nil {
		return err
	}
	// Top-level keys alone start a line: a string holding this text is
	// quoted or indented.
	const empty = "\nitems: []\n"
	head := bytes.Clone(buf.Bytes())
	at := bytes.Index(head, []byte(empty))
	if at < 0 {
		return fmt.Errorf("yaml: no items in the FlowList envelope")
	}
	if _, err := w.Write(append(head[:at+1:at+1], "items:\n"...)); err != nil {
		return err
	}
	// The items are encoded on every core, each worker with a YAML writer
	// of its own (yamlwriter.go).
	workers := make([]yamlItemWriter, runtime.GOMAXPROCS(0))
	err := EncodeInOrder(len(fl.Items), func(k, i int, out *bytes.Buffer) error {
		return workers[k].write(out, &fl.Items[i])
	}, func(b []byte) error {
		_, err := w.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	_, err = w.Write(head[at+len(empty):])
	return err
}

// yamlItemWriter writes list items with a yamlWriter, reusing its
// buffers.
type yamlItemWriter struct {
	js   compactJSON
	y    yamlWriter
	flow flowYAML
	out  []byte
}

// write appends v as an item of the top-level list items:, two columns
// in: a flow straight from its fields when flowYAML can, anything else
// (and a flow it leaves) from its JSON.
func (iw *yamlItemWriter) write(out *bytes.Buffer, v any) error {
	if f, ok := v.(*timeline.Flow); ok {
		if b, ok := iw.flow.appendFlowYAML(iw.out[:0], f, 2); ok {
			iw.out = b
			out.Write(b)
			return nil
		}
	}
	js, err := iw.js.encode(v)
	if err != nil {
		return err
	}
	return iw.writeJSON(out, js)
}

// writeJSON is write for a value's JSON text js.
func (iw *yamlItemWriter) writeJSON(out *bytes.Buffer, js []byte) error {
	if b, ok := iw.y.item(iw.out[:0], js, 2); ok {
		iw.out = b
		out.Write(b)
		return nil
	}
	// What the YAML writer leaves to the library: a one-item list at the
	// top level, moved under items: every line two columns in (empty
	// lines of a block scalar stay empty).
	list := append(append([]byte{'['}, bytes.TrimSpace(js)...), ']')
	var buf bytes.Buffer
	if err := writeYAMLTree(&buf, list); err != nil {
		return err
	}
	for line := range bytes.Lines(buf.Bytes()) {
		if len(line) > 1 {
			out.WriteString("  ")
		}
		out.Write(line)
	}
	return nil
}

// WriteYAML is printYAML for any value, as one document.
func WriteYAML(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var y yamlWriter
	if out, ok := y.document(nil, b); ok {
		_, err := w.Write(out)
		return err
	}
	return writeYAMLTree(w, b)
}

// writeYAMLTree writes the JSON text b as a YAML document through
// the library: b as a block-style node tree.
func writeYAMLTree(w io.Writer, b []byte) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	root, err := yamlNode(d)
	if err != nil {
		return err
	}
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(&yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{root}}); err != nil {
		return err
	}
	return enc.Close()
}

// yamlNode reads the next JSON value as a block-style YAML node tree,
// the tree yaml.Unmarshal would make of the JSON text and blockStyle
// would then restyle, in a fraction of the time (JSON is YAML, but the
// YAML parser is a slow way to read it).
func yamlNode(d *json.Decoder) (*yaml.Node, error) {
	tok, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if t == '{' {
			n.Kind, n.Tag = yaml.MappingNode, "!!map"
		}
		for d.More() {
			c, err := yamlNode(d) // an object's keys are strings, read the same way
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		if _, err := d.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	case string:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: yamlText(t)}, nil
	case json.Number:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: string(t)}, nil
	case bool:
		if t {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}, nil
	default: // nil
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
}

// yamlText is a string as a YAML scalar shows it: cleaned as terminal
// text (the YAML encoder writes bidi and other hidden characters raw),
// without the raw DEL, C1 controls and noncharacters YAML cannot hold.
func yamlText(s string) string {
	if sanitize.BelowDEL(s) { // (nearly every string: no rune to map)
		return sanitize.SanitizeLines(s)
	}
	return sanitize.SanitizeLines(strings.Map(func(r rune) rune {
		if r >= 0x7f && (sanitize.Unsafe(r) || r == 0xfffe || r == 0xffff) {
			return -1
		}
		return r
	}, s))
}
