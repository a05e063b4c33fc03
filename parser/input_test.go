package parser

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// knownUnrecognized lists testdata files with lines podflow cannot parse
// on purpose: the plain-text deprecation warning the kubelet prints before
// its JSON logging is configured, and the prose of pasted logs.
var knownUnrecognized = map[string]int64{
	"corpus/v1.28.15/08-happy-path-json-v4.log": 1,
	"corpus/v1.36.3/08-happy-path-json-v4.log":  1,
	"formats/json.log":                          1,
	"formats/pasted/md-fence-indent.log":        1,
	"formats/pasted/md-quote-fence.log":         2,
	"formats/pasted/cut-start.log":              3,
	"formats/pasted/k0s-markdown.log":           2,
	"formats/pasted/indented-block.log":         4,
}

// TestAccountingAllTestdata reads every file a walk of testdata/ picks
// and checks that every line lands in exactly one bucket, with no
// unrecognized line except the known ones.
func TestAccountingAllTestdata(t *testing.T) {
	root := filepath.Join("..", "testdata")
	srcs, skipped, errs := DiscoverReport([]string{root}, nil)
	for _, err := range errs {
		t.Error(err)
	}
	for _, s := range skipped {
		if strings.Contains(filepath.ToSlash(s.Path), "testdata/wild/") {
			continue // pastes, some of kubectl's tables alone: see TestWildCorpus
		}
		switch filepath.Ext(s.Path) {
		case ".json", ".txt", ".md":
		default:
			t.Errorf("skipped %s: %s", s.Path, s.Reason)
		}
	}
	if len(srcs) < 40 {
		t.Fatalf("only %d sources found", len(srcs))
	}
	for _, src := range srcs {
		// The wild excerpts are pastes with people's words between the
		// log lines: their unrecognized lines are prose, and cmd's
		// TestWildCorpus holds them to no unread kubelet line instead.
		wild := strings.Contains(filepath.ToSlash(src.Path), "testdata/wild/")
		rel, _ := filepath.Rel(root, src.Path)
		rel = filepath.ToSlash(rel)
		if strings.HasPrefix(rel, "formats/bad/") || strings.HasPrefix(rel, "broken/") {
			continue // broken on purpose: TestBrokenFixtures
		}
		t.Run(rel, func(t *testing.T) {
			m := NewMultiReader([]Source{src}, Options{})
			n := 0
			for {
				_, err := m.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				n++
			}
			for _, err := range m.Errors() {
				t.Error(err)
			}
			st := m.Stats()
			if !st.Accounted() {
				t.Errorf("not accounted: %+v", st)
			}
			// Every line of the file is counted: a line the reader drops
			// without counting would pass Accounted.
			if ext := filepath.Ext(src.Path); ext != ".gz" && ext != ".zst" {
				if data, err := os.ReadFile(src.Path); err == nil {
					want := int64(bytes.Count(data, []byte("\n")))
					if len(data) > 0 && data[len(data)-1] != '\n' {
						want++
					}
					if st.Lines != want {
						t.Errorf("%d lines counted, the file has %d", st.Lines, want)
					}
				}
			}
			if wild {
				return
			}
			if st.Unrecognized != knownUnrecognized[rel] {
				t.Errorf("unrecognized = %d, want %d", st.Unrecognized, knownUnrecognized[rel])
			}
			if int64(n) != st.Records || n == 0 {
				t.Errorf("returned %d records, stats say %d", n, st.Records)
			}
		})
	}
}

func TestDiscover(t *testing.T) {
	kind := filepath.Join("..", "testdata", "formats", "kind-logs")
	srcs, skipped, errs := DiscoverReport([]string{kind, "no/such/file.log", "-"}, strings.NewReader(""))
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "no/such/file.log") || !errors.Is(errs[0], fs.ErrNotExist) {
		t.Errorf("errs = %v", errs)
	}
	var got []string
	for _, s := range srcs {
		got = append(got, s.Node+"|"+s.Component+"|"+filepath.Base(s.Name))
	}
	want := "kind-control-plane|containerd|containerd.log kind-control-plane|kubelet|kubelet.log kind-worker|containerd|containerd.log kind-worker|kubelet|kubelet.log ||-"
	if strings.Join(got, " ") != want {
		t.Errorf("sources:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	if len(skipped) != 5 {
		t.Errorf("skipped = %v", skipped)
	}

	layouts := []struct{ dir, node string }{
		{"capi", "wl-1-md-0-x7k2p"},
		{"must-gather", "worker-0.ocp.example"},
	}
	for _, l := range layouts {
		srcs, _ := Discover([]string{filepath.Join("..", "testdata", "formats", l.dir)}, nil)
		if len(srcs) != 1 || srcs[0].Node != l.node || srcs[0].Component != "kubelet" {
			t.Errorf("%s: %+v", l.dir, srcs)
		}
	}

	// A directory of several kubelet logs (the corpus: one folder per
	// kubelet version) is a collection, not a node: its files name no
	// node, while a node's folder with its rotations and runtime log does.
	srcs, _ = Discover([]string{filepath.Join("..", "testdata", "corpus")}, nil)
	if len(srcs) < 20 {
		t.Fatalf("corpus: %d sources", len(srcs))
	}
	for _, s := range srcs {
		if s.Node != "" {
			t.Errorf("corpus: %s names node %q", s.Path, s.Node)
		}
	}
	dir := t.TempDir()
	for _, f := range []string{"n1/kubelet.log", "n1/kubelet.log.1", "n1/kubelet.log.2.gz", "n1/containerd.log", "mix/a.log", "mix/b.log", "mix/containerd.log"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		body := "I1122 06:03:25.671345     301 kubelet.go:2709] \"SyncLoop ADD\" source=\"api\" pods=[\"default/web\"]\n"
		if strings.HasSuffix(f, ".gz") {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write([]byte(body))
			zw.Close()
			body = b.String()
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	srcs, _ = Discover([]string{dir}, nil)
	got = got[:0]
	for _, s := range srcs {
		rel, _ := filepath.Rel(dir, s.Path)
		got = append(got, s.Node+"|"+rel)
	}
	want = "|mix/a.log |mix/b.log |mix/containerd.log n1|n1/containerd.log n1|n1/kubelet.log.2.gz n1|n1/kubelet.log.1 n1|n1/kubelet.log"
	if strings.Join(got, " ") != want {
		t.Errorf("sources:\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

func TestLogName(t *testing.T) {
	tests := []struct {
		base, comp string
		rot        int
		stem       string
	}{
		{"kubelet.log", "kubelet", 0, "kubelet.log"},
		{"kubelet.log.1", "kubelet", 1, "kubelet.log"},
		{"kubelet.log.2.gz", "kubelet", 2, "kubelet.log"},
		{"containerd.log.3.zst", "containerd", 3, "containerd.log"},
		{"crio.log", "crio", 0, "crio.log"},
		{"worker-0_logs_kubelet.gz", "kubelet", 0, "worker-0_logs_kubelet"},
		{"journal.log", "", 0, "journal.log"},
	}
	for _, tt := range tests {
		c, r, s := logName(tt.base)
		if c != tt.comp || r != tt.rot || s != tt.stem {
			t.Errorf("logName(%q) = %q, %d, %q", tt.base, c, r, s)
		}
	}
}

// TestMergeRotated checks that a rotated set comes back in time order and
// that ReadRaw returns each record's lines, compressed or not.
func TestMergeRotated(t *testing.T) {
	dir := filepath.Join("..", "testdata", "formats", "rotated")
	srcs, errs := Discover([]string{dir}, nil)
	if len(errs) > 0 || len(srcs) != 3 {
		t.Fatalf("srcs %v errs %v", srcs, errs)
	}
	if srcs[0].Rotation != 2 || srcs[2].Rotation != 0 {
		t.Errorf("order: %+v", srcs)
	}
	// Reverse the order: the merge must not depend on it.
	srcs[0], srcs[2] = srcs[2], srcs[0]
	m := NewMultiReader(srcs, Options{Year: 2026})
	defer m.Close()
	var prev Record
	n := 0
	for {
		rec, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 && rec.Time.Before(prev.Time) {
			t.Errorf("record %d at %v before %v", n, rec.Time, prev.Time)
		}
		raw, err := m.ReadRaw(rec.Pos)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(raw, []byte("I1122 ")) || !bytes.Contains(raw, []byte(rec.Msg)) || bytes.HasSuffix(raw, []byte("\n")) {
			t.Errorf("raw of %v = %q", rec.Pos, raw)
		}
		prev = *rec
		n++
	}
	if n != 7 || m.Stats().Records != 7 || len(m.SourceStats()) != 3 {
		t.Errorf("n=%d stats=%+v", n, m.Stats())
	}
}

// TestMergeNodes checks two nodes' kubelet and containerd logs interleave
// by time and keep their nodes apart.
func TestMergeNodes(t *testing.T) {
	srcs, _ := Discover([]string{filepath.Join("..", "testdata", "formats", "kind-logs")}, nil)
	m := NewMultiReader(srcs, Options{Year: 2026})
	var order []string
	for {
		rec, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		order = append(order, rec.Host+"/"+rec.Component)
	}
	want := "kind-control-plane/kubelet kind-control-plane/kubelet kind-control-plane/kubelet kind-control-plane/containerd kind-worker/containerd " +
		"kind-control-plane/containerd kind-worker/containerd kind-control-plane/kubelet kind-control-plane/containerd kind-worker/containerd " +
		"kind-worker/kubelet kind-worker/kubelet kind-worker/kubelet kind-control-plane/kubelet kind-worker/kubelet kind-worker/kubelet"
	if strings.Join(order, " ") != want {
		t.Errorf("order:\n%s\nwant\n%s", strings.Join(order, " "), want)
	}
}

// TestStdinReadRaw: standard input (gzip-compressed here) is read once
// and written nowhere; the records its reader keeps as they go by
// (MultiReader.Keep) are read back, those it does not say why.
func TestStdinReadRaw(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "formats", "klog-multiline.log"))
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	srcs, errs := Discover([]string{"-"}, &gz)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	m := NewMultiReader(srcs, Options{Year: 2026, KeepStream: true})
	var positions []Position
	for {
		rec, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if raw := m.Raw(rec); !bytes.Equal(raw, data[rec.Pos.Offset:rec.Pos.Offset+int64(rec.Pos.Length)]) {
			t.Errorf("Raw %q", raw)
		}
		if len(positions) != 0 && !m.Keep(rec) { // (all but the first)
			t.Errorf("record %d not kept", len(positions))
		}
		positions = append(positions, rec.Pos)
	}
	if len(positions) != 3 {
		t.Fatalf("positions %v", positions)
	}
	raw, err := m.ReadRaw(positions[1])
	if err != nil {
		t.Fatal(err)
	}
	want := data[positions[1].Offset : positions[1].Offset+int64(positions[1].Length)]
	if !bytes.Equal(raw, want) || !bytes.HasSuffix(raw, []byte("\n >")) {
		t.Errorf("raw = %q", raw)
	}
	if _, err := m.ReadRaw(positions[0]); !errors.Is(err, ErrNotKept) || !strings.HasPrefix(err.Error(), "-:1: read once") {
		t.Errorf("a record not kept: %v", err)
	}
	if k := KeptRecords(srcs[0]); len(k) != 2 || k[0].Pos != positions[1] || !bytes.Equal(k[0].Raw, want) {
		t.Errorf("kept %+v", k)
	}
	if _, err := srcs[0].Open(); err == nil {
		t.Error("stdin opened twice")
	}
}

// TestKeepEvery: a stream marked KeepEvery keeps each record a reader
// returns, for a caller that reads lines back and keeps nothing itself
// (the TUI): every record reads back as the file gives it.
func TestKeepEvery(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "01-happy-path.log"))
	if err != nil {
		t.Fatal(err)
	}
	srcs, _ := Discover([]string{"-"}, bytes.NewReader(data))
	KeepEvery(srcs)
	m := NewMultiReader(srcs, Options{Year: 2026})
	var positions []Position
	for {
		rec, err := m.Next()
		if err != nil {
			break
		}
		positions = append(positions, rec.Pos)
	}
	raws, errs := ReadRaws(srcs, positions)
	for i, p := range positions {
		if want := data[p.Offset : p.Offset+int64(p.Length)]; errs[i] != nil || !bytes.Equal(raws[i], want) {
			t.Fatalf("line %d: %q (%v), want %q", p.Line, raws[i], errs[i], want)
		}
	}
	if len(positions) < 500 {
		t.Errorf("%d records", len(positions))
	}
}

// TestKeepBounded: a stream whose every record is kept holds KeepBytes of
// them at most, and says how many more it could not keep; the rest of the
// stream is read, and the memory it leaves held is that, not the stream.
func TestKeepBounded(t *testing.T) {
	const size = KeepBytes + KeepBytes/2
	line := klogLine + ` pad="` + strings.Repeat("x", 900) + "\"\n" // (few records, quickly read)
	in := &repeatReader{chunk: []byte(line), n: size / len(line)}
	srcs, _ := Discover([]string{"-"}, in)
	m := NewMultiReader(srcs, Options{Year: 2026, KeepStream: true})
	n, kept := 0, 0
	for {
		rec, err := m.Next()
		if err != nil {
			break
		}
		n++
		if m.Keep(rec) {
			kept++
		}
	}
	m.Close()
	if n != size/len(line) {
		t.Errorf("%d records of %d", n, size/len(line))
	}
	var held int
	for _, k := range KeptRecords(srcs[0]) {
		held += len(k.Raw)
	}
	if held > KeepBytes || kept == 0 || NotKept(srcs[0]) != int64(n-kept) {
		t.Errorf("kept %d records, %d bytes; %d not kept", kept, held, NotKept(srcs[0]))
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if ms.HeapAlloc > 2*KeepBytes+ringBytes {
		t.Errorf("%d MiB held after reading %d MiB", ms.HeapAlloc>>20, size>>20)
	}
	runtime.KeepAlive(srcs)
}

// TestTruncatedGzip checks that a cut gzip stream keeps the records read
// before the cut and reports the file and offset.
func TestTruncatedGzip(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join("..", "testdata", "corpus", "v1.36.3", "01-happy-path.log"))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(data)
	zw.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "kubelet.log.gz")
	if err := os.WriteFile(path, gz.Bytes()[:gz.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	srcs, _ := Discover([]string{path}, nil)
	m := NewMultiReader(srcs, Options{})
	n := 0
	for {
		_, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		n++
	}
	errs := m.Errors()
	var pe *ParseError
	if len(errs) != 1 || !errors.As(errs[0], &pe) || pe.Input != path || pe.Offset <= 0 {
		t.Fatalf("errors = %v", errs)
	}
	if !strings.Contains(errs[0].Error(), "truncated or corrupt gzip") || !errors.Is(errs[0], io.ErrUnexpectedEOF) {
		t.Errorf("error text: %v", errs[0])
	}
	if n < 500 || !m.Stats().Accounted() {
		t.Errorf("kept %d records; stats %+v", n, m.Stats())
	}
}

// An unreadable file is an error naming it, and reading goes on; root
// reads it anyway (CI often runs as root), so each user checks its own
// outcome rather than skipping.
func TestUnreadableFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kubelet.log")
	os.WriteFile(path, []byte(klogLine+"\n"), 0o000)
	srcs, _ := Discover([]string{path}, nil)
	m := NewMultiReader(srcs, Options{})
	records := 0
	for {
		_, err := m.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		records++
	}
	errs := m.Errors()
	if os.Getuid() == 0 {
		if records != 1 || len(errs) != 0 {
			t.Errorf("as root: %d records, errors %v; want the record read", records, errs)
		}
		return
	}
	if records != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), path) {
		t.Errorf("%d records, errors = %v; want one error naming %s", records, errs, path)
	}
}

// TestBadInput feeds hostile bytes: a 16 MiB line, invalid UTF-8, NUL
// bytes, unclosed values. Nothing may panic and every line is accounted.
func TestBadInput(t *testing.T) {
	huge := `I1122 06:03:25.000000 1 a.go:1] "Status for pod updated successfully" status="` + strings.Repeat("x", 16<<20) + `"`
	tests := []struct {
		name    string
		in      string
		opts    Options
		records int64
		trunc   int64
	}{
		{name: "16 MiB line", in: huge + "\n" + klogLine + "\n", records: 2},
		{name: "16 MiB line over the cap", in: huge + "\n" + klogLine + "\n", opts: Options{MaxLineBytes: 1 << 20}, records: 2, trunc: 1},
		{name: "invalid UTF-8", in: "I1122 06:03:25.000000 1 a.go:1] \"bad \xff\xfe\" k=\"\xc3\x28\"\n", records: 1},
		{name: "NUL bytes", in: "I1122 06:03:25.000000 1 a.go:1] \"nul \x00\" k=\x00\x00\n\x00\x00\x00\n", records: 1},
		{name: "unclosed quote", in: "I1122 06:03:25.000000 1 a.go:1] \"never closed\n", records: 1},
		{name: "unclosed multi-line", in: "I1122 06:03:25.000000 1 a.go:1] \"m\" v=<\n\tx\n" + klogLine + "\n", records: 2},
		{name: "broken JSON", in: "{\"ts\":1,\"msg\":\"x\"\n{\"ts\":\n", records: 0},
		{name: "broken logrus", in: "time=\"nope\" level=info msg=\"x\"\ntime=\"2026-11-22T06:03:25Z\" msg=\"unclosed\n", records: 0},
		{name: "deep JSON", in: "{\"ts\":1,\"msg\":\"x\",\"a\":" + strings.Repeat("[", 100000) + "}\n", records: 0},
		{name: "deep klog value", in: "I1122 06:03:25.000000 1 a.go:1] \"m\" k=" + strings.Repeat("{", 100000) + "\n", records: 1},
		{name: "no newline at end", in: klogLine, records: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			recs, st := readRecords(t, strings.NewReader(tt.in), tt.opts)
			if int64(len(recs)) != tt.records || st.Records != tt.records || st.Truncated != tt.trunc {
				t.Errorf("records %d, stats %+v", len(recs), st)
			}
			if !st.Accounted() {
				t.Errorf("not accounted: %+v", st)
			}
		})
	}
}

// TestWantAllocs checks that lines the caller does not want cost no
// allocation: reading 10 000 more unwanted lines allocates nothing more.
func TestWantAllocs(t *testing.T) {
	lines := []string{
		klogLine,
		"Nov 22 06:03:25 node-a kubelet[21321]: " + klogLine,
		"2026-11-22T06:03:25.671402+00:00 node-a kubelet[21321]: " + klogLine,
		`{"ts":1795328066012.4187,"caller":"kubelet/kubelet.go:2709","msg":"SyncLoop ADD","v":2,"source":"api"}`,
		`time="2026-11-22T06:03:26.411834512Z" level=info msg="RunPodSandbox for &PodSandboxMetadata{Name:web,Uid:u,Namespace:default,Attempt:0,}"`,
		`I1122 06:03:25.000000 1 a.go:1] legacy printf line`,
	}
	for _, line := range lines {
		t.Run(line[:12], func(t *testing.T) {
			small := strings.Repeat(line+"\n", 1000)
			big := strings.Repeat(line+"\n", 11000)
			opts := Options{Year: 2026, Want: func([]byte) bool { return false }}
			count := func(in string) float64 {
				return testing.AllocsPerRun(5, func() {
					rd := NewReader(strings.NewReader(in), opts)
					for {
						if _, err := rd.Next(); err != nil {
							break
						}
					}
				})
			}
			a1, a2 := count(small), count(big)
			t.Logf("allocs: %v for 1000 lines, %v for 11000", a1, a2)
			// A stray runtime allocation or two is noise; one per line would be
			// 10 000. Under the race detector sync.Pool drops what it holds at
			// random, and each buffer it dropped is made again: some tens,
			// still far from one a line.
			noise := 2.0
			if raceEnabled {
				noise = 100
			}
			if perLine := (a2 - a1) / 10000; a2-a1 > noise {
				t.Errorf("%.4f allocs per unwanted line (%v for 1000 lines, %v for 11000)", perLine, a1, a2)
			}
		})
	}
}
