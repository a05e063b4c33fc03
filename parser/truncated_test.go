package parser

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCutLines reads lines cut at a fixed width: systemctl status (its
// header block annotations, the year from its "since", lines ending in
// "…" or not) and a terminal capture. Every record is marked Truncated,
// an open quoted value is closed, and inputs cut nowhere (hard-wrapped
// ones included) have no record marked.
func TestCutLines(t *testing.T) {
	dir := filepath.Join("..", "testdata", "formats")
	tests := []struct {
		file        string
		year        int
		annotations int64
		pod         string // the pod value of the fourth record
	}{
		{file: "systemctl-status.log", year: 2019, annotations: 10, pod: "kube-system/coredn"},
		{file: "terminal-cut-100.log", year: 2031, pod: "kube-system/coredns-86c58d9df4-x7kqz"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			recs, st := readAll(t, filepath.Join(dir, tt.file), Options{ModTime: utc(2031, 6, 1, 0, 0, 0, 0)})
			if !st.Accounted() || st.Unrecognized != 0 || st.Annotations != tt.annotations {
				t.Errorf("stats %+v", st)
			}
			if len(recs) != 5 {
				t.Fatalf("got %d records", len(recs))
			}
			for i, r := range recs {
				if !r.Truncated && !(tt.file == "terminal-cut-100.log" && i == 3) {
					t.Errorf("record %d (%q) not marked truncated", i, r.Msg)
				}
				if r.Time.Year() != tt.year {
					t.Errorf("record %d year %d, want %d", i, r.Time.Year(), tt.year)
				}
			}
			if got := recs[3].Str("pod"); got != tt.pod {
				t.Errorf("pod = %q, want %q", got, tt.pod)
			}
			if recs[2].Format != FormatKlog || !strings.HasPrefix(recs[2].Msg, "SyncLoop (PLEG): event for po") {
				t.Errorf("record 2: %v %q", recs[2].Format, recs[2].Msg)
			}
			if st.CutShort != int64(len(recs)) && tt.file == "systemctl-status.log" {
				t.Errorf("cut short = %d", st.CutShort)
			}
		})
	}
	for _, f := range []string{"hard-wrapped-80.log", "klog-multiline.log", "journald-short.log", "json.log", "grep-nH.log"} {
		recs, _ := readAll(t, filepath.Join(dir, f), Options{Year: 2026})
		for _, r := range recs {
			if r.Truncated {
				t.Errorf("%s line %d: marked truncated", f, r.Pos.Line)
			}
		}
	}
}

// TestCloseCut checks how a value cut inside its quotes, list or object is
// closed, and that values closed as written are left alone.
func TestCloseCut(t *testing.T) {
	tests := []struct {
		in, key, want string
		cut           bool
	}{
		{`"m" pod="default/web-7d9`, "pod", "default/web-7d9", true},
		{`"m" pods=["default/a","default/b`, "pods", "[default/a default/b]", true},
		{`"m" err="failed: \"x\" and \`, "err", `failed: "x" and `, true},
		{`"m" event={"ID":"abc","Type":"Contain`, "event", "{ID:abc Type:Contain}", true},
		{`"m" event=&{ID:abc Type:ContainerDied}`, "event", "&{ID:abc Type:ContainerDied}", false},
		{`"m" pod="default/web"`, "pod", "default/web", false},
		{`"SyncLoop A`, "", "", true},
	}
	for _, tt := range tests {
		line := "I0312 09:17:43.200000    2219 kubelet.go:1953] " + tt.in
		recs, _ := readRecords(t, strings.NewReader(line), Options{Year: 2026})
		if len(recs) != 1 {
			t.Fatalf("%s: %d records", tt.in, len(recs))
		}
		r := recs[0]
		if r.Truncated != tt.cut {
			t.Errorf("%s: truncated = %v", tt.in, r.Truncated)
		}
		if tt.key == "" {
			if r.Format != FormatKlog || r.Msg != "SyncLoop A" {
				t.Errorf("%s: %v %q", tt.in, r.Format, r.Msg)
			}
			continue
		}
		v, _ := r.Field(tt.key)
		if got := v.String(); got != tt.want {
			t.Errorf("%s: %s = %q, want %q", tt.in, tt.key, got, tt.want)
		}
	}
}
