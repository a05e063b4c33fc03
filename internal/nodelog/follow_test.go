package nodelog

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// journalNode is a node whose kubelet logs to journald: it answers with
// the lines written since sinceTime (whole seconds, as journalctl's
// --since reads them), up to its clock, and the clock in the Date
// header. Each wait of the follower advances the clock and writes lines.
type journalNode struct {
	mu    sync.Mutex
	now   time.Time
	lines []journalLine
	asked []string // sinceTime of each ask
}

type journalLine struct {
	at   time.Time
	text string
}

func (n *journalNode) write(count int) {
	for i := 0; i < count; i++ {
		n.now = n.now.Add(400 * time.Millisecond)
		n.lines = append(n.lines, journalLine{n.now, fmt.Sprintf("%s node-1 kubelet[42]: I1122 line %d\n", n.now.Format("Jan 02 15:04:05.000000"), len(n.lines))})
	}
}

func (n *journalNode) serve(w http.ResponseWriter, r *http.Request) {
	n.mu.Lock()
	defer n.mu.Unlock()
	since := time.Time{}
	if s := r.URL.Query().Get("sinceTime"); s != "" {
		since, _ = time.Parse(time.RFC3339, s)
	}
	n.asked = append(n.asked, r.URL.Query().Get("sinceTime"))
	w.Header().Set("Date", n.now.UTC().Format(http.TimeFormat))
	for _, l := range n.lines {
		if !l.at.Before(since.Truncate(time.Second)) {
			io.WriteString(w, l.text)
		}
	}
}

func TestFollowJournalNode(t *testing.T) {
	n := &journalNode{now: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)}
	n.write(10)
	c, _ := fakeAPI(t, n.serve)
	polls := 0
	sleep := func(ctx context.Context, d time.Duration) error {
		if d != 2*time.Second {
			t.Errorf("waits %v, want the default 2s", d)
		}
		n.mu.Lock()
		defer n.mu.Unlock()
		if polls++; polls > 4 {
			return context.Canceled
		}
		n.write(5) // 2s of lines
		return nil
	}
	rc, whole, err := c.Follow(context.Background(), "n1", Query{}, FollowOptions{Sleep: sleep})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if whole {
		t.Error("a journald node reported as sending whole files")
	}
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for _, l := range n.lines {
		want.WriteString(l.text)
	}
	if string(b) != want.String() {
		t.Errorf("followed\n%s\nwant every line once, in order:\n%s", b, want.String())
	}
	// The first ask has no window; each next starts the overlap (3s)
	// before the last answer's Date.
	wantAsked := []string{"", "2026-11-22T06:00:01Z", "2026-11-22T06:00:03Z", "2026-11-22T06:00:05Z", "2026-11-22T06:00:07Z"}
	if strings.Join(n.asked, " ") != strings.Join(wantAsked, " ") {
		t.Errorf("sinceTime asked %q, want %q", n.asked, wantAsked)
	}
}

// fileNode is a node whose kubelet logs to /var/log/kubelet.log: any
// option is refused in band, and the whole file is sent.
type fileNode struct {
	mu   sync.Mutex
	file string
}

func (n *fileNode) serve(w http.ResponseWriter, r *http.Request) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(r.URL.Query()) > 1 {
		io.WriteString(w, "\noptions present and query resolved to log files for [kubelet]\ntry without specifying options\n")
		return
	}
	io.WriteString(w, n.file)
}

func TestFollowFileNode(t *testing.T) {
	n := &fileNode{file: "a1\na2\na3 still being writ"}
	c, _ := fakeAPI(t, n.serve)
	steps := []func(){
		func() { n.file += "ten\na4\n" }, // the cut line ends, one more
		func() {},                        // nothing new
		func() { n.file = "b1\n" },       // rotated: shorter, a new start
		func() { n.file += "b2\nb3\n" },  // grows again
	}
	polls := 0
	sleep := func(ctx context.Context, d time.Duration) error {
		n.mu.Lock()
		defer n.mu.Unlock()
		if polls >= len(steps) {
			return context.Canceled
		}
		steps[polls]()
		polls++
		return nil
	}
	rc, whole, err := c.Follow(context.Background(), "n1", Query{Since: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)}, FollowOptions{Sleep: sleep})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if !whole {
		t.Error("a file node not reported as sending whole files")
	}
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	// b1 came while the file was shorter than what was passed on: that
	// answer is the sign of a new start, and the next passes it all.
	want := "a1\na2\na3 still being written\na4\nb1\nb2\nb3\n"
	if string(b) != want {
		t.Errorf("followed %q\nwant %q", b, want)
	}
}

func TestFollowRefusals(t *testing.T) {
	t.Run("first ask", func(t *testing.T) {
		c, _ := fakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "logs endpoint is disabled.", http.StatusMethodNotAllowed)
		})
		if _, _, err := c.Follow(context.Background(), "n1", Query{}, FollowOptions{}); !errors.Is(err, ErrRefused) {
			t.Errorf("err = %v, want a refusal", err)
		}
	})
	t.Run("a later ask", func(t *testing.T) {
		asks := 0
		c, _ := fakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
			if asks++; asks > 1 {
				w.WriteHeader(http.StatusForbidden)
				io.WriteString(w, statusBody(403, "Forbidden", `nodes "n1" is forbidden: User "dev" cannot get resource "nodes/proxy"`))
				return
			}
			io.WriteString(w, "line 1\n")
		})
		rc, _, err := c.Follow(context.Background(), "n1", Query{}, FollowOptions{Sleep: func(context.Context, time.Duration) error { return nil }})
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if string(b) != "line 1\n" || !errors.Is(err, ErrRefused) {
			t.Errorf("read %q, %v; want line 1 then the refusal", b, err)
		}
	})
}
