package textmemo

import (
	"strconv"
	"strings"
	"testing"
)

func TestGetPut(t *testing.T) {
	var m Memo[int]
	slot, _, hit := m.Get("a status")
	if hit {
		t.Fatal("an empty memo hit")
	}
	m.Put(slot, "a status", 7)
	tests := []struct {
		text string
		hit  bool
		val  int
	}{
		{"a status", true, 7},
		{"a statu", false, 0},
		{"a status ", false, 0},
		{"", false, 0},
	}
	for _, tt := range tests {
		_, v, hit := m.Get(tt.text)
		if hit != tt.hit || v != tt.val {
			t.Errorf("Get(%q) = %d %v, want %d %v", tt.text, v, hit, tt.val, tt.hit)
		}
	}
	long := strings.Repeat("x", MaxText+1)
	slot, _, _ = m.Get(long)
	m.Put(slot, long, 1)
	if _, _, hit := m.Get(long); hit {
		t.Fatal("a text past MaxText was remembered")
	}
}

// The memo holds its own copy: the caller's buffer may change.
func TestKeepsACopy(t *testing.T) {
	var m Memo[string]
	buf := []byte("container status")
	s := string(buf)
	slot, _, _ := m.Get(s)
	m.Put(slot, s, "read")
	copy(buf, "XXXXXXXXX")
	if _, v, hit := m.Get("container status"); !hit || v != "read" {
		t.Fatalf("after the caller's buffer changed: %q %v", v, hit)
	}
}

// Two texts of a set are both kept; a third takes the one used least
// lately.
func TestTwoWays(t *testing.T) {
	var m Memo[int]
	// Find three texts of one set.
	set := func(s string) uint64 {
		slot, _, _ := m.Get(s)
		for i := range m.ents {
			if &m.ents[i] == slot {
				return uint64(i / 2)
			}
		}
		t.Fatal("slot not in the memo")
		return 0
	}
	var same []string
	want := set("t0")
	same = append(same, "t0")
	for i := 1; len(same) < 3; i++ {
		if s := "t" + strconv.Itoa(i); set(s) == want {
			same = append(same, s)
		}
	}
	m = Memo[int]{seed: m.seed}
	for i, s := range same[:2] {
		slot, _, _ := m.Get(s)
		m.Put(slot, s, i)
	}
	for i, s := range same[:2] {
		if _, v, hit := m.Get(s); !hit || v != i {
			t.Fatalf("%q: %d %v, want %d", s, v, hit, i)
		}
	}
	// same[1] used last: same[2] takes same[0]'s way.
	slot, _, _ := m.Get(same[2])
	m.Put(slot, same[2], 2)
	if _, _, hit := m.Get(same[0]); hit {
		t.Error("the way used least lately was kept")
	}
	if _, v, hit := m.Get(same[2]); !hit || v != 2 {
		t.Error("the new text was not kept")
	}
}

// FuzzTextMemo puts and gets texts from the input and checks that a hit
// always gives the value last put for that very text.
func FuzzTextMemo(f *testing.F) {
	f.Add([]byte("abc\x00abd\x01abc\x02"), uint8(3))
	f.Add([]byte{0, 0, 0, 1, 1, 1}, uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, width uint8) {
		w := int(width%16) + 1
		var m Memo[string]
		last := map[string]string{}
		for i := 0; i+w <= len(data); i += w {
			s := string(data[i : i+w])
			slot, v, hit := m.Get(s)
			if want, ok := last[s]; hit && (!ok || v != want) {
				t.Fatalf("Get(%q) hit with %q, last put %q (%v)", s, v, want, ok)
			}
			if !hit || i%3 == 0 {
				val := s + "@" + strconv.Itoa(i)
				m.Put(slot, s, val)
				last[s] = val
			}
		}
	})
}
