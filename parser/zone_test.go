package parser

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestZoneInferred reads klog headers written at an offset the input
// states elsewhere: the journal's zone with a runtime's zoned time under
// it, times inside the kubelet's messages, a short-iso prefix. A zone
// given by the caller wins.
func TestZoneInferred(t *testing.T) {
	dir := filepath.Join("..", "testdata", "formats")
	tests := []struct {
		name string
		file string
		in   string
		opts Options
		want []time.Time
		zone string
	}{
		{name: "journal zone and runtime times", file: "zone-journald-cest.log", opts: Options{ModTime: utc(2030, 1, 1, 0, 0, 0, 0)},
			want: []time.Time{utc(2023, 7, 13, 7, 2, 51, 865903000), utc(2023, 7, 13, 7, 2, 52, 101223114), utc(2023, 7, 13, 7, 2, 52, 104331000)}, zone: "+02:00"},
		{name: "times in messages", file: "zone-watch-times.log", opts: Options{ModTime: utc(2030, 1, 1, 0, 0, 0, 0)},
			want: []time.Time{utc(2023, 7, 13, 7, 20, 14, 1200000), utc(2023, 7, 13, 7, 20, 15, 931125000)}, zone: "-07:00"},
		{name: "short-iso prefix", in: "2026-11-22T07:03:25.700000+0100 n kubelet[1]: I1122 07:03:25.671345 1 kubelet.go:1] \"a\"\n2026-11-22T07:03:26.700000+0100 n kubelet[1]: I1122 07:03:26.671345 1 kubelet.go:1] \"b\"\n",
			want: []time.Time{utc(2026, 11, 22, 6, 3, 25, 671345000), utc(2026, 11, 22, 6, 3, 26, 671345000)}, zone: "+01:00"},
		{name: "given zone wins", file: "zone-watch-times.log", opts: Options{Year: 2023, Location: time.FixedZone("UTC", 0)},
			want: []time.Time{utc(2023, 7, 13, 0, 20, 14, 1200000), utc(2023, 7, 13, 0, 20, 15, 931125000)}},
		{name: "UTC stays", file: "journald-short-iso.log", opts: Options{},
			want: nil},
		// A real kubelet at UTC whose first lines carry cadvisor's "Added
		// event &{/… <an hour before> +0000 UTC containerCreation}": times
		// of past moments, which once voted for +01:00.
		{name: "past times do not vote", file: "../corpus/v1.36.3/11-volume-mount-failure.log", opts: Options{},
			want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recs []Record
			var st Stats
			if tt.file != "" {
				recs, st = readAll(t, filepath.Join(dir, tt.file), tt.opts)
			} else {
				recs, st = readRecords(t, strings.NewReader(tt.in), tt.opts)
			}
			if tt.want == nil {
				if st.Zone != "" {
					t.Errorf("zone %q inferred", st.Zone)
				}
				return
			}
			if len(recs) != len(tt.want) {
				t.Fatalf("got %d records", len(recs))
			}
			for i, w := range tt.want {
				if !recs[i].Time.Equal(w) {
					t.Errorf("record %d time %v, want %v", i, recs[i].Time, w)
				}
			}
			if tt.zone == "" && st.Zone != "" || !strings.Contains(st.Zone, tt.zone) {
				t.Errorf("zone note %q, want one of %q", st.Zone, tt.zone)
			}
		})
	}
}

// TestYearFromInput takes the year from what the input states before the
// file's modification time: a date inside a message, the journal's span,
// an export's times.
func TestYearFromInput(t *testing.T) {
	tests := []struct {
		name, in string
		year     int
	}{
		{"date without a zone in a message", "I0713 07:02:51.865903 1742 kubelet.go:1] \"Starting\" since=\"2017-07-13 07:00:01\"\nI0713 07:02:52.000001 1742 kubelet.go:2] \"b\"\n", 2017},
		{"journal span", "-- Logs begin at Thu 2017-07-13 06:00:01 UTC, end at Thu 2017-07-13 08:00:01 UTC. --\nJul 13 07:02:51 n kubelet[1]: I0713 07:02:51.865903 1 kubelet.go:1] \"a\"\n", 2017},
		{"grep -n behind a date", "12:I0713 07:02:51.865903 1 kubelet.go:1] \"a\" t=\"2017-07-13T07:02:50Z\"\n13:I0713 07:02:52.865903 1 kubelet.go:1] \"b\"\n", 2017},
		{"no date: the file's year", "I0713 07:02:51.865903 1 kubelet.go:1] \"a\"\n", 2026},
	}
	for _, tt := range tests {
		recs, _ := readRecords(t, strings.NewReader(tt.in), Options{ModTime: utc(2026, 11, 1, 0, 0, 0, 0)})
		if len(recs) == 0 {
			t.Fatalf("%s: no records", tt.name)
		}
		for _, r := range recs {
			if r.Time.Year() != tt.year {
				t.Errorf("%s: year %d, want %d", tt.name, r.Time.Year(), tt.year)
			}
		}
	}
}
