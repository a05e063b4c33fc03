package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/podflow/podflow/timeline"
)

func TestMidShorten(t *testing.T) {
	tests := []struct {
		in   string
		w    int
		want string
	}{
		{"payments-7b4d9c8f6-q9zrt", 30, "payments-7b4d9c8f6-q9zrt"},
		{"payments-7b4d9c8f6-q9zrt", 24, "payments-7b4d9c8f6-q9zrt"},
		{"payments-7b4d9c8f6-q9zrt", 18, "payments-7b…-q9zrt"},
		{"payments-7b4d9c8f6-q9zrt", 10, "pay…-q9zrt"},
		{"etcd-kind-control-plane", 12, "etcd-…-plane"},
		// A suffix that leaves the start fewer than three cells is not kept.
		{"payments-7b4d9c8f6-q9zrt", 8, "payment…"},
		{"nodash", 4, "nod…"},
		{"kube-system/coredns-5d78c9869d-abcde", 24, "kube-system/cored…-abcde"},
	}
	for _, tt := range tests {
		got := midShorten(tt.in, tt.w)
		if got != tt.want {
			t.Errorf("midShorten(%q, %d) = %q, want %q", tt.in, tt.w, got, tt.want)
		}
		if w := lipglossWidth(got); w > tt.w {
			t.Errorf("midShorten(%q, %d) is %d wide", tt.in, tt.w, w)
		}
	}
}

// The pod list follows the terminal's width: at 200 columns a long name
// (and its node) shows whole, and the list is wider than at 120; at 80 the
// name is cut in the middle and keeps its unique suffix. Headers name the
// columns at every width.
func TestTUIListWidthFollowsTerminal(t *testing.T) {
	long := "checkout-frontend-canary-v2-7b4d9c8f6-q9zrt"
	withLong := func(w, h int) Model {
		m := loaded(t, Options{}, w, h, corpus+"04-sandbox-failure.log")
		m.all.Items[0].Pod.Namespace = "payments-prod"
		m.all.Items[0].Pod.Name = long
		m.refresh()
		var tm tea.Model = m
		tm, _ = tm.Update(tea.WindowSizeMsg{Width: w, Height: h})
		return tm.(Model)
	}
	sepCol := func(s string) int {
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "NAME") {
				return lipglossWidth(l[:strings.Index(l, "│")])
			}
		}
		return -1
	}
	wide := screen(withLong(200, 30))
	for _, want := range []string{"payments-prod/" + long, "NAME", "STAGE", "TIME"} {
		if !strings.Contains(wide, want) {
			t.Errorf("at 200 columns the list lacks %q:\n%s", want, wide)
		}
	}
	mid := screen(withLong(120, 30))
	if a, b := sepCol(wide), sepCol(mid); a <= b || a <= 70 {
		t.Errorf("list is %d wide at 200 columns and %d at 120: want it to follow the terminal", a, b)
	}
	narrow := screen(withLong(80, 24))
	if !strings.Contains(narrow, "…-q9zrt") || strings.Contains(narrow, long) {
		t.Errorf("at 80 columns the name is not cut in the middle keeping -q9zrt:\n%s", narrow)
	}
	for _, want := range []string{"NAME", "STAGE", "TIME"} {
		if !strings.Contains(narrow, want) {
			t.Errorf("at 80 columns the list lacks the header %q:\n%s", want, narrow)
		}
	}
}

// The list shows kubectl's STATUS beside the name when the whole name
// leaves room for it, and leaves it out (before cutting the name) when not.
func TestTUIListStatus(t *testing.T) {
	items := []timeline.Flow{{Pod: timeline.PodRef{Namespace: "default", Name: "api-6f5b9d7c4-pl8wz"}, Node: "kb-node-pullfail",
		Verdict: timeline.VerdictStalled, Status: "ImagePullBackOff", StalledAt: timeline.StContainers}}
	nat := naturalCols(items, []int{0})
	wide := layoutList(nat, 100)
	if wide.status != len("ImagePullBackOff") {
		t.Fatalf("at 100 cells STATUS is %d wide, want %d", wide.status, len("ImagePullBackOff"))
	}
	head := renderListHeader(styles{}, wide)
	row := strings.Join(renderList(styles{}, items, []int{0}, -1, 0, wide, 1, true), "\n")
	if !strings.Contains(head, "STATUS") || !strings.Contains(row, "ImagePullBackOff") {
		t.Errorf("at 100 cells: header %q row %q, want STATUS and ImagePullBackOff", head, row)
	}
	narrow := layoutList(nat, 50)
	if narrow.status != 0 || narrow.name < len("api-6f5b9d7c4-pl8wz") && narrow.status > 0 {
		t.Errorf("at 50 cells: %+v, want STATUS left out before the name is cut", narrow)
	}
}
