package parser

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"
)

// Source is one input: a file named on the command line, a log file found
// in a directory, or standard input ("-").
type Source struct {
	Name      string    // as shown in positions and errors: the path as given or found, "-" for stdin
	Path      string    // file system path; "" for stdin
	Node      string    // node from the directory layout (kind, Cluster API, must-gather); "" when none
	Component string    // kubelet, containerd or crio when the file name says so; "" otherwise
	ModTime   time.Time // modification time (zero for stdin)
	Size      int64     // size on disk (compressed), -1 for stdin
	Rotation  int       // n of kubelet.log.n[.gz]; 0 for the live file
	// Info is the file as found (nil for stdin): a follow opening the path
	// again after the first pass tells by it whether the file was rotated
	// in between.
	Info os.FileInfo

	stdin *stdinInput
}

// IsStdin reports whether the source is standard input.
func (s Source) IsStdin() bool { return s.stdin != nil }

// stdinInput is standard input, or another stream, read once. Nothing of
// it is written anywhere: the records a view will read back are kept in
// memory as they go by (keep.go).
type stdinInput struct {
	mu     sync.Mutex
	r      io.Reader
	name   string // "" for standard input ("-"); a stream's name (StreamSource)
	opened bool
	ring   *streamRing // the latest text, with Options.KeepStream
	kept   keptLines
	every  bool // keep every record returned (KeepEvery)
}

// Skipped is a file a directory walk passed over, with the reason.
type Skipped struct {
	Path   string
	Reason string
}

// Discover turns command-line paths into sources: "-" is stdin, files are
// taken as they are, directories are walked for kubelet and container
// runtime logs. A bad path gives an error naming it; the good ones are
// still returned.
func Discover(paths []string, stdin io.Reader) ([]Source, []error) {
	srcs, _, errs := DiscoverReport(paths, stdin)
	return srcs, errs
}

// DiscoverReport is Discover that also lists the files a directory walk
// skipped (configuration, version files, container logs, …).
func DiscoverReport(paths []string, stdin io.Reader) (srcs []Source, skipped []Skipped, errs []error) {
	seenStdin := false
	for _, p := range paths {
		if p == "-" {
			if seenStdin {
				errs = append(errs, errors.New("-: standard input given more than once"))
				continue
			}
			seenStdin = true
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			srcs = append(srcs, Source{Name: "-", Size: -1, stdin: &stdinInput{r: stdin}})
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			errs = append(errs, pathError(p, err))
			continue
		}
		if !fi.IsDir() {
			if !fi.Mode().IsRegular() && fi.Mode()&fs.ModeNamedPipe == 0 && fi.Mode()&fs.ModeCharDevice == 0 {
				errs = append(errs, fmt.Errorf("%s: not a regular file", p))
				continue
			}
			comp, rot, _ := logName(filepath.Base(p))
			srcs = append(srcs, Source{Name: p, Path: p, Component: comp, ModTime: fi.ModTime(), Size: fi.Size(), Rotation: rot, Info: fi})
			continue
		}
		found, sk, werrs := walkDir(p)
		srcs = append(srcs, found...)
		skipped = append(skipped, sk...)
		errs = append(errs, werrs...)
	}
	return srcs, skipped, errs
}

func pathError(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", p, pe.Err)
	}
	return fmt.Errorf("%s: %w", p, err)
}

// skipExt are extensions a directory walk never reads.
var skipExt = map[string]bool{
	".json": true, ".yaml": true, ".yml": true, ".pem": true, ".crt": true, ".key": true,
	".tar": true, ".tgz": true, ".sh": true, ".go": true, ".md": true, ".conf": true,
	".service": true, ".xml": true, ".html": true, ".png": true, ".csv": true, ".toml": true,
}

func walkDir(root string) (srcs []Source, skipped []Skipped, errs []error) {
	type cand struct {
		src  Source
		name string // base name without rotation and compression
	}
	var cands []cand
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, pathError(path, err))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		base := d.Name()
		if d.IsDir() {
			if path != root && strings.HasPrefix(base, ".") {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasPrefix(base, ".") {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			// Links are not followed (a pod log's link would be read as
			// a node's), but one that leads nowhere is said.
			if err := LinkError(path); err != nil {
				errs = append(errs, err)
			} else {
				skipped = append(skipped, Skipped{path, "a symbolic link; not followed (name its target to read it)"})
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		comp, rot, stem := logName(base)
		if skipExt[strings.ToLower(filepath.Ext(stem))] {
			skipped = append(skipped, Skipped{path, "not a log file"})
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			errs = append(errs, pathError(path, err))
			return nil
		}
		src := Source{Name: path, Path: path, Component: comp, ModTime: fi.ModTime(), Size: fi.Size(), Rotation: rot, Node: nodeOf(root, path), Info: fi}
		if comp == "" {
			why, err := sniff(src)
			if err != nil {
				errs = append(errs, unreadable(path, err))
				return nil
			}
			if why != "" {
				skipped = append(skipped, Skipped{path, why})
				return nil
			}
		}
		cands = append(cands, cand{src, stem})
		return nil
	})
	if err != nil {
		errs = append(errs, pathError(root, err))
	}
	// A full journal next to the per-unit logs (kind export logs) repeats
	// them: read the per-unit files.
	hasUnit := map[string]bool{}
	for _, c := range cands {
		if c.src.Component != "" {
			hasUnit[filepath.Dir(c.src.Path)] = true
		}
	}
	for _, c := range cands {
		if c.name == "journal.log" && hasUnit[filepath.Dir(c.src.Path)] {
			skipped = append(skipped, Skipped{c.src.Path, "full journal; the kubelet and runtime logs beside it are read instead"})
			continue
		}
		srcs = append(srcs, c.src)
	}
	unnameCollections(srcs)
	sort.SliceStable(srcs, func(i, j int) bool {
		a, b := srcs[i], srcs[j]
		if a.Node != b.Node {
			return a.Node < b.Node
		}
		if da, db := filepath.Dir(a.Path), filepath.Dir(b.Path); da != db {
			return da < db
		}
		_, _, sa := logName(filepath.Base(a.Path))
		_, _, sb := logName(filepath.Base(b.Path))
		if sa != sb {
			return sa < sb
		}
		return a.Rotation > b.Rotation // oldest rotation first
	})
	return srcs, skipped, errs
}

// nodeOf names the node a walked file belongs to: the directory holding
// it, below the walk root (kind: <node>/kubelet.log; Cluster API:
// machines/<node>/kubelet.log; must-gather: nodes/<node>/…). A file right
// in the root is a node's only when the root sits under machines/ or nodes/.
func nodeOf(root, path string) string {
	dir := filepath.Dir(path)
	if filepath.Clean(dir) == filepath.Clean(root) {
		abs, err := filepath.Abs(root)
		if err != nil {
			return ""
		}
		switch filepath.Base(filepath.Dir(abs)) {
		case "machines", "nodes":
			return filepath.Base(abs)
		}
		return ""
	}
	return filepath.Base(dir)
}

// unnameCollections takes the node name back from the files of a
// directory that holds several kubelet logs, not one log and its
// rotations: such a directory is a collection (logs/v1.36/happy.log,
// logs/v1.36/crash.log, …), not a node's, and naming its files' node
// after it would merge different nodes' logs into one. Their nodes come
// from the logs then, as for files named one by one.
func unnameCollections(srcs []Source) {
	stems := map[string]string{} // directory -> a kubelet log's stem in it
	collection := map[string]bool{}
	for _, s := range srcs {
		if s.Node == "" || s.Component == "containerd" || s.Component == "crio" {
			continue
		}
		dir := filepath.Dir(s.Path)
		_, _, stem := logName(filepath.Base(s.Path))
		if first, ok := stems[dir]; !ok {
			stems[dir] = stem
		} else if first != stem {
			collection[dir] = true
		}
	}
	for i := range srcs {
		if collection[filepath.Dir(srcs[i].Path)] {
			srcs[i].Node = ""
		}
	}
}

// logName reads a log file name: the component it names, the rotation
// number (kubelet.log.2.gz -> 2) and the name without rotation and
// compression suffixes.
func logName(base string) (component string, rotation int, stem string) {
	stem = base
	for _, ext := range []string{".gz", ".zst", ".zstd"} {
		stem = strings.TrimSuffix(stem, ext)
	}
	if i := strings.LastIndexByte(stem, '.'); i > 0 {
		if n, err := strconv.Atoi(stem[i+1:]); err == nil && n >= 0 {
			rotation, stem = n, stem[:i]
		}
	}
	low := strings.ToLower(stem)
	switch {
	case strings.Contains(low, "containerd"):
		component = "containerd"
	case strings.Contains(low, "crio"), strings.Contains(low, "cri-o"):
		component = "crio"
	case strings.Contains(low, "kubelet"), strings.Contains(low, "kubenswrapper"),
		strings.Contains(low, "hyperkube"), strings.Contains(low, "kubelite"):
		component = "kubelet"
	}
	return component, rotation, stem
}

// sniff says why a file is not taken, or "" when the first 16 KiB of it
// hold klog, klog JSON or logrus records, bare or behind journald, paste or
// grep prefixes.
// A file that cannot be opened is an error, not a file passed over.
func sniff(src Source) (string, error) {
	const none = "no kubelet or container runtime lines"
	rc, err := src.Open()
	if err != nil {
		var nt *NotTextError
		if errors.As(err, &nt) {
			return nt.What + ", not a text log", nil
		}
		var pe *fs.PathError
		if errors.As(err, &pe) || errors.Is(err, fs.ErrPermission) {
			return "", err
		}
		return none, nil
	}
	defer rc.Close()
	// From the end of a copytruncate hole, if the file starts with one.
	br := bufio.NewReaderSize(rc, 16<<10)
	for {
		b, _ := br.Peek(br.Size())
		k := zeros(b)
		br.Discard(k)
		if k < len(b) || len(b) == 0 {
			break
		}
	}
	buf := make([]byte, 16<<10)
	n, _ := io.ReadFull(br, buf)
	rd := NewReader(bytes.NewReader(buf[:n]), Options{NoPrescan: true, Year: 2000})
	for {
		rec, err := rd.Next()
		if err != nil {
			return none, nil
		}
		if rec.Format != FormatJSON || !rec.Time.IsZero() {
			return "", nil
		}
	}
}

// Open returns the source's bytes, decompressed when they start with the
// gzip or zstd magic number. Standard input can be opened once; what of
// it ReadRaw reads back is what was kept of it (MultiReader.Keep).
func (s Source) Open() (io.ReadCloser, error) {
	if s.stdin != nil {
		return s.stdin.open()
	}
	f, err := openFile(s.Path, s.Name)
	if err != nil {
		return nil, pathError(s.Name, err)
	}
	rc, err := openText(f, s.Name)
	if err != nil {
		f.Close()
		return nil, err
	}
	guard(rc, f.within)
	return rc, nil
}

// guard puts a lineGuard on the text openText returned.
func guard(rc io.ReadCloser, within func() bool) {
	sr := rc.(*stackReader)
	sr.r = &lineGuard{r: sr.r, within: within}
}

// openText is decompress that also refuses content that is not a text log
// (see checkText). Closing the result closes r; on error r is not closed.
func openText(r io.ReadCloser, name string) (io.ReadCloser, error) {
	rc, err := decompress(r, name)
	if err != nil {
		return nil, err
	}
	sr := rc.(*stackReader)
	var head []byte
	if br, ok := sr.r.(*bufio.Reader); ok {
		head, _ = br.Peek(sniffBytes) // a read error shows again on the first Read
		// Plain text: what the buffer holds is served once, and the
		// buffer goes with it, so that a reader waiting in a merge of many
		// inputs does not keep it (its own Reader buffers the input).
		held, _ := br.Peek(br.Buffered())
		sr.r = &headReader{head: held, r: r}
	} else {
		// Decompressed: read the head and serve it again before the rest.
		buf := make([]byte, sniffBytes)
		n, err := io.ReadFull(sr.r, buf)
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			err = nil
		}
		head = buf[:n]
		sr.r = &headReader{head: head, err: err, r: sr.r}
	}
	if err := checkText(head, name); err != nil {
		// Close the decompressor only: the caller closes r.
		for _, c := range sr.closers[:len(sr.closers)-1] {
			c.Close()
		}
		return nil, err
	}
	return rc, nil
}

// headReader serves head, then err if there was one, then r.
type headReader struct {
	head []byte
	err  error
	r    io.Reader
}

func (h *headReader) Read(p []byte) (int, error) {
	if len(h.head) > 0 {
		n := copy(p, h.head)
		h.head = h.head[n:]
		if len(h.head) == 0 {
			h.head = nil // (its memory goes)
		}
		return n, nil
	}
	if h.err != nil {
		return 0, h.err
	}
	return h.r.Read(p)
}

// sniffBytes is how much of a (decompressed) input checkText looks at.
const sniffBytes = 4096

// ErrNotText is what a *NotTextError is: an input podflow refuses to
// parse because it is not a UTF-8 (or ASCII) text log.
var ErrNotText = errors.New("not a text log")

// NotTextError says what an input is instead of a text log and how to
// turn it into one.
type NotTextError struct {
	Input string
	What  string // "UTF-16LE text", "a binary systemd journal", …
	Hint  string // the command that converts it, or what to pass instead
}

func (e *NotTextError) Error() string {
	return fmt.Sprintf("%s: %s, not a UTF-8 text log; %s", e.Input, e.What, e.Hint)
}

func (e *NotTextError) Is(target error) bool { return target == ErrNotText }

// checkText refuses inputs that would parse into garbage: UTF-16 and
// UTF-32 text (Windows tools and PowerShell redirection write it), binary
// systemd journals, archives and compressions podflow does not open, and
// binary data. head is the first bytes of the decompressed input.
func checkText(head []byte, name string) error {
	file := name
	if name == "-" {
		file = "<file>"
	}
	iconv := func(enc string) error {
		return &NotTextError{Input: name, What: enc + " text",
			Hint: fmt.Sprintf("convert it first: iconv -f %s -t UTF-8 %s > %s", enc, file, utf8Name(file))}
	}
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe, 0, 0}):
		return iconv("UTF-32LE")
	case bytes.HasPrefix(head, []byte{0, 0, 0xfe, 0xff}):
		return iconv("UTF-32BE")
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		return iconv("UTF-16LE")
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		return iconv("UTF-16BE")
	case bytes.HasPrefix(head, []byte("LPKSHHRH")):
		return &NotTextError{Input: name, What: "a binary systemd journal file",
			Hint: fmt.Sprintf("export it first: journalctl --file %s -o short-precise > kubelet.log", file)}
	case bytes.HasPrefix(head, []byte{0xfd, '7', 'z', 'X', 'Z', 0}):
		return &NotTextError{Input: name, What: "xz-compressed data", Hint: fmt.Sprintf("decompress it first: xz -dk %s", file)}
	case len(head) >= 4 && string(head[:3]) == "BZh" && head[3] >= '1' && head[3] <= '9':
		return &NotTextError{Input: name, What: "bzip2-compressed data", Hint: fmt.Sprintf("decompress it first: bunzip2 -k %s", file)}
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return &NotTextError{Input: name, What: "a zip archive", Hint: "extract it and pass the directory"}
	case len(head) >= 262 && string(head[257:262]) == "ustar":
		return &NotTextError{Input: name, What: "a tar archive", Hint: "extract it (tar xf) and pass the directory"}
	}
	if enc := utf16NoBOM(head); enc != "" {
		return iconv(enc)
	}
	if binaryData(head) {
		return &NotTextError{Input: name, What: "binary data", Hint: "pass the kubelet's text log (kubelet.log, journalctl -u kubelet output)"}
	}
	if bytes.IndexByte(head, '\n') < 0 && bytes.Count(head, []byte{'\r'}) >= 2 {
		// Classic Mac line ends: the whole input would be one line.
		return &NotTextError{Input: name, What: "text with CR line ends",
			Hint: fmt.Sprintf("convert it first: tr '\\r' '\\n' < %s > %s", file, strings.Replace(utf8Name(file), ".utf8", ".lf", 1))}
	}
	return nil
}

func utf8Name(file string) string {
	if file == "<file>" {
		return "kubelet.log"
	}
	ext := filepath.Ext(file)
	return strings.TrimSuffix(filepath.Base(file), ext) + ".utf8" + ext
}

// utf16NoBOM recognises UTF-16 text without a byte-order mark by its
// ASCII characters: every other byte is zero.
func utf16NoBOM(head []byte) string {
	pairs, le, be := 0, 0, 0
	for i := 0; i+1 < len(head); i += 2 {
		pairs++
		switch {
		case head[i] != 0 && head[i+1] == 0:
			le++
		case head[i] == 0 && head[i+1] != 0:
			be++
		}
	}
	switch {
	case pairs < 4:
		return ""
	case le*10 >= pairs*7:
		return "UTF-16LE"
	case be*10 >= pairs*7:
		return "UTF-16BE"
	}
	return ""
}

// binaryData reports a head with more control bytes than text has. NULs
// in long runs are not counted: a log rotated with copytruncate while the
// kubelet kept writing starts with a hole of zeros before its text.
func binaryData(head []byte) bool {
	bad, n := 0, len(head)
	for i := 0; i < len(head); i++ {
		c := head[i]
		if c == 0 {
			j := i
			for j < len(head) && head[j] == 0 {
				j++
			}
			if j-i >= 64 || i == 0 || j == len(head) {
				n -= j - i
			} else {
				bad += j - i
			}
			i = j - 1
			continue
		}
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b && c != '\b' || c == 0x7f {
			bad++
		}
	}
	return n > 0 && bad*100 > n*3
}

// decompress wraps r in a gzip or zstd reader when its first bytes say so.
// Closing the result closes r.
// The text of a compressed input is bounded by MaxRatio (ratioGuard).
func decompress(r io.ReadCloser, name string) (io.ReadCloser, error) {
	cr := &countReader{r: r}
	br := bufio.NewReaderSize(cr, smallBuf(r, 64<<10))
	consumed := func() int64 { return cr.n - int64(br.Buffered()) }
	magic, _ := br.Peek(4)
	switch {
	case len(magic) >= 2 && magic[0] == 0x1f && magic[1] == 0x8b:
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		return &stackReader{r: newRatioGuard(&corruptReader{r: zr, what: "gzip"}, "gzip", consumed), closers: []io.Closer{zr, r}}, nil
	case len(magic) == 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f && magic[3] == 0xfd:
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return nil, fmt.Errorf("%s: zstd: %w", name, err)
		}
		return &stackReader{r: newRatioGuard(&corruptReader{r: zr, what: "zstd"}, "zstd", consumed), closers: []io.Closer{zstdCloser{zr}, r}}, nil
	}
	return &stackReader{r: br, closers: []io.Closer{r}}, nil
}

type zstdCloser struct{ d *zstd.Decoder }

func (z zstdCloser) Close() error { z.d.Close(); return nil }

// stackReader reads from r and closes a stack of readers.
type stackReader struct {
	r       io.Reader
	closers []io.Closer
}

func (s *stackReader) Read(p []byte) (int, error) { return s.r.Read(p) }

func (s *stackReader) Close() error {
	var errs []error
	for _, c := range s.closers {
		if err := c.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// corruptReader names decompression errors (a truncated gzip stream gives
// io.ErrUnexpectedEOF, which alone says little).
type corruptReader struct {
	r    io.Reader
	what string
}

func (c *corruptReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err != nil && err != io.EOF && !errors.Is(err, ErrChanged) {
		err = fmt.Errorf("truncated or corrupt %s stream: %w", c.what, err)
	}
	return n, err
}

func (s *stdinInput) open() (io.ReadCloser, error) { return s.openIdle(false) }

// openIdle is open; with idle, the stream says ErrIdle when it has given
// every whole line it has for now (Options.StreamIdle, idleReader).
func (s *stdinInput) openIdle(idle bool) (io.ReadCloser, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := s.name
	if name == "" {
		name = "-"
	}
	if s.opened {
		return nil, fmt.Errorf("%s: can be read only once", name)
	}
	s.opened = true
	r, within := s.r, func() bool { return false }
	if f, ok := r.(*os.File); ok {
		// Redirected from a file: its holes end where it does.
		if h := stdinFile(f); h.regular {
			r, within = h, h.within
		}
	}
	var raw io.ReadCloser = io.NopCloser(r)
	var ir *idleReader
	if idle {
		ir = newIdleReader(r)
		raw = ir
	}
	rc, err := openText(raw, name)
	if err != nil {
		if ir != nil {
			ir.Close()
		}
		return nil, err
	}
	if ir != nil {
		ir.opened()
	}
	guard(rc, within)
	return rc, nil
}

// holdRing has the text of s, which open returned as rc, pass through a
// ring of its latest bytes, from which MultiReader.Keep copies records.
func (s *stdinInput) holdRing(rc io.ReadCloser) {
	sr := rc.(*stackReader)
	ring := &streamRing{r: sr.r, buf: make([]byte, ringBytes)}
	sr.r = ring
	s.mu.Lock()
	s.ring = ring
	s.mu.Unlock()
}

// ReadRaw reads back the raw lines of a record by position: the bytes
// from pos.Offset, pos.Length long, of the decompressed input (prefixes
// and continuation lines included, the last newline not). For a stream
// it reads what was kept of it (MultiReader.Keep).
func ReadRaw(src Source, pos Position) ([]byte, error) {
	r := NewRawReader(src)
	defer r.Close()
	raw, err := r.Read(pos)
	return bytes.Clone(raw), err
}
