package gen

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

func loadCorpus(t *testing.T) *Corpus {
	t.Helper()
	c, err := LoadCorpus(filepath.Join("..", "..", "..", "testdata", "corpus", "v1.36.3"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// census reads a generated log the way Measure does, without the
// generator's own bookkeeping: the pods are the names of its SyncLoop ADD
// lines, and a record names a pod when it holds one of their names, UIDs
// or runtime IDs.
func census(t *testing.T, log []byte) (pods, records, podRecords int) {
	t.Helper()
	ids := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		l := sc.Text()
		if _, ok := klogTime(l); !ok {
			continue // a continuation of the record before
		}
		records++
		text := l[21:]
		if m := addRE.FindStringSubmatch(text); m != nil && !ids[m[1]] {
			ids[m[1]] = true
			_, bare, _ := strings.Cut(m[1], "/")
			ids[bare] = true
			pods++
		}
		if podLine(text, ids) {
			podRecords++
			if m := uidRE.FindStringSubmatch(text); m != nil {
				ids[m[1]] = true
			}
			for _, h := range hexRE.FindAllString(text, -1) {
				ids[h] = true
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return pods, records, podRecords
}

func TestGenerateWith(t *testing.T) {
	c := loadCorpus(t)
	const size = 8 << 20
	tests := []struct {
		name string
		opt  Options
		// pods per GiB the log must hold, and the share of its records
		// that name no pod (the node's own lines), as ranges.
		density            int
		minNoise, maxNoise float64
	}{
		// make bench's log: pods' lines are most lines.
		{"default", Options{}, podsPerGiB, 0.05, 0.35},
		// Issue #27's second log: most lines are the node's own.
		{"noise", Options{Noise: true}, NoisePodsPerGiB, 0.60, 0.90},
		// Sparser still: the node's lines weigh more.
		{"noise, 2,000 pods per GiB", Options{Noise: true, PodsPerGiB: 2000}, 2000, 0.80, 0.97},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var a, b bytes.Buffer
			st, err := GenerateWith(c, &a, size, 1, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := GenerateWith(c, &b, size, 1, tc.opt); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("same seed and size, different bytes")
			}
			if int64(a.Len()) != st.Bytes || st.Bytes > size || st.Bytes < size-4096 {
				t.Errorf("wrote %d bytes, Stats says %d, asked %d", a.Len(), st.Bytes, size)
			}

			want := size * tc.density / (1 << 30)
			pods, records, podRecords := census(t, a.Bytes())
			if st.Pods != want {
				t.Errorf("Stats: %d pods, want %d (%d per GiB)", st.Pods, want, tc.density)
			}
			// The log's own ADD lines name every pod started, and no more
			// than one pod of the node's start-up besides.
			if pods < want || pods > want+1 {
				t.Errorf("the log adds %d pods, want %d", pods, want)
			}
			if int64(records) != st.Lines {
				t.Errorf("the log holds %d records, Stats says %d", records, st.Lines)
			}
			noise := 1 - float64(podRecords)/float64(records)
			t.Logf("%d pods, %d records, %.1f%% naming no pod", pods, records, 100*noise)
			if noise < tc.minNoise || noise > tc.maxNoise {
				t.Errorf("%.1f%% of the records name no pod, want %.0f%%..%.0f%%", 100*noise, 100*tc.minNoise, 100*tc.maxNoise)
			}
			// The generator's count of the node's lines agrees with the
			// reading of the log within a few points (a background line
			// may name a pod by chance, e.g. a reused name).
			own := 1 - float64(st.PodLines)/float64(st.Lines)
			if d := own - noise; d > 0.03 || d < -0.03 {
				t.Errorf("Stats: %.1f%% node lines, the log reads %.1f%%", 100*own, 100*noise)
			}

			var other bytes.Buffer
			if _, err := GenerateWith(c, &other, size, 2, tc.opt); err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(a.Bytes(), other.Bytes()) {
				t.Error("seeds 1 and 2 wrote the same bytes")
			}
		})
	}
}

// Generate is GenerateWith without options: make bench's logs keep their
// bytes (bench figures compare across builds on them).
func TestGenerateIsDefault(t *testing.T) {
	c := loadCorpus(t)
	var a, b bytes.Buffer
	pods, n, err := Generate(c, &a, 4<<20, 3)
	if err != nil {
		t.Fatal(err)
	}
	st, err := GenerateWith(c, &b, 4<<20, 3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) || pods != st.Pods || n != st.Bytes {
		t.Errorf("Generate: %d pods, %d bytes; GenerateWith: %d pods, %d bytes; same bytes %v",
			pods, n, st.Pods, st.Bytes, bytes.Equal(a.Bytes(), b.Bytes()))
	}
	var noise bytes.Buffer
	if _, err := GenerateWith(c, &noise, 4<<20, 3, Options{Noise: true}); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Bytes(), noise.Bytes()) {
		t.Error("Noise changed nothing")
	}
}
