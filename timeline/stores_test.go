package timeline

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/podflow/podflow/internal/stamps"
	"github.com/podflow/podflow/parser"
)

// sweepTimes renumbers every stamp the flows hold: eachStamp must visit
// each stamp field of a flow's state, which a reflective walk counts.
func TestEachStampVisitsEveryStamp(t *testing.T) {
	stampType := reflect.TypeFor[stamps.Stamp]()
	nodeType := reflect.TypeFor[*nodeState]()
	var count func(v reflect.Value) int
	count = func(v reflect.Value) int {
		if v.Type() == stampType {
			return 1
		}
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() || v.Type() == nodeType { // the flow's node holds no stamps
				return 0
			}
			return count(v.Elem())
		case reflect.Struct:
			n := 0
			for i := range v.NumField() {
				n += count(v.Field(i))
			}
			return n
		case reflect.Slice, reflect.Array:
			n := 0
			for i := range v.Len() {
				n += count(v.Index(i))
			}
			return n
		}
		return 0
	}
	if reflect.TypeFor[nodeState]().NumField() == 0 || count(reflect.ValueOf(&nodeState{})) != 0 {
		t.Fatal("the walk does not work")
	}
	for _, name := range []string{"v1.36.3/07-twenty-pods.log", "v1.36.3/10-init-container-crashloop.log", "v1.36.3/03-slow-image-pull.log"} {
		data, err := os.ReadFile(filepath.Join(corpus, name))
		if err != nil {
			t.Fatal(err)
		}
		b := NewBuilder(Options{})
		feed(b, filepath.Base(name), data)
		want := 0
		for _, f := range b.flows {
			want += count(reflect.ValueOf(f))
		}
		got := 0
		b.eachStamp(func(*stamps.Stamp) { got++ })
		if got != want || want < 50 {
			t.Errorf("%s: eachStamp visits %d stamps, the flows hold %d", name, got, want)
		}
	}
}

// Times far from the first are kept on the side and swept, or made again
// from a new base when most are far: the list is the one a builder that
// never sweeps makes.
func TestSweptTimesComeBack(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(corpus, "v1.36.3/07-twenty-pods.log"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		first time.Time // the first time the builder stamps, its base
		years []int     // the log is read once per year, each as its own node
	}{
		// Most times near the base: the far ones (twenty years on) swept.
		{"sweep", time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC), []int{2026, 2046}},
		// The log four years after the base, then twice twenty years
		// after: most times are far, until the base moves to the latest.
		{"rebase", time.Date(2006, 1, 1, 0, 0, 0, 0, time.UTC), []int{2010, 2026, 2027}},
	}
	for _, tt := range tests {
		build := func(floor int) (js []byte, sweeps int, base time.Time) {
			b := NewBuilder(Options{})
			b.stamps.At(tt.first)
			b.stamps.SetSweepFloor(floor)
			for _, year := range tt.years {
				r := parser.NewReader(bytes.NewReader(data), parser.Options{Name: strconv.Itoa(year) + ".log", Year: year, Want: b.Want})
				for {
					rec, err := r.Next()
					if err != nil {
						break
					}
					n := b.stamps.Wide()
					b.Add(rec)
					if b.stamps.Wide() < n {
						sweeps++
					}
				}
			}
			base = b.stamps.Base()
			js, _ = json.Marshal(b.Finish())
			return js, sweeps, base
		}
		swept, sweeps, base := build(8)
		kept, _, _ := build(math.MaxInt)
		if !bytes.Equal(swept, kept) {
			t.Errorf("%s: the list differs when times on the side are swept", tt.name)
		}
		switch {
		case tt.name == "sweep" && sweeps < 5:
			t.Errorf("sweep: %d sweeps, the test proves nothing", sweeps)
		case tt.name == "rebase" && base.Year() != 2026:
			t.Errorf("rebase: the base is %v after %d sweeps, want it moved to the log's time", base, sweeps)
		case tt.name == "sweep" && !base.Equal(tt.first):
			t.Errorf("sweep: the base moved to %v", base)
		}
	}
}

// stripRuntime drops what strings.Index finds of "://" and what is before.
func TestStripRuntime(t *testing.T) {
	for _, id := range []string{"", "abc", "containerd://abc", "cri-o://x", "a:b://c", "a:/b", "a::b", "://", "x:", "a:/:/b://c://d", ":://e"} {
		want := id
		if i := strings.Index(id, "://"); i >= 0 {
			want = id[i+3:]
		}
		if got := stripRuntime(id); got != want {
			t.Errorf("stripRuntime(%q) = %q, want %q", id, got, want)
		}
	}
}
