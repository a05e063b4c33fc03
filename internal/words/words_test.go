package words

import (
	"strconv"
	"strings"
	"testing"
)

const maxWord = 303

func TestInternKeepsOneCopy(t *testing.T) {
	long := strings.Repeat("x", maxWord+1)
	huge := strings.Repeat("y", MaxReason+10)
	tests := []struct {
		name     string
		in       string
		want     string
		interned bool
	}{
		{"empty", "", "", true},
		{"word", "Killing container with a grace period", "Killing container with a grace period", true},
		{"longest word", long[:maxWord], long[:maxWord], true},
		{"past the longest word", long, long, false},
		{"past MaxReason: cut", huge, huge[:MaxReason] + "…", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := New(maxWord)
			// The input in a buffer that is then overwritten, as a
			// parser's line is: what is kept must be a copy.
			buf := []byte(tt.in)
			got := tab.Intern(string(buf))
			for i := range buf {
				buf[i] = '!'
			}
			if got != tt.want {
				t.Fatalf("Intern = %.20q…, want %.20q…", got, tt.want)
			}
			k, ok := tab.Lookup(tt.in)
			if ok != tt.interned {
				t.Fatalf("interned %v, want %v", ok, tt.interned)
			}
			if ok && tab.Text(k) != tt.in {
				t.Fatalf("entry %d holds %q", k, tab.Text(k))
			}
			if again := tab.Intern(tt.in); again != tt.want || ok && tab.Counts().Interned != 1+btoi(tt.in != "") {
				t.Fatalf("second Intern: %.20q, %+v", again, tab.Counts())
			}
		})
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestIDsAndRelease(t *testing.T) {
	tab := New(maxWord)
	word := tab.InternID("Pulling image")
	if tab.InternID("Pulling image") != word {
		t.Fatal("a word interned twice has two indexes")
	}
	own := tab.Add("an error of its own")
	if own == word || tab.Text(own) != "an error of its own" {
		t.Fatalf("Add gave %d holding %q", own, tab.Text(own))
	}
	// Releasing an interned entry, or entry 0, changes nothing.
	tab.Release(word)
	tab.Release(0)
	if tab.Text(word) != "Pulling image" || tab.Text(0) != "" {
		t.Fatalf("released interned entries: %q, %q", tab.Text(word), tab.Text(0))
	}
	// An entry of its own is given back and reused.
	tab.Release(own)
	if c := tab.Counts(); c.Free != 1 {
		t.Fatalf("counts after release %+v, want one free", c)
	}
	if k := tab.Add("another"); k != own || tab.Text(k) != "another" {
		t.Fatalf("Add after release gave %d (%q), want the freed %d", k, tab.Text(k), own)
	}
	// Set keeps the entry when the text is the same, and gives back the
	// old one of its own when it changes.
	dst := tab.Add("phase A")
	before := dst
	tab.Set(&dst, "phase A")
	if dst != before {
		t.Fatal("Set to the same text moved the entry")
	}
	tab.Set(&dst, "phase B")
	if tab.Text(dst) != "phase B" || tab.Counts().Free != 1 {
		t.Fatalf("Set: %q, counts %+v", tab.Text(dst), tab.Counts())
	}
}

func TestFullTableKeepsTexts(t *testing.T) {
	tab := New(maxWord)
	for i := 0; !tab.Full(); i++ {
		tab.AddWord("filler " + strconv.Itoa(i))
	}
	if c := tab.Counts(); c.Interned != MaxInterned {
		t.Fatalf("full at %d words, want %d", c.Interned, MaxInterned)
	}
	if _, ok := tab.AddWord("one more"); ok {
		t.Fatal("AddWord interned past MaxInterned")
	}
	k := tab.InternID("a new error")
	if _, ok := tab.Lookup("a new error"); ok || tab.Text(k) != "a new error" {
		t.Fatalf("full table: %q interned %v", tab.Text(k), ok)
	}
	// Interned before: still found, by index.
	w, ok := tab.Lookup("filler 7")
	if !ok || !tab.Is(w, "filler 7", w, true) || tab.Is(k, "filler 7", w, true) {
		t.Fatal("Is disagrees with Lookup")
	}
	if got := tab.Intern("another new one"); got != "another new one" {
		t.Fatalf("Intern on a full table gave %q", got)
	}
}

func TestBytesAgreeWithStrings(t *testing.T) {
	for _, s := range []string{"", "a", "seven b", "exactly8", "a longer text that is a word", strings.Repeat("€", 120), strings.Repeat("z", MaxReason+3)} {
		byString, byBytes := New(maxWord), New(maxWord)
		ks := byString.InternID(s)
		kb := byBytes.InternBytesID([]byte(s))
		if byString.Text(ks) != byBytes.Text(kb) {
			t.Errorf("%.10q: InternID %.10q, InternBytesID %.10q", s, byString.Text(ks), byBytes.Text(kb))
		}
		if got, want := byBytes.InternBytes([]byte(s)), byString.Intern(s); got != want {
			t.Errorf("%.10q: InternBytes %.10q, Intern %.10q", s, got, want)
		}
		_, okS := byString.Lookup(s)
		_, okB := byBytes.LookupBytes([]byte(s))
		if okS != okB {
			t.Errorf("%.10q: interned %v by string, %v by bytes", s, okS, okB)
		}
	}
}

func TestNameStaysWhole(t *testing.T) {
	tab := New(maxWord)
	long := strings.Repeat("n", MaxReason+50)
	if got := tab.Name(long); got != long {
		t.Fatalf("Name cut a long name to %d bytes", len(got))
	}
	if got := tab.Text(tab.NameID(long)); got != long {
		t.Fatalf("NameID cut a long name to %d bytes", len(got))
	}
	if got := tab.Text(tab.InternID(long)); got == long {
		t.Fatal("InternID kept a text past MaxReason whole")
	}
}

func TestLookupIn(t *testing.T) {
	tab := New(maxWord)
	var k uint32
	if _, ok := tab.LookupIn(&k, "Started"); ok || k != 0 {
		t.Fatal("found a word not interned")
	}
	want := tab.InternID("Started")
	if got, ok := tab.LookupIn(&k, "Started"); !ok || got != want || k != want {
		t.Fatalf("LookupIn = %d %v, k %d, want %d", got, ok, k, want)
	}
}

func TestCutEndsOnARune(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"abcdef", 3, "abc…"},
		{"ab€def", 3, "ab…"}, // € is 3 bytes: not cut inside it
		{"ab€def", 5, "ab€…"},
		{"€€", 1, "…"},
	}
	for _, tt := range tests {
		if got := Cut(tt.in, tt.n); got != tt.want {
			t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
		if got := string(CutBytes([]byte(tt.in), tt.n)); got != tt.want {
			t.Errorf("CutBytes(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// FuzzWords runs a sequence of operations read from the input on a table
// (with the lookup cache on and off) and checks after each that every
// live index still holds its text, and that interned texts keep one index.
func FuzzWords(f *testing.F) {
	f.Add([]byte("\x00a\x01b\x02\x00\x03a\x04"), false)
	f.Add([]byte("\x01long error text\x02\x01x\x00x\x05\x00"), true)
	f.Add([]byte("\x03\x03\x03\x00\x00\x01\x02\x02\x04\x04"), false)
	f.Fuzz(func(t *testing.T, ops []byte, reference bool) {
		const small = 12 // a small maxWord, so that long texts come easily
		tab := New(small)
		tab.SetReference(reference)
		type held struct {
			k    uint32
			text string
			own  bool // an entry of its own, to release
		}
		var live []held
		interned := map[string]uint32{"": 0}
		// next takes a text from the input: a length byte, then bytes.
		next := func() string {
			if len(ops) == 0 {
				return ""
			}
			n := int(ops[0]) % 24
			ops = ops[1:]
			n = min(n, len(ops))
			s := string(ops[:n])
			ops = ops[n:]
			return s
		}
		for len(ops) > 0 {
			op := ops[0] % 6
			ops = ops[1:]
			switch op {
			case 0: // InternID
				s := next()
				k := tab.InternID(s)
				want := s
				if len(s) > MaxReason {
					want = Cut(s, MaxReason)
				}
				if tab.Text(k) != want {
					t.Fatalf("InternID(%q) holds %q", s, tab.Text(k))
				}
				if w, ok := interned[s]; ok && w != k {
					t.Fatalf("%q interned as %d, now %d", s, w, k)
				}
				if _, ok := tab.Lookup(s); ok {
					interned[s] = k
				}
				live = append(live, held{k, want, false})
			case 1: // Add: an entry of its own
				s := strings.Clone(next())
				live = append(live, held{tab.Add(s), s, true})
			case 2: // Release the last entry of its own
				for i := len(live) - 1; i >= 0; i-- {
					if live[i].own {
						tab.Release(live[i].k)
						live = append(live[:i], live[i+1:]...)
						break
					}
				}
			case 3: // Set an entry of its own to a new text
				for i := len(live) - 1; i >= 0; i-- {
					if live[i].own {
						s := next()
						tab.Set(&live[i].k, s)
						live[i].text = s
						// Now interned or its own: release only the latter.
						_, ok := tab.Lookup(s)
						live[i].own = !ok
						break
					}
				}
			case 4: // InternBytesID
				s := next()
				k := tab.InternBytesID([]byte(s))
				if tab.Text(k) != s {
					t.Fatalf("InternBytesID(%q) holds %q", s, tab.Text(k))
				}
				_, ok := tab.Lookup(s)
				live = append(live, held{k, s, !ok})
			case 5: // Intern and Name give back the text
				s := next()
				if got := tab.Intern(s); got != s {
					t.Fatalf("Intern(%q) = %q", s, got)
				}
				if got := tab.Name(s); got != s {
					t.Fatalf("Name(%q) = %q", s, got)
				}
			}
			for _, h := range live {
				if tab.Text(h.k) != h.text {
					t.Fatalf("entry %d holds %q, want %q", h.k, tab.Text(h.k), h.text)
				}
			}
			for s, k := range interned {
				if got, ok := tab.Lookup(s); !ok || got != k {
					t.Fatalf("interned %q: Lookup %d %v, want %d", s, got, ok, k)
				}
			}
		}
	})
}
